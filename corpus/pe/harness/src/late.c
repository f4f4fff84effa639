/* delayed_missing.dll after all: the DLL that the fixture delay_user.dll delay-loads, exporting the
 * late_func it asks for, for layouts where the delay-load helper finds it. */
#include "fixture.h"

int late_func(int x)
{
    return x + 40;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reason; (void)reserved;
    return TRUE;
}
