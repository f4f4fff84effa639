/* A fake CPython extension module: exports PyInit_<name>, imports
 * PyModule_Create2 from pythonXY.dll (the import library comes from
 * imp_python311.def or imp_python312.def) and a_func from chain_a.dll.
 * PYMOD_INIT is the init function's name, set by build.py with -D. */
#include "fixture.h"

#ifndef PYMOD_INIT
#define PYMOD_INIT PyInit_pymod
#endif

/* Only the shape matters here: the module is never imported for real. */
struct fake_module_def { void *slots[13]; };
static struct fake_module_def module_def;

__declspec(dllimport) void *PyModule_Create2(struct fake_module_def *def, int api_version);
__declspec(dllimport) int a_func(int x);

void *PYMOD_INIT(void)
{
    module_def.slots[0] = (void *)(intptr_t)a_func(0);
    return PyModule_Create2(&module_def, 1013);
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reason; (void)reserved;
    return TRUE;
}
