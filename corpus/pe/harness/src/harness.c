/* harness.exe: a stand-in for python.exe that performs the load operations dlldoctor models and prints
 * what the loader did. Its own folder is the application directory, as python.exe's folder is for a
 * Python process. No C runtime is linked: the process starts with ntdll, kernel32 and kernelbase only,
 * so every other module in it was loaded by an operation below.
 *
 *   harness.exe OP ARG [OP ARG ...]
 *
 * OP is one of
 *   adddir DIR      AddDllDirectory(DIR)                       (os.add_dll_directory)
 *   torchdir DIR    remember DIR for the PATH prefix of torch's fallback (torch's dll_paths)
 *   setpath VALUE   SetEnvironmentVariableW(PATH, VALUE)
 *   cdll NAME       LoadLibraryExW(NAME, NULL, 0x1000): ctypes.CDLL of a bare name (torch loads the
 *                   VC++ runtime so and only prints a warning when that fails)
 *   ext FILE        LoadLibraryExW(FILE, NULL, 0x1100): CPython >= 3.8 importing an extension module
 *   torch FILE      one step of torch's preload: LoadLibraryExW(FILE, NULL, 0x1100); on error 126 only,
 *                   PATH is prefixed with the torchdir folders (once) and LoadLibraryW(FILE) is tried.
 *                   Any other failure stops the harness, as torch raises, unless "keepgoing" was given
 *   keepgoing 1     report a failed torch step and go on (torch itself would raise)
 *   plain NAME      LoadLibraryW(NAME): the standard search order
 *   flags=HEX NAME  LoadLibraryExW(NAME, NULL, 0xHEX)
 *   call DLL:SYM    GetProcAddress(GetModuleHandleW(DLL), SYM) and call it with 0 on a thread of its
 *                   own: runs the delay-load helper; a delay-load exception (0xC06D007E module not
 *                   found, 0xC06D007F procedure not found) is reported
 *
 * Output, one record per line on stdout, written unbuffered so that it interleaves in time order with
 * Wine's own traces (WINEDEBUG=+pid,+loaddll) when both go to one file:
 *   process XXXX                     this process's id in hex: the prefix of its +pid traces
 *   op N KIND ARG
 *   result N ok PATH                 the module the operation returned, by its file name
 *   result N error CODE              GetLastError(), decimal
 *   result N fallback-ok PATH | result N fallback-error CODE      torch's retry after 126
 *   result N exception 0xXXXXXXXX | result N returned VALUE        call
 *   module N BASENAME PATH           a module that became loaded during op N, in load order
 *   stopped                          torch raised: the harness ends here
 *   done                             the harness reached its end
 *
 * Build: corpus/pe/harness/build.py (x86_64 only: running a 32-bit harness needs wine32).
 */
#include <stddef.h>
#include <stdint.h>

typedef int BOOL;
typedef unsigned long DWORD;
typedef unsigned short WCHAR;
typedef void *HANDLE;
typedef void *HMODULE;
typedef long LONG;
typedef intptr_t(__stdcall *FARPROC)(void);

#define WINAPI __stdcall
#define STD_OUTPUT_HANDLE ((DWORD)-11)
#define ERROR_MOD_NOT_FOUND 126
#define ERROR_INVALID_PARAMETER 87
#define LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR 0x100
#define LOAD_LIBRARY_SEARCH_DEFAULT_DIRS 0x1000
#define SEM_FAILCRITICALERRORS 0x0001
#define SEM_NOOPENFILEERRORBOX 0x8000
#define EXCEPTION_CONTINUE_SEARCH 0
#define INFINITE 0xFFFFFFFFu

typedef struct {
    DWORD ExceptionCode;
    /* the rest is not read */
} EXCEPTION_RECORD;
typedef struct {
    EXCEPTION_RECORD *ExceptionRecord;
    void *ContextRecord;
} EXCEPTION_POINTERS;
typedef LONG(WINAPI *VECTORED_HANDLER)(EXCEPTION_POINTERS *info);
typedef DWORD(WINAPI *THREAD_START)(void *parameter);

__declspec(dllimport) HANDLE WINAPI GetStdHandle(DWORD which);
__declspec(dllimport) BOOL WINAPI WriteFile(HANDLE file, const void *data, DWORD size, DWORD *written,
                                            void *overlapped);
__declspec(dllimport) int WINAPI WideCharToMultiByte(unsigned page, DWORD flags, const WCHAR *text, int length,
                                                     char *out, int size, const char *dflt, BOOL *used);
