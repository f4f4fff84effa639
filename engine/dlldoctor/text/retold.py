"""Loader failures as people retell them in titles and prose, without the loader's own words: "Failed to load
llama.dll", "DLLs are missing", "DLL 加载失败", Qt's platform plugin, a pop-up's title bar.

Each is an event of kind ``retold``: a loader error, weaker than any of the statements of
:mod:`dlldoctor.text.shapes` (a retold failure on a line that also holds the loader's words is dropped).
"""

from __future__ import annotations

from typing import Any

from dlldoctor.text.shapes import DLL_NAME, PATH, FactPattern, ScannedText, fact_pattern

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


# The DLL an entry-point message ends with, perhaps quoted and with its folder: "in the Qt5Core.dll", "in dynamic
# link library D:\\x\\y.dll"
_DLL_IN_FOLDER = r"[\"'`]?(?:[A-Za-z]:[\\/][^\r\n\"'`]*?[\\/])?(?P<dll>" + DLL_NAME + r")\b"

# "无法在 x.dll 中", "无法在动态链接库 x.dll 中", .NET's "无法在 DLL“x.dll”中": where the Chinese retellings of the
# entry-point pop-up name the DLL
_ZH_IN_DLL = (
    r"(?:无法|無法|不能)在\s*(?:动态链接库|動態連結程式庫|DLL)?\s*[“\"'`]?(?P<dll>"
    + DLL_NAME
    + r")[”\"'`]?\s*中"
)

# ... and what must follow the function's name there: the end of the clause, perhaps after the word for a function
# (not "PDB 文件", "VERSION 资源", "std::mutex 的源代码", "Init 函数的交叉引用", a question's "函数？")
_ZH_CLAUSE_END = r"[”\"'`]?\s*(?:函数|的入口点|入口点)?\s*(?:[。.!！，,；;]|\r?(?m:$))"

