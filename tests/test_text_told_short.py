"""Loader failures said short or retyped: LoadLibrary's "failed with error code 126", the entry-point pop-up without
its DLL (a Windows function's name alone, the program's name and the title, the Chinese opening words damaged by OCR,
the Spanish words without their accents), an HRESULT after "fails with", .NET's exceptions named as what was thrown,
193 translated back or said short, 126 with "cannot", an API set's name without ".dll", an acute accent for an
apostrophe; a host's words for a module that did not load (.NET's P/Invoke class, x64dbg's plug-in, OBS, a mod
loader, Ruby, cx_Freeze, wxWidgets, ODPI-C, os.add_dll_directory on a missing folder); programs' own messages that
name the cause (JNA's incompatible library, ONNX Runtime's null API, a runtime said too old, XP's words for a .NET
program without the .NET Framework, a frozen program without a wheel's .libs folder); a published MinGW build or a
Debug build that lacks its runtime, which is the release's fault; and a Python before 3.8, which rules out its search
path. Each text is a real report's (its source beside it) or a healthy text that must stay silent."""

from __future__ import annotations

import pytest
from silence import only_named_guesses, reading
from test_text_facts import facts

from dlldoctor.diagnose.differential import is_loader_error
from dlldoctor.diagnose.explain import explain_text
from dlldoctor.kb.ruleset import RuleSet


@pytest.mark.parametrize(
    ("text", "codes", "dll", "symbol"),
    [
        # https://github.com/YAL-GameMaker/steamworks.gml/issues/5
        ('I get "LoadLibraryA failed with error code 126" errors spammed in the logs', (126,), None, None),
        # https://github.com/VeniceUnleashed/VeniceUnleashed/issues/925 (title and body)
        (
            "DiscardVirtualMemory could not be located\nbuild 20079 download dev branch update and throw error",
            (127,),
            None,
            "DiscardVirtualMemory",
        ),
        # https://github.com/VCVRack/Rack/issues/415 (a title)
        ("Rack.exe Entry point not found error", (127,), None, None),
        # https://github.com/yuudi/rwa-desktop/issues/2 (the Chinese pop-up read by OCR)
        ("无法定位程序揃入点DiscardVirtualMemory于劫志筵接庠", (127,), None, "DiscardVirtualMemory"),
        # https://github.com/wang-bin/QtAV/issues/898
        ("运行时直接崩溃，弹出提示无法定位程序输入点，下图所示：", (127,), None, None),
        # https://github.com/modlfo/VultModules/issues/2
        (
            '" No se encuentra el punto de entrada del procedimento _ZN4rack11ParamWidget17onMouseDownOpaqueEi en la '
            "biblioteca de vinculos dinamicos Rack.exe.",
            (127,),
            None,
            None,
        ),
        # https://github.com/microsoft/CLRInstrumentationEngine/issues/232
        (
            "Observation - profiler load fails with HRESULT 0x8007007e . See the attached image",
            (126,),
            None,
            None,
        ),
        # https://github.com/mono/SkiaSharp/issues/1641 (title and body)
        (
            "BadImageFormatException when build target is x64\nwhy I run into a **BadImageFormatException** when I use",
            (193,),
            None,
            None,
        ),
        # https://github.com/SciSharp/TensorFlow.NET/issues/255
        (
            "On first usage of 'tf' it throws an exception: \"The type initializer for 'Tensorflow.tf\" threw an "
            'exception" of type DllNotFoundException.',
            (126,),
            None,
            None,
        ),
        # https://github.com/stevengj/nlopt/issues/277 (MATLAB's Chinese message translated back)
        (
            'load library "\\nlopttest\\nlopt.lib"  error happened\n\\nlopttest\\nlopt.lib is not effective win32 '
            "application",
            (193,),
            None,
            None,
        ),
        # https://github.com/sqlitebrowser/sqlitebrowser/issues/464
        (
            '"sqlitebrowser.exe" from the 3.8.0-win32v2 install is triggering a "invalid win32 app" error message',
            (193,),
            None,
            None,
        ),
        # https://github.com/TablePlus/TablePlus/issues/2512
        (
            "Trying to connect gives a popup:\n\"Authentication plugin 'dialog' cannot be loaded: The specified "
            'module cannot be found."',
            (126,),
            None,
            None,
        ),
        # https://github.com/rust-lang/rust/issues/67188
        (
            "the error message is \"The program can't start because api-ms-win-core-rtlsupport-l1-2-0 is missing from "
            'your computer. Try reinstalling the program to fix this problem"',
            (126,),
            "api-ms-win-core-rtlsupport-l1-2-0.dll",
            None,
        ),
        # https://github.com/libsdl-org/SDL/issues/11806 (a title)
        (
            "Entry point not found error when using SDL_RenderGeometry and SDL_DuplicateSurface",
            (127,),
            None,
            None,
        ),
        # https://github.com/dataplat/dbatools/issues/8638 (32-bit PowerShell 7 loading a 64-bit DLL)
        (
            'Invoke-DbaQuery throws "An attempt was made to load a program with an incorrect format. (0x8007000B)" in '
            "32 bit PowerShell 7",
            (193,),
            None,
            None,
        ),
        # https://github.com/signalapp/Signal-Desktop/issues/2967 (the pop-up's title after a sentence)
        ("Cant start after update that was just pushed. Entry point not found.", (127,), None, None),
        # https://github.com/oracle/python-cx_Oracle/issues/80 (an older OCI.DLL first on PATH)
        (
            "cx_Oracle.DatabaseError: DPI-1049: symbol OCIClientVersion not found in OCI library",
            (127,),
            None,
            "OCIClientVersion",
        ),
        # https://github.com/texstudio-org/texstudio/issues/1897 (quoted, cut short before its DLL)
        (
            'There is an error message "Entry point no found... for api-ms-win-core-synch-l1-2-0.dll" This error can be '
            "seen only for Qt 6.2 version.",
            (127,),
            "api-ms-win-core-synch-l1-2-0.dll",
            None,
        ),
        # https://github.com/FoldingAtHome/fah-issues/issues/662 (the SideBySide event's words)
        (
            "First event: *SideBySide error EventID 32*\nDependent Assembly Microsoft.VC90.CRT could not be found and "
            "Last Error was The referenced assembly is not installed on your system.",
            (14001,),
            None,
            None,
        ),
        # https://github.com/sqlitebrowser/sqlitebrowser/issues/301 (0xc000007b with a zero too few)
        (
            "Hello, I had just fresh install sqlite 3.6 64 bit edition and I got 0xc00007b problem.",
            (0xC000007B,),
            None,
            None,
        ),
        # https://github.com/amberwhitehead/pyfluidsynth/issues/100 (a folder given to os.add_dll_directory, missing)
        (
            'Traceback (most recent call last):\n  File "<frozen os>", line 1119, in add_dll_directory\n'
            "FileNotFoundError: [WinError 3] 系统找不到指定的路径。: 'C:\\\\tools\\\\fluidsynth\\\\bin'",
            (3,),
            None,
            None,
        ),
    ],
)
def test_a_failed_load_said_short_is_read(
    text: str, codes: tuple[int, ...], dll: str | None, symbol: str | None, rule_set: RuleSet
) -> None:
    f = facts(text, rule_set)
    assert (tuple(f.codes), f.dll, f.symbol, is_loader_error(f)) == (codes, dll, symbol, True)


