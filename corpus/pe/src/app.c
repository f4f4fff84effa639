/* app.exe / app32.exe: a console program importing chain_a.dll (a_func)
 * and KERNEL32.dll (ExitProcess). No C runtime: the entry point is start(). */
#include "fixture.h"

__declspec(dllimport) int a_func(int x);

void start(void)
{
    ExitProcess((UINT)a_func(0) & 0xff);
}
