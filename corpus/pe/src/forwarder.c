/* forwarder.dll: no code of its own beyond DllMain; both exports are forwarders
 * declared in forwarder.def. It has no imports. */
#include "fixture.h"

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reason; (void)reserved;
    return TRUE;
}