@pytest.mark.parametrize(
    ("text", "dll"),
    [
        # https://github.com/dorkbox/SystemTray/issues/106 (the acute accent typed for an apostrophe)
        (
            "java.lang.UnsatisfiedLinkError: C:\\Temp\\SystemTray.dll: Can´t find dependent libraries",
            "systemtray.dll",
        ),
        # https://github.com/Slesa/launchy/issues/9 (a space inside the quotes)
        ('Could not find or load the Qt platform plugin "windows "error', "qwindows.dll"),
    ],
)
def test_a_failed_load_typed_loosely_keeps_its_dll(text: str, dll: str, rule_set: RuleSet) -> None:
    f = facts(text, rule_set)
    assert (f.dll, is_loader_error(f)) == (dll, True)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # https://github.com/VeniceUnleashed/VeniceUnleashed/issues/925: DiscardVirtualMemory came with Windows 8.1
        ("DiscardVirtualMemory could not be located", "entry-point-missing-from-windows-system-dll"),
        ("无法定位程序揃入点DiscardVirtualMemory于劫志筵接庠", "entry-point-missing-from-windows-system-dll"),
        # https://github.com/merbanan/rtl_433/issues/2495 (the release zip; the nightly build works)
        (
            "Windows static build: missing libwinpthread-1.dll\nI'm trying to run the windows "
            "rtl_433-win-x64-22.11.zip relase, and both executables, including the static one, complain about a "
            "missing libwinpthread-1.dll\nThe nightly build works though.",
            "mingw-runtime-missing-from-a-release",
        ),
        # https://github.com/pkviet/obs-studio/issues/28 (a released binary linked against the debug runtime)
        (
            "After installing and upon launching, I get error messages saying these three dll files can't be found:\n"
            "msvcp140d.dll\nucrtbased.dll\nvcruntime140d.dll",
            "debug-vc-runtime-dll-not-found",
        ),
        # https://github.com/qzind/tray/issues/577 (another program's jnidispatch.dll on PATH)
        (
            "There is an incompatible JNA native library installed on this system\nExpected: 5.2.2\nFound:    6.0.0",
            "incompatible-jna-native-library-found",
        ),
        # https://github.com/UNeedCryDear/yolov5-seg-opencv-onnxruntime-cpp/issues/19 (System32's older onnxruntime)
        (
            "引发了异常: 读取访问权限冲突。 **Ort::GetApi**(...) 返回 nullptr。",
            "older-onnxruntime-dll-loaded-first",
        ),
        # https://github.com/PCSX2/pcsx2/issues/11834 (a title)
        (
            "[BUG]: Your Microsoft Visual C++ Runtime appears to be too old for this build of PCSX2",
            "program-says-vc-runtime-too-old",
        ),
        # https://github.com/marcelotduarte/cx_Freeze/issues/1724 (a frozen program without Shapely.libs)
        (
            "FileNotFoundError: [WinError 2] The system cannot find the file specified: "
            "'C:\\Projects\\python_projects\\cx_freeze_issues\\shapely_libs\\out\\lib\\Shapely.libs'",
            "wheel-libs-folder-not-bundled",
        ),
        # https://github.com/isledecomp/LEGOIslandRebuilder/issues/33 (a .NET Framework program on Windows XP)
        (
            '0xc0000135 error in Windows XP\nI am getting the error "The application has failed to initialize properly '
            '(0xc0000135)"',
            "dotnet-framework-missing",
        ),
        # https://github.com/heddaz/shadowin/issues/10
        (
            "不支持xp系统？\n在xp上运行，提示 The application failed to initialize properly (0xc0000135). Click on OK to "
            "terminate the application.",
            "dotnet-framework-missing",
        ),
        # the reporter's own cross-compiled build, with a version in it: not the release's fault
        (
            "I cross-compiled v1.2.0 from Linux with mingw64 and on Windows I get: The code execution cannot proceed "
            "because libstdc++-6.dll was not found.",
            "mingw-runtime-dll-not-found",
        ),
    ],
)
def test_those_words_name_their_cause(text: str, rule: str, rule_set: RuleSet) -> None:
    assert explain_text(text, rule_set).diagnoses[0].rule.id == rule