__declspec(dllimport) const WCHAR *WINAPI GetCommandLineW(void);
__declspec(dllimport) DWORD WINAPI GetCurrentProcessId(void);
__declspec(dllimport) HANDLE WINAPI GetCurrentProcess(void);
__declspec(dllimport) DWORD WINAPI GetLastError(void);
__declspec(dllimport) void WINAPI SetLastError(DWORD code);
__declspec(dllimport) unsigned WINAPI SetErrorMode(unsigned mode);
__declspec(dllimport) HMODULE WINAPI LoadLibraryW(const WCHAR *name);
__declspec(dllimport) HMODULE WINAPI LoadLibraryExW(const WCHAR *name, HANDLE reserved, DWORD flags);
__declspec(dllimport) void *WINAPI AddDllDirectory(const WCHAR *folder);
__declspec(dllimport) BOOL WINAPI SetEnvironmentVariableW(const WCHAR *name, const WCHAR *value);
__declspec(dllimport) DWORD WINAPI GetEnvironmentVariableW(const WCHAR *name, WCHAR *value, DWORD size);
__declspec(dllimport) DWORD WINAPI GetModuleFileNameW(HMODULE module, WCHAR *path, DWORD size);
__declspec(dllimport) HMODULE WINAPI GetModuleHandleW(const WCHAR *name);
__declspec(dllimport) FARPROC WINAPI GetProcAddress(HMODULE module, const char *name);
__declspec(dllimport) BOOL WINAPI K32EnumProcessModules(HANDLE process, HMODULE *modules, DWORD size,
                                                        DWORD *needed);
__declspec(dllimport) void *WINAPI AddVectoredExceptionHandler(DWORD first, VECTORED_HANDLER handler);
__declspec(dllimport) HANDLE WINAPI CreateThread(void *security, size_t stack, THREAD_START start,
                                                 void *parameter, DWORD flags, DWORD *id);
__declspec(dllimport) DWORD WINAPI WaitForSingleObject(HANDLE handle, DWORD milliseconds);
__declspec(dllimport) BOOL WINAPI CloseHandle(HANDLE handle);
__declspec(dllimport) __attribute__((noreturn)) void WINAPI ExitThread(DWORD code);
__declspec(dllimport) __attribute__((noreturn)) void WINAPI ExitProcess(unsigned code);

#define MAX_ARGS 256
#define MAX_MODULES 1024
#define MAX_TORCH_DIRS 16
#define LINE 8192
#define PATH_CHARS 32768

/* ----- text ------------------------------------------------------------------------------------------ */

static WCHAR line[LINE];
static size_t line_length;
static char utf8[LINE * 3];

static void put(const WCHAR *text)
{
    while (*text && line_length + 1 < LINE)
        line[line_length++] = *text++;
}

static void put_ascii(const char *text)
{
    while (*text && line_length + 1 < LINE)
        line[line_length++] = (WCHAR)(unsigned char)*text++;
}

static void put_number(unsigned long long value, unsigned base, int width)
{
    char digits[24];
    int n = 0;
    do {
        digits[n++] = "0123456789ABCDEF"[value % base];
        value /= base;
    } while (value);
    while (n < width)
        digits[n++] = '0';
    while (n && line_length + 1 < LINE)
        line[line_length++] = (WCHAR)digits[--n];
}

static void flush_line(void)
{
    DWORD written;
    int n;
    line[line_length++] = '\n';
    n = WideCharToMultiByte(65001 /* CP_UTF8 */, 0, line, (int)line_length, utf8, sizeof(utf8), NULL, NULL);
    if (n > 0)
        WriteFile(GetStdHandle(STD_OUTPUT_HANDLE), utf8, (DWORD)n, &written, NULL);
    line_length = 0;
}

static void record(const char *kind, int op, const char *what)
{
    put_ascii(kind);
    put_ascii(" ");
    put_number((unsigned)op, 10, 1);
    if (what) {
        put_ascii(" ");
        put_ascii(what);
    }
}

static int same(const WCHAR *a, const char *b)
{
    while (*a && *a == (WCHAR)(unsigned char)*b) {
        a++;
        b++;
    }
    return *a == 0 && *b == 0;
}

static int starts(const WCHAR *a, const char *b)
{
    while (*b && *a == (WCHAR)(unsigned char)*b) {
        a++;
        b++;
    }
    return *b == 0;
}

