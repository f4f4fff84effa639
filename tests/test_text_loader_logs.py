"""Loader failures as logs, debuggers and retyped pop-ups print them: Wine's loader log, Visual Studio's delay-load
exception, 1114's message with "(DLL)", the start-up pop-up with a name copied without ".dll", the entry-point pop-up
translated back from Chinese and naming a program, its title in quotes, 193's message from German, a launcher's
"Error loading DLL: 126", ctypes' missing function and onnxruntime's CUDA words. Each text is a real report's (its source beside it) or a
healthy text that must stay silent."""

from __future__ import annotations

import pytest
from silence import only_named_guesses, reading
from test_text_facts import facts

from dlldoctor.diagnose.differential import is_loader_error
from dlldoctor.diagnose.explain import explain_text
from dlldoctor.kb.ruleset import RuleSet


@pytest.mark.parametrize(
    ("text", "codes", "dll"),
    [
        # https://github.com/OpenOrienteering/mapper/issues/609 (Wine)
        (
            'err:module:import_dll Library libgdal-20.dll (which is needed by L"C:\\\\Program Files\\\\OpenOrienteering'
            ' Mapper\\\\Mapper.exe") not found\n'
            'err:module:LdrInitializeThunk Main fwd initialization for L"C:\\\\Program Files\\\\OpenOrienteering Mapper'
            '\\\\Mapper.exe" failed, status c0000135',
            (126, 0xC0000135),
            "libgdal-20.dll",
        ),
        # https://github.com/bluefireteam/audioplayers/issues/1956 (Visual Studio's debugger)
        (
            "Unhandled exception at 0x00007FFC310F804A (KernelBase.dll) in test.exe: 0xC06D007E: Module not found "
            "(parameters: 0x00000094F791F380).",
            (126,),
            None,
        ),
        # https://github.com/vosen/ZLUDA/issues/55 (a title, its spaces as pasted)
        (
            'An error occurred while displaying "D: \\ zluda \\ ZLUDA \\ target \\ release \\ zluda redirect.Dll The '
            'dynamic link library (DLL) initialization routine failed"',
            (1114,),
            None,
        ),
        # https://github.com/brichard19/BitCrack/issues/59
        (
            "How to fix the code execution cannot proceed because cudart64_80 was not found while run BitCrack64.exe?",
            (126,),
            "cudart64_80.dll",
        ),
        # https://github.com/microsoft/coreutils/issues/118 (the Chinese pop-up translated back, naming the program)
        (
            "Cannot locate the program input point GetTempPath2W in the dynamic link library "
            "C:\\ProgramFiles\\coreutils\\coreutils.exe.",
            (127,),
            "coreutils.exe",
        ),
        # https://github.com/Soreepeong/XivAlexander/issues/14
        ('Cannot run it for some reason, it says: "Entry Point Not Found" every time', (127,), None),
        # https://github.com/x360ce/x360ce/issues/157
        (
            "After starting and creating of the two files, windows messages me that xinput1_3.dll is no valid win32 "
            "program and could not load.",
            (193,),
            None,
        ),
        # Wine's other import failure and its whole-import line in later and earlier releases (ntdll/loader.c)
        (
            '0024:err:module:import_dll Loading library MSVCP140.dll (which is needed by L"C:\\\\x\\\\y.exe") failed '
            "(error c000007b).",
            (0xC000007B,),
            "msvcp140.dll",
        ),
        (
            '0024:err:module:loader_init Importing dlls for L"C:\\\\x\\\\y.exe" failed, status c0000135',
            (0xC0000135,),
            None,
        ),
        (
            '0024:err:module:attach_dlls Importing dlls for L"C:\\\\x\\\\y.exe" failed, status c0000135',
            (0xC0000135,),
            None,
        ),
        # the pop-up's title quoted as what the program said, in single quotes and lower case
        ("it says 'entry point not found' every time I start it", (127,), None),
        # the translated pop-up with "on", and a program whose name has a space
        (
            "Unable to locate program input point GetTempPath2W on dynamic link library "
            "C:\\ProgramFiles\\coreutils\\coreutils.exe.",
            (127,),
            "coreutils.exe",
        ),
        (
            "Unable to locate the program input point GetTempPath2W in the dynamic link library "
            "C:\\Program Files\\My App\\My App.exe.",
            (127,),
            "my app.exe",
        ),
        ("Error loading DLL 'nvcuda.dll': 126", (126,), "nvcuda.dll"),
        # https://github.com/Steven-Qiang/nuitka-dll-bootloader/issues/1
        ("boot.exe Active.exe\nargv[0]: Active.exe\nError loading DLL: 126", (126,), None),
        # https://github.com/pyserial/pyserial/issues/132 (ctypes asking Windows XP's kernel32 for a Vista function)
        (
            '  File "C:\\Python34\\lib\\ctypes\\__init__.py", line 369, in __getitem__\n'
            "    func = self._FuncPtr((name_or_ordinal, self))\n"
            "AttributeError: function 'CancelIoEx' not found",
            (127,),
            None,
        ),
        # older onnxruntime releases' "wasnt"
        (
            "CreateExecutionProviderInstance CUDA_PATH is set but CUDA wasnt able to be loaded. Please install the "
            "correct version of CUDA andcuDNN",
            (126,),
            None,
        ),
        # https://github.com/hacksider/Deep-Live-Cam/issues/948
        (
            "CUDA_PATH is set but CUDA wasn't able to be loaded. Please install the correct version of CUDA and cuDNN "
            "as mentioned in the GPU requirements page",
            (126,),
            None,
        ),
    ],
)
def test_a_loader_log_or_retyped_pop_up_is_the_failed_load(
    text: str, codes: tuple[int, ...], dll: str | None, rule_set: RuleSet
) -> None:
    f = facts(text, rule_set)
    assert (tuple(f.codes), f.dll, is_loader_error(f)) == (codes, dll, True)


