/* delay_user.dll: delay-load imports late_func from delayed_missing.dll (which
 * exists nowhere) and normally imports c_func from chain_c.dll. The delay-load
 * helper __delayLoadHelper2 and the array terminator come from delayimp.c. */
#include "fixture.h"

__declspec(dllimport) int c_func(int x);
__declspec(dllimport) int late_func(int x);

int du_func(int x)
{
    return c_func(x) + late_func(x);
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reason; (void)reserved;
    return TRUE;
}
