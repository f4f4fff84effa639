/* needs_ordinal.dll: imports chain_c.dll by ordinal only: #1 (exported, it is
 * c_func) and #77 (not exported), through imp_chain_c_ordinal.def (NONAME). */
#include "fixture.h"

__declspec(dllimport) int c_ord1(int x);
__declspec(dllimport) int c_ord77(int x);

int no_func(int x)
{
    return c_ord1(x) + c_ord77(x);
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reason; (void)reserved;
    return TRUE;
}
