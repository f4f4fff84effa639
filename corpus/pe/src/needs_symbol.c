/* needs_symbol.dll: imports c_func (exported) and c_func_missing (NOT exported)
 * by name from chain_c.dll, through imp_chain_c_symbol.def. */
#include "fixture.h"

__declspec(dllimport) int c_func(int x);
__declspec(dllimport) int c_func_missing(int x);

int ns_func(int x)
{
    return c_func(x) + c_func_missing(x);
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reason; (void)reserved;
    return TRUE;
}