def test_a_function_windows_11_added_missing_from_the_program_is_an_older_windows(rule_set: RuleSet) -> None:
    # https://github.com/microsoft/coreutils/issues/118 (GetTempPath2W came with Windows 11 and Server 2022)
    result = explain_text(
        "Cannot locate the program input point GetTempPath2W in the dynamic link library "
        "C:\\ProgramFiles\\coreutils\\coreutils.exe.",
        rule_set,
    )
    assert result.diagnoses[0].rule.id == "entry-point-missing-from-windows-system-dll"


@pytest.mark.parametrize(
    "text",
    [
        # Wine's log of a DLL that did load
        '0024:trace:module:load_dll Loaded L"C:\\\\windows\\\\system32\\\\msvcp140.dll" at 0x7b000000: builtin',
        # the exception code filtered on purpose in code, or named in a comment
        "if (GetExceptionCode() == 0xC06D007E) return EXCEPTION_EXECUTE_HANDLER;",
        "    // 0xC06D007E: Module not found\n    case VcppException(ERROR_SEVERITY_ERROR, ERROR_MOD_NOT_FOUND):",
        # a sentence with no DLL's name after "because", or a name the pop-up's words do not follow
        "The code execution cannot proceed because it was not found on the server.",
        "The code execution cannot proceed because x64 is not found in the registry",
        # a function's name only, no failure to find it
        "The program input point of a service is its ServiceMain function.",
        "Entry Point Not Found errors are described in the FAQ.",
        # the entry-point pop-up's title searched for, a page so titled, a program's own message box, a program's main
        'Searching the wiki for "Entry Point Not Found" turns up nothing useful about this plugin API.',
        'The docs page titled "Entry Point Not Found" explains how exports work.',
        'MessageBoxW(NULL, L"The procedure could not be found.", L"Entry Point Not Found", MB_ICONERROR);',
        "error: could not find entry point main in hello.exe",
        "Could not find the entry point WinMainCRTStartup in app.exe; check /SUBSYSTEM",
        # Python's own AttributeError about a module, not ctypes' function lookup
        "AttributeError: module 'numpy' has no attribute 'float'",
    ],
)
def test_words_near_those_shapes_that_are_no_failure_stay_silent(text: str, rule_set: RuleSet) -> None:
    assert only_named_guesses(*reading(text, rule_set))