@pytest.mark.parametrize(
    "text",
    [
        # https://github.com/rnchg/APT/issues/15 (a title and the body)
        "The type initializer for 'Microsoft.ML.OnnxRuntime.NativeMethods' threw an exception.\n这是怎么回事？win7系统的",
        # https://github.com/x64dbg/x64dbgpy/issues/34 (x64dbg's log)
        "[PLUGIN]Failed to load plugin: x64dbgpy.dp32\n[PLUGIN] xAnalyzer v2 Loaded!",
        # https://github.com/skawamoto0/ditherig/issues/6 (the Japanese words for a DLL that did not load)
        "dll のロードに失敗しました",
        # https://github.com/LavaGang/MelonLoader/issues/694 (MelonLoader's words)
        "Error Failed to load library!\nWhen I try to open the game with melon loader it just displays it",
        # https://github.com/pupil-labs/pupil/issues/1661 (Python's words retyped)
        'after dragging the captured folder, I get the error "dll load file failed"  and after the player will shut down.',
        # https://github.com/norihiro/obs-face-tracker/issues/186 (OBS's dialog)
        "The following OBS plugins failed to load: obs-face-tracker",
        # https://github.com/ged/ruby-pg/issues/392 (Ruby's gem loader)
        "Gem Load Error is: AddDllDirectory failed for C:/Ruby30-x64/lib/ruby/gems/3.0.0/gems/pg-1.2.3/lib/x64-mingw32",
        # https://github.com/Reloaded-Project/Reloaded-II/issues/647 (a mod loader's words)
        "Failed to DLL inject into application process.\n   at Reloaded.Mod.Launcher.Lib.Utility.ApplicationInjector.Inject()",
        # https://github.com/florvexdev/Gemini-KD/issues/1 (a frozen program's words)
        "cx_Freeze Fatal Error: Unable to change DLL search path\nError when trying to launch the .exe from a cloned rep.",
        # https://github.com/msys2/MINGW-packages/issues/6656 (wxWidgets refusing a library of another build)
        "Fatal Error\nMismatch between the program and library build versions detected.",
        # https://github.com/numba/llvmlite/issues/1303 (llvmlite's own words)
        'raise OSError("Could not find/load shared object file") from e\nOSError: Could not find/load shared object file',
        # https://github.com/oracle/python-cx_Oracle/issues/442 (ODPI-C refusing the Oracle Client found)
        "DPI-1050: Oracle Client library is at version 10.2 but version 11.2 or higher is needed",
        # https://github.com/OpenMS/OpenMS/issues/8701 (a binding's words)
        "Using FragPipe v24 with the SpecLibQuant workflow I get an pyOpenMS error: Error loading pyOpenMS libraries",
    ],
)
def test_a_host_s_words_for_a_module_that_did_not_load_are_a_failed_load(
    text: str, rule_set: RuleSet
) -> None:
    f = facts(text, rule_set)
    assert (f.error_code, is_loader_error(f)) == (None, True)