/* ----- the command line: Windows rules for quotes, without backslash escapes -------------------------- */

static WCHAR arguments[PATH_CHARS];
static WCHAR *argv[MAX_ARGS];

static int split_command_line(void)
{
    const WCHAR *p = GetCommandLineW();
    WCHAR *out = arguments;
    int argc = 0, quoted = 0;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || argc == MAX_ARGS)
            break;
        argv[argc++] = out;
        while (*p && (quoted || (*p != ' ' && *p != '\t'))) {
            if (*p == '"')
                quoted = !quoted;
            else if (out < arguments + PATH_CHARS - 1)
                *out++ = *p;
            p++;
        }
        if (out < arguments + PATH_CHARS - 1)
            *out++ = 0;
    }
    return argc;
}

/* ----- modules --------------------------------------------------------------------------------------- */

static HMODULE known[MAX_MODULES];
static DWORD known_count;
static WCHAR path[PATH_CHARS];

static void put_module_path(HMODULE module)
{
    if (GetModuleFileNameW(module, path, PATH_CHARS))
        put(path);
    else
        put_ascii("?");
}

/* Print the modules that are loaded now and were not after the previous operation. */
static void report_new_modules(int op)
{
    static HMODULE now[MAX_MODULES];
    DWORD needed = 0, count, i, j;
    if (!K32EnumProcessModules(GetCurrentProcess(), now, sizeof(now), &needed))
        return;
    count = needed / sizeof(HMODULE);
    if (count > MAX_MODULES)
        count = MAX_MODULES;
    for (i = 0; i < count; i++) {
        int seen = 0;
        for (j = 0; j < known_count && !seen; j++)
            seen = known[j] == now[i];
        if (seen || !GetModuleFileNameW(now[i], path, PATH_CHARS))
            continue;
        {
            const WCHAR *base = path, *c;
            for (c = path; *c; c++)
                if (*c == '\\' || *c == '/')
                    base = c + 1;
            record("module", op, NULL);
            put_ascii(" ");
            put(base);
            put_ascii(" ");
            put(path);
            flush_line();
        }
    }
    for (i = 0; i < count; i++)
        known[i] = now[i];
    known_count = count;
}

static void result(int op, HMODULE module, const char *ok, const char *error, DWORD code)
{
    record("result", op, module ? ok : error);
    put_ascii(" ");
    if (module)
        put_module_path(module);
    else
        put_number(code, 10, 1);
    flush_line();
}

/* ----- torch's PATH fallback ------------------------------------------------------------------------- */

static const WCHAR *torch_dirs[MAX_TORCH_DIRS];
static int torch_dir_count;
static int path_patched;
static WCHAR new_path[PATH_CHARS * 2];

static void patch_path(void)
{
    WCHAR *out = new_path;
    int i;
    DWORD n;
    for (i = 0; i < torch_dir_count; i++) {
        const WCHAR *c = torch_dirs[i];
        while (*c && out < new_path + PATH_CHARS)
            *out++ = *c++;
        *out++ = ';';
    }
    n = GetEnvironmentVariableW(L"PATH", out, PATH_CHARS);
    if (n == 0 || n >= PATH_CHARS)
        *out = 0;
    SetEnvironmentVariableW(L"PATH", new_path);
    path_patched = 1;
}

/* ----- call: run a function, and so its delay-load helper, on a thread of its own ------------------- */

static int call_op;
static FARPROC call_target;

static LONG WINAPI delay_handler(EXCEPTION_POINTERS *info)
{
    DWORD code = info->ExceptionRecord->ExceptionCode;
    if (code == 0xC06D007Eu || code == 0xC06D007Fu) {
        record("result", call_op, "exception 0x");
        put_number(code, 16, 8);
        flush_line();
        ExitThread(1);
    }
    return EXCEPTION_CONTINUE_SEARCH;
}

static DWORD WINAPI call_thread(void *parameter)
{
    int value = ((int (*)(int))(void *)call_target)(0);
    (void)parameter;
    record("result", call_op, "returned ");
    if (value < 0) {
        put_ascii("-");
        put_number((unsigned)-value, 10, 1);
    } else {
        put_number((unsigned)value, 10, 1);
    }
    flush_line();
    return 0;
}

