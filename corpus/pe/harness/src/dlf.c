/* dlf.dll: chain_b.dll's shape (imports c_func from chain_c.dll) plus a load configuration directory,
 * whose DependentLoadFlags build.py sets per variant (dlf_0800.dll: LOAD_LIBRARY_SEARCH_SYSTEM32, ...).
 *
 * link.exe writes DependentLoadFlags with /DEPENDENTLOADFLAG. GNU ld 2.40 only places the structure
 * (the symbol _load_config_used, as in any PE toolchain) but does not point DataDirectory[10] at it;
 * build.py finds it by its contents and fills in the directory entry. */
#include "fixture.h"

__declspec(dllimport) int c_func(int x);

int dlf_func(int x)
{
    return c_func(x) + 5;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
    (void)inst; (void)reason; (void)reserved;
    return TRUE;
}

/* IMAGE_LOAD_CONFIG_DIRECTORY64 up to SEHandlerCount (0x70 bytes; DependentLoadFlags at 0x4E).
 * Size is the first field: the loader reads no field beyond it. */
struct load_config {
    DWORD size;
    DWORD time_date_stamp;
    unsigned short major_version, minor_version;
    DWORD global_flags_clear, global_flags_set, critical_section_default_timeout;
    unsigned long long decommit_free_block_threshold, decommit_total_free_threshold;
    unsigned long long lock_prefix_table, maximum_allocation_size, virtual_memory_threshold;
    unsigned long long process_affinity_mask;
    DWORD process_heap_flags;
    unsigned short csd_version;
    unsigned short dependent_load_flags; /* a marker here; build.py writes the real value */
    unsigned long long edit_list, security_cookie, se_handler_table, se_handler_count;
};

__attribute__((used)) const struct load_config _load_config_used = {
    sizeof(struct load_config), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xD1F0, 0, 0, 0, 0,
};
