"""Loader failures as people retell them in titles and prose, without the loader's own words: "Failed to load
llama.dll", "DLLs are missing", "DLL 加载失败", Qt's platform plugin, a pop-up's title bar.

Each is an event of kind ``retold``: a loader error, weaker than any of the statements of
:mod:`dlldoctor.text.shapes` (a retold failure on a line that also holds the loader's words is dropped).
"""

from __future__ import annotations

from typing import Any

from dlldoctor.text.entry_point import ENTRY_POINT_RETOLD
from dlldoctor.text.shapes import DLL_NAME, PATH, FactPattern, ScannedText, fact_pattern

# The start-up pop-up's words before the missing DLL's name, retyped: "The code execution can't proceed because "
_CODE_EXECUTION_BECAUSE = (
    r"\bcode execution (?:cannot|can't|can not|could not|couldn't) (?:proceed|continue) because [\"'`]?"
)
# A line that quotes a failure in a fix or an answer, not one seen: a changelog's "- Fixed ...", "v2.1: fixed ...",
# "fix(loader): ...", "Changelog 2.1: fixed ...", an FAQ's "if you see ...", "si al abrir el juego aparece ...",
# "…と表示された場合は".
_QUOTED_IN_A_FIX = fact_pattern(
    r"(?m)^[ \t]*(?:[-*•][ \t]*)?(?:v?\d+(?:\.\d+)+[ \t]*[:-][ \t]*)?(?:fixed|fixes|fix(?:\([^)\r\n]{0,40}\))?):?[ \t]|"
    r"\bchangelog\b[^\r\n]{0,20}?\bfix(?:ed|es)?\b|\bif you (?:see|get|encounter|receive|run into)\b|"
    r"\b(?:faq|preguntas frecuentes|perguntas frequentes)\b|よくある質問|と表示された場合|\bsi (?:al \w+ \w+ )?aparece\b"
)


# A line of a program that tells it goes on without what it did not find: "..., thread names will not be set",
# "... - feature disabled", "..., falling back to ..."
_GOES_ON = fact_pattern(
    r"\b(?:will not be|won't be) (?:set|used|available|enabled|supported)\b|\bwill be disabled\b|"
    r"\b(?:feature|support) disabled\b|\bfalling back to\b"
)


def quieted_lines(t: ScannedText, exact: set[int]) -> dict[str, set[int]]:
    """For the weak kinds of event, the lines where they say nothing: a retold failure on a line of the loader's own
    words (``exact``), on one that quotes a failure in a fix or an answer or on one of a program that goes on without
    it, a code mentioned on the quoting line."""
    quoted = {t.line_of(m.start()) for m in t.finditer(_QUOTED_IN_A_FIX)}
    goes_on = {t.line_of(m.start()) for m in t.finditer(_GOES_ON)}
    return {"retold": exact | quoted | goes_on, "code-mention": quoted}


