/* needs_missing.dll: imports ghost_func from does_not_exist.dll, a DLL that
 * exists nowhere (the import library comes from imp_does_not_exist.def). */
#include "fixture.h"

__declspec(dllimport) int ghost_func(int x);

int nm_func(int x)
{
    return ghost_func(x);
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reason; (void)reserved;
    return TRUE;
}
