/* A minimal delay-load helper for DLLs linked with dlltool delay libraries.
 *
 * dlltool --output-delaylib emits one 32-byte delay-import descriptor per DLL
 * into the input section .text$2 and a __tailMerge_<lib> stub that calls
 * __delayLoadHelper2(descriptor, iat_entry). This file provides:
 *  - that helper, using only LoadLibraryA, GetProcAddress and RaiseException
 *    (mingw-w64's own in libmingwex.a would add four more KERNEL32 imports and
 *    .pdata/.xdata), and
 *  - the all-zero descriptor that ends the array: .text$2z sorts right after
 *    .text$2 in ld's default script (*(SORT(.text$*))).
 * GNU ld 2.40 does not fill in the Delay Import data directory entry; build.py
 * points it at the descriptors after linking. */
#include "fixture.h"

extern const char __ImageBase[]; /* defined by ld: the module's base address */

struct delay_descriptor {
    DWORD attributes; /* 1: the fields below are RVAs */
    DWORD dll_name;
    DWORD module_handle;
    DWORD iat;
    DWORD name_table; /* pointer-sized entries: an ordinal (top bit set) or the RVA of hint + name */
    DWORD bound_iat;
    DWORD unload_iat;
    DWORD timestamp;
};

#define ORDINAL_FLAG ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))
/* VcppException(ERROR_SEVERITY_ERROR, ERROR_MOD_NOT_FOUND / ERROR_PROC_NOT_FOUND) */
#define DELAY_MOD_NOT_FOUND 0xC06D007Eu
#define DELAY_PROC_NOT_FOUND 0xC06D007Fu

FARPROC WINAPI __delayLoadHelper2(const struct delay_descriptor *d, FARPROC *iat_entry);

FARPROC WINAPI __delayLoadHelper2(const struct delay_descriptor *d, FARPROC *iat_entry)
{
    const char *base = __ImageBase;
    HMODULE *module = (HMODULE *)(base + d->module_handle);
    FARPROC *iat = (FARPROC *)(base + d->iat);
    uintptr_t entry = ((const uintptr_t *)(base + d->name_table))[iat_entry - iat];
    const char *proc;
    FARPROC f;

    if (*module == NULL) {
        *module = LoadLibraryA(base + d->dll_name);
        if (*module == NULL) {
            RaiseException(DELAY_MOD_NOT_FOUND, 0, 0, NULL);
            return NULL;
        }
    }
    if (entry & ORDINAL_FLAG)
        proc = (const char *)(entry & 0xFFFF);
    else
        proc = base + (DWORD)entry + 2; /* skip the 2-byte hint */
    f = GetProcAddress(*module, proc);
    if (f == NULL) {
        RaiseException(DELAY_PROC_NOT_FOUND, 0, 0, NULL);
        return NULL;
    }
    *iat_entry = f;
    return f;
}

__attribute__((section(".text$2z"), aligned(4), used))
const struct delay_descriptor delay_descriptors_end = {0, 0, 0, 0, 0, 0, 0, 0};
