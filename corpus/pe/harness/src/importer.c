/* uses_<x>.dll: imports one function, IMPORTED (set by build.py with -D), from one DLL whose import
 * library build.py makes from a generated .def file. Used to put a chosen DLL name in an import table:
 * a KnownDLL (psapi.dll), a system DLL that is not one (version.dll), the VC++ runtime (MSVCP140.dll),
 * API sets. Never called. */
#include "fixture.h"

__declspec(dllimport) int IMPORTED(int x);

int uses_func(int x)
{
    return IMPORTED(x);
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reason; (void)reserved;
    return TRUE;
}
