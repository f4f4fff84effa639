"""Loader errors told in words the shapes did not read before: a DLL said missing in Korean, German, Russian or
"lack of dll", LoadLibrary's failure with its code in Chinese, SWT's and rJava's bitness messages, a bare
BadImageFormatException, HTML line breaks inside ODPI-C's message, 0xc000007b with a zero too few, R6034, a name
glued to "is missing", "there is no such file", a message without its leading "The", application control told by its event log or by Electron.
Each text is a real report's (its source beside it) or a healthy text that must stay silent."""

from __future__ import annotations

import pytest
from silence import only_named_guesses, reading
from test_text_facts import facts

from dlldoctor.diagnose.differential import is_loader_error
from dlldoctor.diagnose.explain import explain_text
from dlldoctor.kb.ruleset import RuleSet


@pytest.mark.parametrize(
    ("text", "dll"),
    [
        # corpus/heldout19 h19d-vcredist-missing-001 (a Korean input method's issue "VCRUNTIME140.dll 문제")
        (
            "윈도우11에서 설치해보니 `vcruntime140.dll`이 없어서 설치가 제대로 적용이 안되네요.",
            "vcruntime140.dll",
        ),
        # a Windows 7 report (corpus/heldout19 h19a-unsupported-platform-002)
        (
            "windows 7: lack of dll\napi-ms-win-core-processtopology-obsolete-l1-1-0.dll",
            "api-ms-win-core-processtopology-obsolete-l1-1-0.dll",
        ),
        ("Beim Start kommt die Meldung, MSVCP140.dll fehlt.", "msvcp140.dll"),
        ("При запуске пишет: не найден файл MSVCR100.dll", "msvcr100.dll"),
        # corpus/heldout19 h19d-broken-release-002 (.NET in Chinese)
        (
            "System.DllNotFoundException: 无法加载 DLL“YR3.dll”: 找不到指定的模块。 (异常来自 HRESULT:0x8007007E)",
            "yr3.dll",
        ),
        (
            'System.DllNotFoundException: 無法載入 DLL "SQLite.Interop.dll": 找不到指定的模組。',
            "sqlite.interop.dll",
        ),
        # cffi's name without ".dll", in a folder
        ("OSError: cannot load library 'C:\\GTK\\bin\\libcairo-2': error 0x7e", "libcairo-2.dll"),
        # corpus/heldout3 ho3-ucrt-missing-002, the API set's "ms-" dropped
        ("api-win-crt-math-l1-1-0.dll 缺失", "api-win-crt-math-l1-1-0.dll"),
        # corpus/heldout20 h20e-032 (a lost space) and h20a-008 (DGL's graphbolt library for a newer torch)
        (
            "power toys wont run because api-ms-win-core-synch-l1-2-2.dllis missing from your computer",
            "api-ms-win-core-synch-l1-2-2.dll",
        ),
        ("There is no such file `graphbolt_pytorch_2.4.1.dll`.", "graphbolt_pytorch_2.4.1.dll"),
    ],
)
def test_a_dll_said_missing_in_other_words_is_the_failed_load(text: str, dll: str, rule_set: RuleSet) -> None:
    f = facts(text, rule_set)
    assert (f.dll, is_loader_error(f)) == (dll, True)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        # corpus/heldout19 h19d-vcredist-missing-002 (a Chinese report from Windows Server 2019)
        ("错误：LoadLibrary失败(193)(-103)", 193),
        # corpus/heldout19 h19c-arch-mismatch-003
        (
            'Exception in thread "main" java.lang.UnsatisfiedLinkError: Cannot load 64-bit SWT libraries on 32-bit JVM',
            193,
        ),
        # corpus/heldout19 h19e-arch-mismatch-004 (rJava)
        (
            "error: No CurrentVersion entry in Software/JavaSoft registry! Try re-installing Java and make sure R "
            "and Java have matching architectures.",
            193,
        ),
        # corpus/heldout19 h19c-arch-mismatch-002 (ChakraCore)
        ("I encountered a strange BadImageFormat Exception when trying to build the HelloWorld Demo.", 193),
        # corpus/heldout3 ho3-arch-mismatch-001 (cx_Oracle's issue form, rendered with HTML breaks)
        (
            "DPI-1047: Cannot locate a 64-bit Oracle Client library: <br/>\n"
            '"C:\\Oracle\\product\\11.2.0\\client_1\\bin\\oci.dll is not the correct architecture"<br/>',
            193,
        ),
        # corpus/heldout4 ho4-vcredist-missing-005
        ("the app doesnt start for me and give me python error 0xc00007b", 0xC000007B),
        # corpus/heldout20 h20d-021 (a title typed without 的)
        ("找不到指定模块", 126),
        # corpus/heldout20 h20a-020 (Windows' sentence without its article, in an issue title)
        ("[Bug]: Specified module could not be found cublas64_11.dll - Fresh Install eb28651", 126),
    ],
)
def test_a_loader_code_said_in_other_words_is_read(text: str, code: int, rule_set: RuleSet) -> None:
    assert facts(text, rule_set).error_code == code