# A function's name as an entry-point message gives it: camel case, an underscore, a digit or a C++ decoration in it
# (not a word: "the", "procedure", "Windows")
_ENTRY_POINT = r"\b(?:entry[ -]?point|access point)\b"
_NOT_THERE = r"(?:\bnot\b|n't\b|\bcannot\b|\bunable\b|\bimpossible\b|\bfail(?:s|ed)?\b)"
_FUNCTION = r"(?-i:[A-Za-z_?@$][\w@?$]*(?:[a-z][A-Z]|[_@?$]|[A-Za-z]\d)[\w@?$]*)"
# ... and what follows it there (not a name a translation split: "the rus_open Direct procedure")
_AFTER_FUNCTION = r"[)\"'`]?\s+(?:procedure|function|in|is|was|could|can|cannot|can't|not|wasn't|isn't)\b"

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
            r"(?: \"(?P<dll>windows)\"| could be initialized)"
        ),
        {"dll": "qwindows.dll"},
    ),
    # psycopg 3 found no libpq: "ImportError: no pq wrapper available", "... libpq library not found"
    (
        "retold",
        fact_pattern(r"\bno pq wrapper available\b|\blibpq library not found\b"),
        {"dll": "libpq.dll"},
    ),
    # 0xc000007b with a zero too few, retyped in the pop-up's words: "Application unable to start correctly 0xc00007b",
    # or after "error" ("give me python error 0xc00007b")
    (
        "code-mention",
        fact_pattern(
            r"(?:start(?:ed)? correctly|unable to start|cannot start|can't start)[^\r\n]{0,20}?\(?0xc0{4}7b\b|"
            r"\(0xc0{4}7b\)|\b(?:error|exception|code)\b[^\r\n=]{0,12}?\b0xc0{4}7b\b"
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
            r"\bcode execution (?:cannot|can't|can not|could not|couldn't) (?:proceed|continue) because [\"'`]?"
            r"(?P<dll>"
            + DLL_NAME
            + r")[\"'`]? (?:was not|wasn't|was|is not|isn't|could not be|couldn't be|cannot be"
            r"|can't be) found\b"
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
    # the entry-point pop-up told by its title in brackets: "this dialog (Entry Point Not Found)"
    ("code-mention", fact_pattern(r"(?-i:\(Entry Point Not Found\))"), {"code": 127}),
    # ... or in words, with its DLL (an entry point alone is also a program's main, a bundler's or an engine's):
    # "Failed to locate procedure entry point X in dynamic link library D:\\x\\y.dll", "Could not find X procedure
    # entry point in dynamic link library C:\\…"
    (
        "retold",
        fact_pattern(
            r"\b(?:failed to locate|could not find|couldn't find|unable to find|cannot find|can't find) (?:the )?"
            r"(?:[A-Za-z_?@$][\w@?$]* )?(?:procedure )?entry point\b[^\r\n]{0,120}? in (?:the )?"
            r"(?:dynamic[- ]link library |DLL )?" + _DLL_IN_FOLDER
        ),
        {"code": 127},
    ),
    # "The entry point wasn't found in KERNEL32.dll"
    (
        "retold",
        fact_pattern(
            r"\bentry point (?:was not|wasn't|is not|isn't) found in (?:the )?[\"'`]?(?P<dll>"
            + DLL_NAME
            + r")\b"
        ),
        {"code": 127},
    ),
    # "Entry point of ProcessPrng can't be found on bcryptprimitives.dll"
    (
        "retold",
        fact_pattern(
            r"\bentry point (?:of |for )?[\"'`]?(?P<symbol>[A-Za-z_?@$][\w@?$]*)[\"'`]? (?:can't|cannot|could not|"
            r"couldn't) be (?:found|located) (?:on|in) [\"'`]?(?P<dll>" + DLL_NAME + r")\b"
        ),
        {"code": 127},
    ),
    # the 1114 and 127 messages shortened: "DLL initialization routine failed", "entry point ... not found"
    ("code-mention", fact_pattern(r"\bdll initiali[sz]ation routine failed\b"), {"code": 1114}),
    (
        "retold",
        fact_pattern(
            r"\bprocedure entry point\b[^\r\n]{0,200}?\b(?:could not? be located|not\s+found)\b"
            r"|\bentry point\b[^\r\n]{0,200}?\bcould not be located in the dynamic link library\b"
            r"|\bentry point [A-Za-z_?@$][\w@?$]* could not be located\b|\bentry point of the procedure\b"
        ),
        {"code": 127},
    ),
    # ... retyped without "entry point": "The procedure U16_to_bytes could not be located in the dynamic link library
    # libtoxcore-0.dll", "?toString@QJsonValue@@QEBA?AVQString@@XZ could not be located in the Qt5Core.dll" (a name
    # with a small letter or a decoration: not the ordinal pop-up's "XXXX"); with "found" for "located" only a name
    # that looks like a function's (camel case or a decoration, not a word): "GetSystemTimePreciseAsFileTime could
    # not be found in the KERNEL32.dll"
    (
        "retold",
        fact_pattern(
            r"(?P<symbol>(?-i:[A-Za-z_?@$][\w@?$]*[a-z_@?$][\w@?$]*)) could not be located in (?:the )?"
            r"(?:dynamic link(?: library)? )?" + _DLL_IN_FOLDER
        ),
        {"code": 127},
    ),
    (
        "retold",
        fact_pattern(
            r"(?P<symbol>(?-i:[A-Za-z_?@$][\w@?$]*(?:[a-z][A-Z]|[_@?$])[\w@?$]*)) could not be found in (?:the )?"
            r"(?:dynamic link(?: library)? )?" + _DLL_IN_FOLDER
        ),
        {"code": 127},
    ),
    # the Russian pop-up machine-translated: "The entry point to the rus_open Direct procedure was not found in the
    # DLL C:\\Windows\\SYSTEM32\\icuin.dll"
    (
        "retold",
        fact_pattern(
            r"\bentry point (?:to|of|for|into) the [^\r\n]{1,80}? procedure (?:was )?not found in the (?:DLL|library) "
            r"[\"'`]?(?P<path>[^\r\n\"'`]*?" + DLL_NAME + r")\b"
        ),
        {"code": 127},
    ),
    # ... and any other retelling or translation of the pop-up that keeps its parts on one line: the words for an
    # entry point, a function's name after them, a word that says it is not there, and the DLL it was looked for in:
    # "Can't find access point of procedure (K32GetModuleFileNameExW) in DLL-file (KERNEL32.dll)", "it was not possible
    # to find the entry point of the GetDpiForWindow procedure in the dynamic link library USER32.dll", "the entrypoint
    # for x265_api_get_215 is not found in the library of dynamic links in avcodec-62.dll"
    (
        "retold",
        fact_pattern(
            _NOT_THERE
            + r"[^\r\n]{0,60}?"
            + _ENTRY_POINT
            + r"[^\r\n]{0,40}?[\s(\"'`](?P<symbol>"
            + _FUNCTION
            + r")"
            + _AFTER_FUNCTION
            + r"[^\r\n]{0,100}?[\s(\"'`]"
            + _DLL_IN_FOLDER
        ),
        {"code": 127},
    ),
    (
        "retold",
        fact_pattern(
            _ENTRY_POINT
            + r"[^\r\n]{0,40}?[\s(\"'`](?P<symbol>"
            + _FUNCTION
            + r")"
            + _AFTER_FUNCTION
            + r"[^\r\n]{0,40}?"
            + _NOT_THERE
            + r"[^\r\n]{0,60}?[\s(\"'`]"
            + _DLL_IN_FOLDER
        ),
        {"code": 127},
    ),
    # .NET's EntryPointNotFoundException: "Unable to find an entry point named 'nvmlInitWithFlags' in DLL 'nvml'" (a
    # title may stop before the DLL, at the line's end: "Unable to find an entry point named 'SteamAPI_SteamApps_v008'";
    # not .NET's words on Linux and macOS, "... in shared library 'libsteam_api'")
    (
        "retold",
        fact_pattern(
            r"Unable to find (?:an )?entry point name(?:d)? [\"'`](?P<symbol>[^\"'`\r\n]{1,120})[\"'`]"
            r"(?: in DLL [\"'`](?P<bare>[\w.+~-]{1,80})[\"'`]|\.?[ \t]*\r?(?m:$))"
        ),
        {"code": 127},
    ),
    # the pop-up's title and its symbol, its message left out: "Entry Point Not Found  PyWinObject_FROM…"
    (
        "retold",
        fact_pattern(
            r"(?-i:\bEntry ?Point Not Found)[ \t]+[A-Za-z_?@$][\w@?$]*[_@?$][\w@?$]*|"
            r"(?-i:\bEntry ?Point Not Found)[\"'`]? in [\"'`]?(?P<dll>" + DLL_NAME + r")\b"
        ),
        {"code": 127},
    ),
    # ... or the title alone, as the pop-up writes it, at the start of a line: "EntryPoint Not Found when using
    # MinGW-w64 GCC compilers", "Entry point not found when program start." (not "How to Fix Entry Point Not Found
    # Errors")
    (
        "retold",
        fact_pattern(
            r"(?m)^[ \t\"'`*]*(?-i:Entry ?[Pp]oint [Nn]ot [Ff]ound)(?:[ \t.!]*$|[ \t]+(?:when|while|on|after|with|"
            r"dialog|pop-?up)\b|[ \t]*[(:][ \t]*[\"'`]?(?P<dll>" + DLL_NAME + r"))"
        ),
        {"code": 127},
    ),
    # a tool's words for it with a Windows function's name: "Could not find entry point SetThreadDescription" (a
    # CamelCase name: not a program's "could not find entry point main"; and at the line's end: not a warning that
    # goes on without it, "..., thread names will not be set")
    (
        "retold",
        fact_pattern(
            r"(?m)\b(?:could(?:n'?t| not)|can'?t|cannot|unable to) (?:find|locate) (?:the )?entry point[ \t]+[\"'`]?"
            r"(?P<symbol>(?-i:[A-Z][a-z]+[A-Z]\w*))[\"'`]?(?: in [\"'`]?(?P<dll>"
            + DLL_NAME
            + r")[\"'`]?)?[ \t.!]*$"
        ),
        {"code": 127},
    ),
    # ... or its symbol and its DLL one after the other: "Entry Point Not Found GetTickCount64 KERNEL32.dll" (a name
    # with a capital, a digit or a decoration after its first letter: not "error" or "Error")
    (
        "retold",
        fact_pattern(
            r"(?-i:\bEntry ?Point Not Found):?[ \t]+[\"'`]?(?P<symbol>(?-i:[A-Za-z_?@$][\w@?$]*[A-Z0-9_@?$][\w@?$]*))"
            r"[\"'`]?[ \t]+(?:in[ \t]+)?"
            r"[\"'`]?(?P<dll>" + DLL_NAME + r")\b"
        ),
        {"code": 127},
    ),
    # "Entry point Latin1@QString@QByteArray not found in opencv_highgui320.dll"; the Chinese pop-up machine
    # translated: "Unable to locate the program input point in DiscardVirtualMemory dynamic link library KERNEL.dll"
    (
        "retold",
        fact_pattern(
            r"\bentry point [\"'`]?(?P<symbol>[A-Za-z_?@$][\w@?$]*)[\"'`]? not found in [\"'`]?(?P<dll>"
            + DLL_NAME
            + r")\b"
        ),
        {"code": 127},
    ),
    (
        "retold",
        fact_pattern(
            r"\b(?:unable to|cannot|could not) locate (?:the )?program (?:input|entry) point\b[^\r\n]{0,120}?"
            r"(?:dynamic link library [\"'`]?(?P<dll>" + DLL_NAME + r")\b|\bin dll\b)"
        ),
        {"code": 127},
    ),
    # the ordinal pop-up (STATUS_ORDINAL_NOT_FOUND): "The ordinal 3873 could not be located in the dynamic link
    # library LIBEAY32.dll"
    (
        "retold",
        fact_pattern(
            r"\bordinal (?:\d+x*|x+) (?:could not be located|(?:was )?not found) in (?:the )?dynamic link library "
            r"[\"'`]?(?P<path>[^\r\n\"'`]*?" + DLL_NAME + r")\b"
        ),
        {"code": 182},
    ),
    # ... retyped with a digit masked (above: "The ordinal 444x"), or translated back: "No ordinal 345 was found in the
    # dynamically attached library D:\\x\\y.exe"
    (
        "retold",
        fact_pattern(
            r"\bno ordinal \d+ (?:was )?found in (?:the )?dynamically (?:attached|linked) library "
            r"[\"'`]?(?P<path>[^\r\n\"'`]*?(?:" + DLL_NAME + r"|[\w.+~-]+\.exe))\b"
        ),
        {"code": 182},
    ),
    # the Chinese pop-up's title for it, "无法找到入口" (Entry Point Not Found), with the program's name before it or the
    # DLL after it (not a website's or a bundler's missing entry: webpack, vite and mini-programs say "提示无法找到入口")
    (
        "retold",
        fact_pattern(
            r"\.exe\s*-\s*(?:无法找到入口|無法找到進入點)|"
            r"(?:无法找到入口|無法找到進入點)[^\r\n]{0,80}?(?:动态链接库|動態連結程式庫|输入点|dynamic link library|\.dll\b)"
        ),
        {"code": 127},
    ),
    # ... and the entry-point pop-up retold in Chinese words, with the pop-up's verb ("无法在 libpng16-16.dll 中定位
    # inflateReset2 函数", "无法在动态链接库 x.dll 中定位程序输入点 y"), or .NET's Chinese EntryPointNotFoundException
    # ("无法在 DLL“user32.dll”中找到名为“MessageBox”的入口点"); "find" (找到) only with the words for a function or an
    # entry point after the name, as a debugger's symbols or a resource are also not found in a DLL
    (
        "retold",
        fact_pattern(
            _ZH_IN_DLL
            + r"定位\s*(?:程序输入点|程序入口点|输入点|入口点)?\s*[“\"'`]?(?P<symbol>[A-Za-z_?@$][\w@?$]*)"
            + _ZH_CLAUSE_END
        ),
        {"code": 127},
    ),
    (
        "retold",
        fact_pattern(
            _ZH_IN_DLL
            + r"找到\s*(?:名为\s*)?[“\"'`]?(?P<symbol>[A-Za-z_?@$][\w@?$]*)[”\"'`]?\s*(?:的)?(?:函数|入口点|程序输入点|输入点)"
            + _ZH_CLAUSE_END
        ),
        {"code": 127},
    ),
    # the side-by-side pop-up retold: "side-by-side configuration is incorrect when importing win32api"
    ("retold", fact_pattern(r"\bside-by-side configuration is (?:incorrect|invalid)\b"), {"code": 14001}),
    # the title bar of the loader's pop-up when only that was copied: "python.exe - System Error"
    ("retold", fact_pattern(r"\b[\w.-]+\.exe - (?:System Error|Entry Point Not Found)\b"), {}),
)
