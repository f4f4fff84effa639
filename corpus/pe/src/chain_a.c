/* chain_a.dll: imports chain_b.dll (b_func), exports a_func. */
#include "fixture.h"

__declspec(dllimport) int b_func(int x);

int a_func(int x)
{
    return b_func(x) + 1;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reason; (void)reserved;
    return TRUE;
}