@pytest.mark.parametrize(
    "text",
    [
        # a document's sentence, not a program's failure
        "BadImageFormatException is thrown when the file image of a DLL is invalid.",
        # a Japanese FAQ's condition: "if it says VCRUNTIME140.dll cannot be found"
        "よくある質問：VCRUNTIME140.dll が見つかりません と表示された場合は、再頒布可能パッケージを入れてください。",
        "Pillow lacks nothing here; the build is fine.",
        # advice about an entry point, no failure to find one
        "Don't call LoadLibrary from the entry point DllMain in foo.dll",
        "The entry point DllMain is not called when foo.dll is loaded",
        # LuaJIT on Linux, and a Windows DLL said to be not yet loaded
        "cannot load module 'libcurl.so.4': libcurl.so.4: cannot open shared object file: No such file or directory",
        "kernel32.dll not loaded.",
        # a network share's error, not a loader's
        "System error 1326 has occurred.",
    ],
)
def test_words_about_a_dll_that_are_no_failure_stay_silent(text: str, rule_set: RuleSet) -> None:
    f = facts(text, rule_set)
    assert (f.error_code, is_loader_error(f)) == (None, False)


def test_r6034_is_a_runtime_copy_loaded_without_its_manifest(rule_set: RuleSet) -> None:
    # https://github.com/giampaolo/psutil/issues/183 (an installer of a Python 2.6 extension)
    text = 'Got - " R6034 An application has made an attempt to load teh C runtime library \nincorrectly"'
    first = explain_text(text, rule_set).diagnoses[0]
    assert (first.rule.id, first.rule.category) == ("r6034-c-runtime-loaded-incorrectly", "dll-shadowing")


def test_smart_app_control_named_as_windows_blocking_a_pyd_is_app_control(rule_set: RuleSet) -> None:
    # corpus/heldout3 ho3-app-control-blocked-002
    text = 'Can\'t launch StableDiffusion because Windows Smart App Control is blocking Pydantic "version.cp310-win_amd64.pyd".'
    assert explain_text(text, rule_set).diagnoses[0].rule.category == "app-control-blocked"


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # corpus/heldout20 h20c-029 (the Code Integrity event of an Electron app's unpacked module)
        (
            "Code Integrity determined that a process (\\Device\\HarddiskVolume3\\Program Files\\Stretchly\\Stretchly.exe) "
            "attempted to load \\Device\\HarddiskVolume3\\Users\\x\\AppData\\Local\\Temp\\c47fa814.tmp.node that did not "
            "meet the Enterprise signing level requirements or violated code integrity policy.",
            "winerror-4551-application-control-policy",
        ),
        # corpus/heldout20 h20c-030 (AppLocker's DLL rules, told by Electron)
        (
            "JavaScript Error:\nProgram was blocked from running by group policy.",
            "winerror-1260-blocked-by-group-policy",
        ),
    ],
)
def test_application_control_told_by_its_event_or_by_electron_is_app_control(
    text: str, rule: str, rule_set: RuleSet
) -> None:
    first = explain_text(text, rule_set).diagnoses[0]
    assert (first.rule.id, first.rule.category) == (rule, "app-control-blocked")


@pytest.mark.parametrize(
    ("text", "dll", "symbol"),
    [
        # corpus/heldout21 h21a-011 (the pop-up retyped from another language)
        (
            '"Can\'t find access point of procedure (K32GetModuleFileNameExW) in DLL-file (KERNEL32.dll)."',
            "kernel32.dll",
            "K32GetModuleFileNameExW",
        ),
        # corpus/heldout21 h21c-023
        (
            "When I open Osu! Bot V3 x86 it says that it was not possible to find the entry point of the "
            "GetDpiForWindown procedure in the dynamic link library USER32.dll",
            "user32.dll",
            "GetDpiForWindown",
        ),
        # corpus/heldout21 h21e-034 (a machine translation of the French pop-up)
        (
            "Which translate for : the entrypoint for x265_api_get_215 is not found in the library of dynamic links "
            "in avcodec-62.dll",
            "avcodec-62.dll",
            "x265_api_get_215",
        ),
    ],
)
def test_an_entry_point_pop_up_in_other_words_is_a_127_with_its_function_and_dll(
    text: str, dll: str, symbol: str, rule_set: RuleSet
) -> None:
    f = facts(text, rule_set)
    assert (f.error_code, f.dll, f.symbol, is_loader_error(f)) == (127, dll, symbol, True)


