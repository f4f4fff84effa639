/* chain_b.dll: imports chain_c.dll (c_func), exports b_func. */
#include "fixture.h"

__declspec(dllimport) int c_func(int x);

int b_func(int x)
{
    return c_func(x) + 2;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reason; (void)reserved;
    return TRUE;
}
