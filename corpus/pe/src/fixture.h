/* The few Windows declarations the fixtures need. Including <windows.h> instead
 * would take most of the build time and tie the sources to one mingw-w64
 * header version. */
#ifndef FIXTURE_H
#define FIXTURE_H

#include <stddef.h>
#include <stdint.h>

typedef int BOOL;
typedef unsigned int UINT;
typedef unsigned long DWORD;
typedef void *HINSTANCE;
typedef void *HMODULE;
typedef void *LPVOID;
typedef intptr_t (__stdcall *FARPROC)(void);

#define WINAPI __stdcall
#define TRUE 1

/* KERNEL32.dll; only the functions a source calls end up in its import table. */
__declspec(dllimport) DWORD WINAPI GetCurrentProcessId(void);
__declspec(dllimport) __attribute__((noreturn)) void WINAPI ExitProcess(UINT code);
__declspec(dllimport) HMODULE WINAPI LoadLibraryA(const char *name);
__declspec(dllimport) FARPROC WINAPI GetProcAddress(HMODULE module, const char *name);
__declspec(dllimport) void WINAPI RaiseException(DWORD code, DWORD flags, DWORD nargs, const uintptr_t *args);

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved);

#endif