def test_a_program_that_goes_on_without_an_entry_point_is_no_failed_load(rule_set: RuleSet) -> None:
    # the reviewed healthy text of tests/test_real_negatives.py, its function named now
    text = "[warning] Could not find entry point SetThreadDescription in kernel32.dll, thread names will not be set"
    assert only_named_guesses(*reading(text, rule_set))


def test_luas_system_error_code_is_read(rule_set: RuleSet) -> None:
    # corpus/heldout21 h21a-029 (Lua's loadlib prints a code Windows has no message for)
    text = """require('lpeg') with an error message "system error 14001"."""
    f = facts(text, rule_set)
    assert f.error_code == 14001
    assert explain_text(text, rule_set).diagnoses[0].rule.id == "side-by-side-configuration-incorrect"


@pytest.mark.parametrize(
    ("text", "dll"),
    [
        # corpus/heldout21 h21d-014 (OBS's log line after a plug-in's failed load)
        ("Module '../../obs-plugins/64bit/obs-gstreamer.dll' not loaded", "obs-gstreamer.dll"),
        # corpus/heldout21 h21b-024 (.NET's exception told in words)
        ("I get a DLLNotFoundException on libwebp.dll.", "libwebp.dll"),
    ],
)
def test_a_dll_said_not_loaded_or_not_found_by_dotnet_is_a_failed_load(
    text: str, dll: str, rule_set: RuleSet
) -> None:
    f = facts(text, rule_set)
    assert (f.dll, is_loader_error(f)) == (dll, True)


@pytest.mark.parametrize(
    ("text", "dll"),
    [
        # corpus/heldout21 h21e-010
        (
            "System.DllNotFoundException: Unable to load DLL 'e_sqlite3': The specified module could not be found. "
            "(Exception from HRESULT: 0x8007007E)",
            "e_sqlite3.dll",
        ),
        # corpus/heldout21 h21a-006
        (
            "  Message=Unable to load DLL 'cimplot' or one of its dependencies: The specified module could not be "
            "found. (0x8007007E)",
            "cimplot.dll",
        ),
        # composed: .NET's Chinese message (its words as .NET Framework's zh-CN resources give them) with the
        # name of h21e-010, in curly quotes
        ("无法加载 DLL“e_sqlite3”: 找不到指定的模块。 (异常来自 HRESULT:0x8007007E)", "e_sqlite3.dll"),
    ],
)
def test_dotnets_unable_to_load_dll_names_the_dll_its_import_asked_for(
    text: str, dll: str, rule_set: RuleSet
) -> None:
    f = facts(text, rule_set)
    assert (f.error_code, f.dll) == (126, dll)


@pytest.mark.parametrize(
    ("text", "dll"),
    [
        # corpus/heldout20 (https://github.com/a327ex/BYTEPATH/issues/11): LuaJIT's own short words for 126
        (
            "Error: libraries/steamworks.lua:2859: cannot load module 'steam_api64': specified module not found",
            "steam_api64.dll",
        ),
        # corpus/heldout20 (luajit-request): the loader's message in German after the name
        (
            "msg = string: \"luajit-request/luajit-curl.lua:28: cannot load module 'libcurl': Das angegebene Modul "
            'wurde nicht gefunden."',
            "libcurl.dll",
        ),
    ],
)
def test_luajits_ffi_load_names_the_library_it_asked_for(text: str, dll: str, rule_set: RuleSet) -> None:
    f = facts(text, rule_set)
    assert (f.error_code, f.dll, is_loader_error(f)) == (126, dll, True)


def test_rubys_loaderror_code_is_the_loaders(rule_set: RuleSet) -> None:
    # corpus/heldout20 h20c-006 (a title)
    f = facts("ruby loadError: 126 cannot found module", rule_set)
    assert (f.error_code, is_loader_error(f)) == (126, True)


def test_a_side_by_side_config_error_in_words_is_the_side_by_side_failure(rule_set: RuleSet) -> None:
    # corpus/heldout20 h20c-005
    text = 'I keep getting a "side-by-side config error" when starting the application. It just won\'t start.'
    assert explain_text(text, rule_set).diagnoses[0].rule.id == "side-by-side-configuration-incorrect"