static void call(int op, WCHAR *spec)
{
    static char symbol[256];
    WCHAR *colon = spec;
    HMODULE module;
    HANDLE thread;
    int i;
    while (*colon && *colon != ':')
        colon++;
    if (!*colon) {
        result(op, NULL, "", "error", ERROR_INVALID_PARAMETER);
        return;
    }
    *colon = 0;
    for (i = 0; colon[1 + i] && i < 255; i++)
        symbol[i] = (char)colon[1 + i];
    symbol[i] = 0;
    module = GetModuleHandleW(spec);
    call_target = module ? GetProcAddress(module, symbol) : NULL;
    if (!call_target) {
        result(op, NULL, "", "error", GetLastError());
        return;
    }
    call_op = op;
    thread = CreateThread(NULL, 0, call_thread, NULL, 0, NULL);
    WaitForSingleObject(thread, INFINITE);
    CloseHandle(thread);
}

/* ----- the operations -------------------------------------------------------------------------------- */

static unsigned long parse_hex(const WCHAR *text)
{
    unsigned long value = 0;
    for (; *text; text++) {
        WCHAR c = *text;
        if (c >= '0' && c <= '9')
            value = value * 16 + (c - '0');
        else if (c >= 'a' && c <= 'f')
            value = value * 16 + (c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            value = value * 16 + (c - 'A' + 10);
        else
            break;
    }
    return value;
}

/* Returns 0 to go on, 1 when torch would have raised. */
static int torch_step(int op, const WCHAR *file, int keep_going)
{
    DWORD error;
    HMODULE module = LoadLibraryExW(file, NULL, LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR);
    error = GetLastError();
    result(op, module, "ok", "error", error);
    if (module)
        return 0;
    if (error != ERROR_MOD_NOT_FOUND)
        return !keep_going;
    if (!path_patched)
        patch_path();
    SetLastError(0);
    module = LoadLibraryW(file);
    result(op, module, "fallback-ok", "fallback-error", GetLastError());
    return module ? 0 : !keep_going;
}

void start(void)
{
    int argc = split_command_line(), i, op = 0, keep_going = 0;
    SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX);
    AddVectoredExceptionHandler(1, delay_handler);
    put_ascii("process ");
    put_number(GetCurrentProcessId(), 16, 4);
    flush_line();
    report_new_modules(0); /* op 0: what the process holds before any operation */
    for (i = 1; i + 1 < argc; i += 2) {
        const WCHAR *kind = argv[i];
        WCHAR *arg = argv[i + 1];
        HMODULE module = NULL;
        op++;
        record("op", op, NULL);
        put_ascii(" ");
        put(kind);
        put_ascii(" ");
        put(arg);
        flush_line();
        SetLastError(0);
        if (same(kind, "adddir")) {
            void *cookie = AddDllDirectory(arg);
            record("result", op, cookie ? "ok" : "error");
            if (!cookie) {
                put_ascii(" ");
                put_number(GetLastError(), 10, 1);
            }
            flush_line();
        } else if (same(kind, "torchdir")) {
            if (torch_dir_count < MAX_TORCH_DIRS)
                torch_dirs[torch_dir_count++] = arg;
            record("result", op, "ok");
            flush_line();
        } else if (same(kind, "keepgoing")) {
            keep_going = arg[0] == '1';
            record("result", op, "ok");
            flush_line();
        } else if (same(kind, "setpath")) {
            BOOL done = SetEnvironmentVariableW(L"PATH", arg);
            record("result", op, done ? "ok" : "error");
            flush_line();
        } else if (same(kind, "cdll")) {
            module = LoadLibraryExW(arg, NULL, LOAD_LIBRARY_SEARCH_DEFAULT_DIRS);
            result(op, module, "ok", "error", GetLastError());
        } else if (same(kind, "ext")) {
            module = LoadLibraryExW(arg, NULL, LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR);
            result(op, module, "ok", "error", GetLastError());
        } else if (same(kind, "torch")) {
            if (torch_step(op, arg, keep_going)) {
                report_new_modules(op);
                put_ascii("stopped");
                flush_line();
                ExitProcess(2);
            }
        } else if (same(kind, "plain")) {
            module = LoadLibraryW(arg);
            result(op, module, "ok", "error", GetLastError());
        } else if (starts(kind, "flags=")) {
            module = LoadLibraryExW(arg, NULL, parse_hex(kind + 6));
            result(op, module, "ok", "error", GetLastError());
        } else if (same(kind, "call")) {
            call(op, arg);
        } else {
            result(op, NULL, "", "error", ERROR_INVALID_PARAMETER);
        }
        report_new_modules(op);
    }
    put_ascii("done");
    flush_line();
    ExitProcess(0);
}
