/* python311.dll: a stand-in for the interpreter's DLL next to harness.exe, so that the fixtures'
 * extension modules (which import PyModule_Create2 from python311.dll) find it in the application
 * directory, as they would next to python.exe. Nothing here is ever called. */
#include "fixture.h"

void *PyModule_Create2(void *def, int api_version)
{
    (void)def;
    (void)api_version;
    return NULL;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reason; (void)reserved;
    return TRUE;
}
