/* ucrt_user.dll: imports like an MSVC-built DLL: _initterm and _cexit from the
 * API set api-ms-win-crt-runtime-l1-1-0.dll, memcpy and __C_specific_handler
 * from VCRUNTIME140.dll. Import libraries come from .def files; build.py
 * compiles this with -fno-builtin so memcpy stays a real import. */
#include "fixture.h"

typedef void (*vfunc)(void);

__declspec(dllimport) void _initterm(vfunc *first, vfunc *last);
__declspec(dllimport) void _cexit(void);
__declspec(dllimport) void *memcpy(void *dst, const void *src, size_t n);
__declspec(dllimport) int __C_specific_handler(void *rec, void *frame, void *ctx, void *disp);

void *uc_handler(void)
{
    return (void *)&__C_specific_handler;
}

int uc_func(char *dst, const char *src, int n)
{
    static vfunc none[1];
    _initterm(none, none);
    memcpy(dst, src, (size_t)n);
    _cexit();
    return n;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reason; (void)reserved;
    return TRUE;
}