@pytest.mark.parametrize(
    "text",
    [
        # a program's name and the words of a bundler's entry point, no pop-up
        "webpack.exe: cannot find entry point ./src/index.js, check your configuration",
        # a constant in code
        "// HRESULT: 0x8007007E is ERROR_MOD_NOT_FOUND",
        # documentation of the exception
        "BadImageFormatException is thrown when the file image of a dynamic link library is invalid.",
        # a sentence with "could not be located" about no function
        "The configuration file could not be located, using defaults.",
        # the acute accent in a name, no failure
        "Thanks to José´s patch the build is green again.",
        # another class's static constructor
        "The type initializer for 'MyApp.Settings' threw an exception.",
        # a plug-in loaded
        "[PLUGIN] Loaded plugin: x64dbgpy.dp64",
    ],
)
def test_words_near_those_shapes_that_are_no_failure_stay_silent(text: str, rule_set: RuleSet) -> None:
    assert only_named_guesses(*reading(text, rule_set))


@pytest.mark.parametrize(
    ("text", "before_38"),
    [
        # https://github.com/autopilot-rs/autopy-legacy/issues/95 (Python 2.7's folder and its message)
        (
            '  File "c:\\python\\python27\\Lib\\site-packages\\autopy\\__init__.py", line 9, in <module>\n'
            "ImportError: DLL load failed: The specified module could not be found",
            True,
        ),
        # https://github.com/LeeKamentsky/python-javabridge/issues/67 (Python 2.7's banner)
        ("Python 2.7.10 (default, May 23 2015, 09:44:00) [MSC v.1500 64 bit (AMD64)] on win32", True),
        # 3.7's folder
        (
            '  File "C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python37\\lib\\site-packages\\x.py"',
            True,
        ),
        # 3.8 and later name the module
        (
            "ImportError: DLL load failed while importing _gdal: The specified module could not be found.",
            False,
        ),
        ('  File "C:\\Python312\\Lib\\site-packages\\av\\__init__.py", line 20, in <module>', False),
    ],
)
def test_a_python_before_38_is_told(text: str, before_38: bool, rule_set: RuleSet) -> None:
    assert ("python-before-38" in facts(text, rule_set).derived) is before_38


def test_a_python_that_still_searched_path_gets_no_search_path_cause(rule_set: RuleSet) -> None:
    text = (
        ">>> import autopy\nTraceback (most recent call last):\n"
        '  File "c:\\python\\python27\\Lib\\site-packages\\autopy\\__init__.py", line 9, in <module>\n'
        "ImportError: DLL load failed: The specified module could not be found"
    )
    causes = {d.rule.category for d in explain_text(text, rule_set).diagnoses}
    assert causes and "search-path-py38" not in causes


def test_a_python_from_38_on_named_beside_an_older_one_keeps_the_search_path(rule_set: RuleSet) -> None:
    # the report of a regression from 3.7 to 3.8 is the search path's own
    text = "It worked on Python 3.7 but on Python 3.8 I get ImportError: DLL load failed: The specified module could not be found."
    f = facts(text, rule_set)
    assert ("python-before-38" in f.derived, explain_text(text, rule_set).diagnoses[0].rule.category) == (
        False,
        "search-path-py38",
    )
