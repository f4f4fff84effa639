/* versioned.dll: a DLL whose only interesting part is its VS_VERSIONINFO
 * resource (versioned.rc), shaped like a VC++ runtime DLL's. No imports. */
#include "fixture.h"

int v_func(int x)
{
    return x * 3;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reason; (void)reserved;
    return TRUE;
}
