/* uses_forwarder.dll: imports fwd_func (forwarded to chain_c.c_func) and
 * fwd_missing (forwarded to chain_c.nope, which does not exist) from forwarder.dll. */
#include "fixture.h"

__declspec(dllimport) int fwd_func(int x);
__declspec(dllimport) int fwd_missing(int x);

int uf_func(int x)
{
    return fwd_func(x) + fwd_missing(x);
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reason; (void)reserved;
    return TRUE;
}
