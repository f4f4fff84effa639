/* chain_c.dll: the leaf of the chain a -> b -> c. Imports only KERNEL32.dll.
 * Exports are declared in chain_c.def (c_func with the explicit ordinal @1). */
#include "fixture.h"

int c_func(int x)
{
    return x + (int)GetCurrentProcessId();
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reason; (void)reserved;
    return TRUE;
}