RETOLD: tuple[tuple[str, FactPattern, dict[str, Any]], ...] = (
    # "Failed to load llama.dll", "unable to load 'C:\\x\\foo.dll'", "error loading shared library foo.dll": the
    # DLL that did not load (perhaps because of one of its dependencies). Not "cannot open file": that is a
    # linker's or an installer's file lock.
    (
        "retold",
        fact_pattern(
            r"\b(?:failed|fails|unable|cannot|can't|cant|can not|could not|couldn't|could't|coudn't|couldnt|error|problem)"
            r"(?: to)? (?:load|loading|locate|locating|find|finding)\b[^\r\n]{0,60}?[\\/\s\"'`:(]"
            r"(?P<dll>" + DLL_NAME + r")\b"
        ),
        {},
    ),
    # "Cannot start on Windows with zlib1.dll installed in C:\\WINDOWS\\system32", "app won't launch: foo.dll"
    (
        "retold",
        fact_pattern(
            r"\b(?:cannot|can't|can not|could not|couldn't|fails? to|won't|unable to) (?:start|launch|run)\b"
            r"[^\r\n]{0,80}?[\\/\s\"'`:(](?P<dll>" + DLL_NAME + r")\b"
        ),
        {},
    ),
    # where the user says the DLL lies: "zlib1.dll installed in C:\\WINDOWS\\system32", "a copy of foo.dll in
    # C:\\Windows\\System32" (the folder and the name make the path the loader found). A fact, not a failure:
    # kind "located" alone is no loader error.
    (
        "located",
        fact_pattern(
            r"\b(?P<dll>"
            + DLL_NAME
            + r")[\"'`]? (?:is |was )?(?:installed |placed |copied |located |lying |sitting |found )?"
            r"(?:in|into|under) [\"'`]?(?P<path>[A-Za-z]:[\\/][^\s\"'`<>|*?]*?(?:system32|syswow64))\b"
        ),
        {"folder": True},
    ),
    # OBS's log line for a plug-in it could not load: "Module '../../obs-plugins/64bit/obs-gstreamer.dll' not loaded"
    ("retold", fact_pattern(r"\bModule '(?P<path>[^'\r\n]{0,200}?" + DLL_NAME + r")' not loaded\b"), {}),
    # ... and OBS's dialog naming the plug-ins it could not load ("The following OBS plugins failed to load:
    # obs-face-tracker"); a host's words for a VST plug-in ("Failed loading VST plugin"); a mod loader's for a DLL it
    # could not inject into a process ("Failed to DLL inject into application process")
    (
        "retold",
        fact_pattern(
            r"\bThe following OBS plugins failed to load:|\bFailed loading VST plugin\b|"
            r"\bFailed to DLL inject\b"
        ),
        {},
    ),
    # "FBCapture.dll fails to load"
    ("retold", fact_pattern(r"\b(?P<dll>" + DLL_NAME + r")[\"'`]? (?:failed|fails|failing) to load\b"), {}),
    # "Failed to load shared library", "cannot find the DLL", "could not load a native library"
    (
        "retold",
        fact_pattern(
            r"\b(?:failed|fails|unable|cannot|can't|can not|could not|couldn't)(?: to)? (?:load|find|locate) "
            r"(?:a |the |some |one |required |necessary |needed )?(?:dlls?|shared librar(?:y|ies)|"
            r"native librar(?:y|ies)|dynamic(?: link)? librar(?:y|ies))\b"
        ),
        {},
    ),
    # "DLL failed to load", "DLLs not found", "dll missing" (not "foo.dll missing": prose; not "no missing DLLs")
    ("retold", fact_pattern(r"(?:^|[\s\"'`(])dlls? (?:failed|fails) to load\b"), {}),
    (
        "retold",
        fact_pattern(
            r"(?:^|[\s\"'`(])dlls? (?:is |are )?(?:missing|not found)\b|"
            r"\bdlls?(?: files?)? (?:can'?t|cannot|could not|couldn'?t) be found\b"
        ),
        {},
    ),
    # the same in Chinese and Japanese titles: "DLL 加载失败", "无法加载 DLL", "找不到 dll", "DLLの読み込みに失敗"
    (
        "retold",
        fact_pattern(
            r"(?:dll|动态链接库|動態連結程式庫)\s*(?:加载|載入|导入|導入)\s*(?:失败|失敗|出错|出錯|错误|錯誤)|"
            r"(?:无法|不能|未能)(?:加载|載入|找到)\s*(?:dll|动态链接库)|找不到\s*(?:dll|动态链接库)|"
            r"dll\s*の読み込みに失敗"
        ),
        {},
    ),
    # a DLL said not to be found in Chinese, at the start of a line, as a title says it: "找不到python38.dll"
    # ("缺少 X.dll" is prose; "如果找不到 X.dll，请…" is a FAQ's condition)
    ("retold", fact_pattern(r"(?m)^[ \t]*找不到\s*[\"'`“]?(?P<dll>" + DLL_NAME + r")\b"), {"code": 126}),
    # ... in Japanese, Spanish and Portuguese words: "VCRUNTIME140.dll がないため", "falta el archivo MSVCP140.dll",
    # "está faltando o arquivo X.dll"
    (
        "retold",
        fact_pattern(r"(?P<dll>" + DLL_NAME + r")[\"'`」]?\s*が(?:ない|見つからない)ため"),
        {"code": 126},
    ),
    (
        "retold",
        fact_pattern(
            r"\b(?:falta(?:ndo)?|faltan) (?:el |o |la |a )?(?:archivo |arquivo |biblioteca )?[\"'`]?(?P<dll>"
            + DLL_NAME
            + r")\b"
        ),
        {"code": 126},
    ),
    # a CUDA library a binding looked for by name: skcuda's "OSError: cublas library not found"
    (
        "retold",
        fact_pattern(
            r"\b(?:cublas|cudart|cufft|curand|cusolver|cusparse|nvrtc|cudnn|nvcuda) librar(?:y|ies) not found\b"
        ),
        {"code": 126},
    ),
    # Qt's platform plugin ("windows" is qwindows.dll) failing to load, most often because of the DLLs it needs
    (
        "retold",
        fact_pattern(
            r"(?:could not (?:find o[rf] load|load|find)|no) (?:the )?Qt platform plugin"
            r"(?: [\"'`][ \t]*(?P<dll>windows)[ \t]*[\"'`]| could be initialized)"
        ),
        {"dll": "qwindows.dll"},
    ),
    # 126's message retyped with "cannot": "Authentication plugin 'dialog' cannot be loaded: The specified module cannot
    # be found."
    ("retold", fact_pattern(r"\bThe specified module cannot be found\b"), {"code": 126}),
    # Japanese for a DLL that did not load ("dll のロードに失敗しました", "DLLの読み込みに失敗しました"), and MelonLoader's
    # "Failed to load library!"
    ("retold", fact_pattern(r"\bdll\s*の(?:ロード|読み込み|読込)に失敗|(?-i:Failed to load library!)"), {}),
    # ODPI-C found an OCI.DLL without a function it needs, an older Oracle Client first on PATH: "DPI-1049: symbol
    # OCIClientVersion not found in OCI library"; Ruby's loader of a gem's DLL folder, which fails where
    # AddDllDirectory is missing: "AddDllDirectory failed for C:/Ruby30-x64/…"
    ("retold", fact_pattern(r"\bDPI-1049: symbol (?P<symbol>\w+) not found in OCI library\b"), {"code": 127}),
    ("retold", fact_pattern(r"\bAddDllDirectory failed for\b"), {}),
    # cx_Freeze's frozen program that could not add its DLL folder ("cx_Freeze Fatal Error: Unable to change DLL search
    # path"); wxWidgets refusing a library of another build ("Mismatch between the program and library build versions
    # detected")
    (
        "retold",
        fact_pattern(
            r"\bcx_Freeze Fatal Error: Unable to change DLL search path\b|"
            r"\bMismatch between the program and library build versions detected\b"
        ),
        {},
    ),
    # a wheel's DLL folder that a frozen program lacks, which delvewheel's patch adds with os.add_dll_directory
    # ("FileNotFoundError: [WinError 2] The system cannot find the file specified: '…\\lib\\Shapely.libs'": the
    # loader's API failed, on the line of Python's error, so not a retelling)
    ("load-library", fact_pattern(r"\[WinError 2\][^\r\n]{0,120}?[\\/][\w.-]+\.libs[\"'`]"), {}),
    # ... and any folder os.add_dll_directory was given that does not exist, its frame before Python's error ('File
    # "<frozen os>", line 1119, in add_dll_directory' then "FileNotFoundError: [WinError 3] …: 'C:\\tools\\fluidsynth\\bin'")
    ("load-library", fact_pattern(r"\bin add_dll_directory[ \t]*\r?\n[^\r\n]{0,200}?\[WinError [23]\]"), {}),
    # a binding's words for its native libraries not loading: "Error loading pyOpenMS libraries", "Error when loading
    # pyOpenMS libraries!"
    (
        "retold",
        fact_pattern(r"\bError (?:when |while )?loading [\w.-]+ (?:native )?(?:libraries|dlls)\b"),
        {},
    ),
    # llvmlite's "Could not find/load shared object file"; ODPI-C's Oracle Client found but refused ("DPI-1050: Oracle
    # Client library is at version 10.2 but version 11.2 or higher is needed", "DPI-1072: the Oracle Client library
    # version is unsupported"); Python's ssl module without its DLLs ("the SSL module is not available")
    (
        "retold",
        fact_pattern(
            r"\bCould not find/load shared object file\b|\bDPI-10(?:50|72): |\bthe SSL module is not available\b"
        ),
        {},
    ),
    # psycopg 3 found no libpq: "ImportError: no pq wrapper available", "... libpq library not found"
    (
        "retold",
        fact_pattern(r"\bno pq wrapper available\b|\blibpq library not found\b"),
        {"dll": "libpq.dll"},
    ),
    # 0xc000007b with a zero too few, retyped in the pop-up's words: "Application unable to start correctly 0xc00007b",
    # or after "error" ("give me python error 0xc00007b"), or as what one got ("I got 0xc00007b problem"); or its "c"
    # left out
    (
        "code-mention",
        fact_pattern(
            r"(?:start(?:ed)? correctly|unable to start|cannot start|can't start)[^\r\n]{0,20}?\(?0xc0{4}7b\b|"
            r"\(0xc0{4}7b\)|\b(?:error|exception|code)\b[^\r\n=]{0,12}?\b0xc0{4}7b\b|"
            r"\b(?:got|get|getting|gets|have|had|having) (?:an? |the )?0xc0{4}7b (?:problem|error|issue)\b|"
            # ... or its "c" left out, an "O" for the zero ("Error Ox000007b"; not a blue screen's 0x0000007B)
            r"\b(?:error|exception|code)\b[^\r\n=]{0,12}?\b[0O]x0{4,5}7b\b"
        ),
        {"code": 0xC000007B},
    ),
    # .NET's exception named alone: "An exception of type 'System.DllNotFoundException' occurred in SkiaSharp.dll",
    # "异常信息: System.DllNotFoundException"
    (
        "retold",
        fact_pattern(
            r"(?m)exception of type [\"'`]System\.DllNotFoundException[\"'`]|System\.DllNotFoundException\s*$"
        ),
        {"code": 126},
    ),
    # a binding's own words for its library not found: python-magic's "ImportError: failed to find libmagic",
    # chromaprint's "ImportError: couldn't find libchromaprint"; a title's "python38.dll conflicts with this version"
    (
        "retold",
        fact_pattern(r"ImportError: (?:failed to|couldn'?t|could not|cannot|unable to) find lib\w+"),
        {"code": 126},
    ),
    ("retold", fact_pattern(r"\b(?P<dll>python\d+\.dll) conflicts with this ver\w{2,5} of Python"), {}),
    # ... retyped, its opening quote or the spelling of "dependencies" lost: "Could not find module C:\\x\\lib.dll' (or
    # one of its dependecies)"
    (
        "ctypes",
        fact_pattern(
            r"Could not find module [\"'`]?(?P<path>(?:[A-Za-z]:)?[\\/]?"
            + PATH
            + r"\.dll)[\"'`]? ?\(or one of its "
            r"depend\w*\)"
        ),
        {"code": 126},
    ),
    # ctypes.util.find_library found nothing and its None was loaded: "TypeError: LoadLibrary() argument 1 must be
    # str, not None"
    ("ctypes", fact_pattern(r"LoadLibrary\(\) argument 1 must be str, not None"), {"code": 126}),
    # WindowsError retyped: "windowserror ERROR 126"
    (
        "code-mention",
        fact_pattern(r"\bwindows ?error\b[\s:\[(]{0,3}error\s*(?P<code>126|127|193|1114|1455)\b"),
        {},
    ),
    # the title of the pop-up with its program: "python(w).exe - Entry Point Not Found"
    (
        "retold",
        fact_pattern(r"(?m)^[ \t\"'`]*[\w()]+\.exe\s*-\s*(?-i:Entry ?Point Not Found)"),
        {"code": 127},
    ),
    # the Windows 10 pop-up retyped: "The code execution can't proceed because VCRUNTIME140_1.dll wasn't found"
    (
        "retold",
        fact_pattern(
            _CODE_EXECUTION_BECAUSE
            + r"(?P<dll>"
            + DLL_NAME
            + r")[\"'`]? (?:was not|wasn't|was|is not|isn't|could not be|couldn't be|cannot be"
            r"|can't be) found\b"
        ),
        {"code": 126},
    ),
    # ... with the name as a user copied it, without ".dll": "The code execution cannot proceed because cudart64_80 was
    # not found" (the pop-up's own "was not found" after a name with a digit in it, as DLLs' names have; not "because it
    # was not found", nor "because x64 is not found in the registry")
    (
        "retold",
        fact_pattern(
            _CODE_EXECUTION_BECAUSE
            + r"(?P<bare>[A-Za-z][\w+~-]*\d[\w+~-]*)[\"'`]? (?:was not|wasn't) found\b"
        ),
        {"code": 126},
    ),
    # ... and in other words, as a translated pop-up says it: "Can't continue execution because libgcc_s_seh-1.dll does
    # not exist"
    (
        "retold",
        fact_pattern(
            r"\b(?:cannot|can't|can not|could not|couldn't|unable to) [^\r\n]{0,40}? because [\"'`]?(?P<dll>"
            + DLL_NAME
            + r")[\"'`]? (?:does not exist|doesn't exist|is missing|is not found|was not found|wasn't found)\b"
        ),
        {"code": 126},
    ),
    # 126's message translated back after the DLL's name, as R's dyn.load prints it: "libjulia.dll - unable to find
    # the specified module"
    (
        "retold",
        fact_pattern(
            r"(?P<dll>"
            + DLL_NAME
            + r")[\"'`]?[ \t]*[-:][ \t]*(?:unable to find|cannot find|can't find|could not find"
            r"|couldn't find) the specified module\b"
        ),
        {"code": 126},
    ),
    # Dart's FFI: "Invalid argument(s): Failed to load dynamic library 'C:\\x\\foo.dll': error code 126", or only
    # "Failed to load dynamic library (126)"
    (
        "retold",
        fact_pattern(
            r"\bFailed to load dynamic library(?: [\"'](?P<path>[^\"'\r\n]*?(?P<dll>"
            + DLL_NAME
            + r"))[\"'])?"
            r"(?::[ \t]*(?:error code:?[ \t]*)?| ?\(| error code:? ?)(?P<code>\d{2,5})\b"
        ),
        {},
    ),
    # LoadLibrary's failure as a dialog or a title says it, on a line of its own ("LoadLibrary Failed"; not a
    # document's heading), and in Chinese ("LoadLibraryA加载失败"); onnxruntime's and OpenVINO's "LoadDynamicLibrary
    # failed" (not inside a string of source code)
    (
        "retold",
        fact_pattern(
            r"(?m)^[ \t>*-]*(?:error:? )?LoadLibrary(?:Ex)?[AW]? failed[.!]?[ \t]*$|"
            r"(?:^|[^\"'`\w])LoadLibrary(?:Ex)?[AW]?\s*加载失败|(?:^|[^\"'`\w])LoadDynamicLibrary failed\b"
        ),
        {},
    ),
    # the end of Python 3.8+'s ctypes message, its start cut off: "Try using the full path with constructor syntax."
    ("retold", fact_pattern(r"\bTry using the full path with constructor syntax\b"), {"code": 126}),
    # the 1114 message shortened: "DLL initialization routine failed", "The dynamic link library (DLL) initialization
    # routine failed"
    ("code-mention", fact_pattern(r"(?:\bdll|\(dll\)) initiali[sz]ation routine failed\b"), {"code": 1114}),
    *ENTRY_POINT_RETOLD,
    # the side-by-side pop-up retold: "side-by-side configuration is incorrect when importing win32api", "I keep getting
    # a \"side-by-side config error\" when starting the application", "Wrong Side-by-Side configuration (microsoft.vc80.crt
    # could not be found)", a title's "Side-By-Side Config Incorrect"; and the SideBySide event's words opening a line
    # ("Dependent Assembly Microsoft.VC90.CRT could not be found"; not a sentence that goes on to say it works now)
    (
        "retold",
        fact_pattern(
            r"\bside[- ]by[- ]side config(?:uration)?(?: (?:is )?(?:incorrect|invalid)| errors?\b|"
            r"[ \t]*\([^\r\n)]{1,60}? could not be found\))|(?m:^)[ \t>*]*Dependent Assembly [\w.-]+ could not be found\b"
        ),
        {"code": 14001},
    ),
    # Smart App Control's block told in words: "it being blocked from loading on windows 11 pro due to 'smart app
    # control'", "Smart App Control started blocking", "with Smart App Control enforcement enabled, ... Code Integrity
    # blocks native .node addons" (not "is not blocked by Smart App Control", "Smart App Control blocks unsigned apps,
    # but ours is signed", a question whether it blocked the app)
    (
        "retold",
        fact_pattern(
            r"\b(?:being|been|got|gets|getting|is being|was being|started being) blocked\b[^\r\n]{0,60}?"
            r"\bsmart app control\b|"
            r"\bsmart app control\b[^\r\n]{0,40}?\b(?:started|starts|keeps|kept|is|was) (?:blocking|to block)\b|"
            r"\bsmart app control enforcement\b[^\r\n]{0,120}?\bblocks\b"
        ),
        {"code": 4551},
    ),
    # the title bar of the loader's pop-up when only that was copied: "python.exe - System Error"
    ("retold", fact_pattern(r"\b[\w.-]+\.exe - (?:System Error|Entry Point Not Found)\b"), {}),
)
