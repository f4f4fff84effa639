"""The entry-point pop-up (STATUS_ENTRYPOINT_NOT_FOUND, 127) and the ordinal one (182) as people retell, retype and
translate them: "Failed to locate procedure entry point X in dynamic link library y.dll", "Can't find access point of
procedure (X) in DLL-file (KERNEL32.dll)", "无法在 x.dll 中定位 y 函数". Events of kind ``retold`` (and a
``code-mention`` for the pop-up's title alone), read with the others of :mod:`dlldoctor.text.retold`.
"""

from __future__ import annotations

from typing import Any

from dlldoctor.text.shapes import DLL_NAME, FactPattern, fact_pattern

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
# ... what says it was not found: before the words ("can't find", "was not possible to find", "failed to locate") or
# after the function's name ("is not found", "could not be located", "wasn't found")
_FAILED_TO_FIND = (
    r"(?:\b(?:can't|cant|cannot|can not|could not|couldn't|unable to|impossible to|not possible to|failed to|fails to)"
    r" (?:find|locate)\b)"
)
_NOT_FOUND = (
    r"(?:(?:is|was|has been) (?:not|n't) (?:found|located)|(?:isn't|wasn't) (?:found|located)|not found|"
    r"(?:can't|cannot|could not|couldn't) be (?:found|located))\b"
)
_FUNCTION = r"(?-i:[A-Za-z_?@$][\w@?$]*(?:[a-z][A-Z]|[_@?$]|[A-Za-z]\d)[\w@?$]*)"
# ... and what follows it there (not a name a translation split: "the rus_open Direct procedure")
_AFTER_FUNCTION = r"[)\"'`]?\s+(?:procedure|function|in|is|was|could|can|cannot|can't|not|wasn't|isn't)\b"
# A Win32 function's name as the symbol: three capitalised words or more ("SetThreadDescription", "GetTickCount64"),
# with an A or W for its character set; not a product's two ("PyTorch")
_WIN32_SYMBOL = r"(?P<symbol>(?-i:[A-Z][a-z]+(?:[A-Z][a-z0-9]+){2,}(?:[AW]\b)?))"

ENTRY_POINT_RETOLD: tuple[tuple[str, FactPattern, dict[str, Any]], ...] = (
    # the entry-point pop-up told by its title in brackets, or quoted as what a program says: "this dialog (Entry Point
    # Not Found)", 'it says: "Entry Point Not Found" every time' (not a search for it, a page so titled, a program's
    # own MessageBox call)
    (
        "code-mention",
        fact_pattern(
            r"(?-i:\(Entry ?Point Not Found\))|\b(?:says?|said|saying|shows?|showed|showing|gives?|gave|getting|get|got)"
            r"[: ]+[\"'“‘]Entry ?Point Not Found[\"'”’]"
        ),
        {"code": 127},
    ),
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
    # the 127 message shortened: "entry point ... not found"
    (
        "retold",
        fact_pattern(
            r"\b(?:procedure|program) (?:entry|input) point\b[^\r\n]{0,200}?\b(?:could not? be located|not\s+found)\b"
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
    # ... or its DLL left unnamed: a title's "SetThreadDescription could not be located in the DLL", "unable to locate
    # the entry point for the X procedure in the dynamic link library "path of .exe""
    (
        "retold",
        fact_pattern(
            r"(?P<symbol>"
            + _FUNCTION
            + r") could not be located in the (?:DLL|dynamic link library)[ \t]*[.!]?[ \t]*"
            r"\r?(?m:$)|\b(?:unable to|can't|cannot|could not|couldn't|failed to) locate the (?:procedure )?entry point"
            r"\b[^\r\n]{0,120}?\bin the dynamic link library\b"
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
    # ... and any other retelling or translation of the pop-up that keeps its parts on one line: a failure to find or
    # locate, the words for an entry point, a function's name, and the DLL it was looked for in ("Can't find access
    # point of procedure (K32GetModuleFileNameExW) in DLL-file (KERNEL32.dll)", "it was not possible to find the entry
    # point of the GetDpiForWindow procedure in the dynamic link library USER32.dll"), or the words for an entry point,
    # a function's name said not to be found, and the DLL ("the entrypoint for x265_api_get_215 is not found in the
    # library of dynamic links in avcodec-62.dll"); not advice about an entry point ("don't call LoadLibrary from the
    # entry point DllMain in foo.dll", "the entry point DllMain is not called when foo.dll is loaded")
    (
        "retold",
        fact_pattern(
            _FAILED_TO_FIND
            + r"[^\r\n]{0,30}?"
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
            + r")[)\"'`]?\s+"
            + _NOT_FOUND
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
    # MinGW-w64 GCC compilers", "Entry point not found when program start.", "Entry point not found error when using
    # SDL_RenderGeometry" (not "How to Fix Entry Point Not Found Errors")
    (
        "retold",
        fact_pattern(
            r"(?m)^[ \t\"'`*]*(?-i:Entry ?[Pp]oint [Nn]ot [Ff]ound)(?:[ \t]+errors?)?(?:[ \t.!]*$|[ \t]+(?:when|while|on|after|with|"
            r"dialog|pop-?up)\b|[ \t]*[(:][ \t]*[\"'`]?(?P<dll>" + DLL_NAME + r"))"
        ),
        {"code": 127},
    ),
    # ... or ending a sentence after others: "Cant start after update that was just pushed. Entry point not found."
    # (not a how-to's "How to fix entry point not found errors"); or quoted, cut short before its DLL: '"Entry point no
    # found... for api-ms-win-core-synch-l1-2-0.dll"'
    (
        "retold",
        fact_pattern(
            r"[.!:;][ \t]+(?-i:Entry ?[Pp]oint (?:[Nn]ot|[Nn]o) [Ff]ound)[ \t.!]*\r?(?m:$)|"
            r"[\"'“](?-i:Entry ?[Pp]oint (?:[Nn]ot|[Nn]o) [Ff]ound)(?:\.{2,}|…)[^\r\n\"'”]{0,40}?(?P<dll>"
            + DLL_NAME
            + r")\b"
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
    # ... or a title's "SetThreadDescription not available on Windows 7" ("... not supported on operating systems prior
    # Windows 8"): a Win32 function's name said to be absent on a Windows too old for it
    (
        "retold",
        fact_pattern(
            r"\b" + _WIN32_SYMBOL + r" (?:is )?(?:not available|unavailable|"
            r"missing|not found|not supported|does ?n[o']t exist) (?:on|in|under) "
            r"(?:(?:operating systems?|OS(?:es)?|versions?) )?(?:(?:prior(?: to)?|before|older than|earlier than) )?"
            r"Win(?:dows)? ?(?:XP|Vista|7|8(?:\.0)?)\b"
        ),
        {"code": 127},
    ),
    # ... or a title that is that name and the Windows alone: "GetSystemTimePreciseAsFileTime Win 7"
    (
        "retold",
        fact_pattern(
            r"(?m)^[ \t#*]*" + _WIN32_SYMBOL + r"[ \t]+(?:on[ \t]+)?"
            r"Win(?:dows)?[ \t]?(?:XP|Vista|7|8(?:\.0)?)[ \t]*$"
        ),
        {"code": 127},
    ),
    # ... or in Chinese: "SetThreadDescription WIN764无法使用" (on 64-bit Windows 7 it cannot be used)
    (
        "retold",
        fact_pattern(
            r"\b" + _WIN32_SYMBOL + r"[ \t]*(?:在[ \t]*)?Win(?:dows)?[ \t]*"
            r"(?:XP|Vista|7|8)(?:[ \t]*(?:x64|x86|64|32)(?:位)?)?[ \t]*(?:系统)?[上下中]?[ \t]*"
            r"(?:无法使用|不能用|不可用|不支持|用不了|找不到)"
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
    # translated: "Unable to locate the program input point in DiscardVirtualMemory dynamic link library KERNEL.dll",
    # "Cannot locate the program input point GetTempPath2W in the dynamic link library C:\\x\\coreutils.exe" (the
    # pop-up names the module whose import failed, which may be the program itself), "… on dynamic link library …"
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
            r"\b(?:unable to|cannot|can't|could not) locate (?:the )?program (?:input|entry) point\s+(?:in\s+)?"
            r"(?:(?P<symbol>" + _FUNCTION + r")\b)?[^\r\n]{0,120}?"
            r"(?:dynamic link library [\"'`]?(?:[A-Za-z]:[\\/](?:[^\r\n\"'`]*[\\/])?)?"
            r"(?P<dll>[^\\/\r\n\"'`]*?\.(?:dll|pyd|exe))\b|\bin dll\b)"
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
    # the pop-up's words with no DLL after them: a Windows function's name alone said not to be located, on a line
    # of its own ("DiscardVirtualMemory could not be located", a title); the program's name and the pop-up's title
    # opening a line ("Rack.exe Entry point not found error", "lapce.exe - Cannot find entry point"; not a how-to's
    # 'How to fix "python.exe - Entry Point Not Found"'); the Spanish pop-up retyped without its accents ("No se
    # encuentra el punto de entrada del procedimento X en la biblioteca de vinculos dinamicos"); below, the Chinese
    # pop-up's opening words, perhaps damaged by OCR ("无法定位程序输入点", "无法定位程序揃入点DiscardVirtualMemory")
    (
        "retold",
        fact_pattern(
            r"(?m)^[ \t\"'`*>]*(?P<symbol>" + _FUNCTION + r")[\"'`]? could not be located[ \t.!]*$|"
            r"(?m:^)[ \t\"'`*>]*[\w.+~-]+\.exe[\"'`]?[ \t]*[-–|:]?[ \t]*(?:entry ?point not found\b|"
            r"cannot find (?:the )?(?:procedure )?entry point[ \t]*(?:\r?(?m:$)|[|]))|"
            r"\bpunto de entrada del procedimi?ento\b"
        ),
        {"code": 127},
    ),
    (
        "retold",
        fact_pattern(r"(?:无法|無法)定位程序.?入点[ \t]*(?P<symbol>[A-Za-z_?@$][\w@?$]*)?"),
        {"code": 127},
    ),
    # ... and the English words with the function's name, whatever the module after them ("Cannot find procedure
    # entry point "CreatePseudoConsole" in dynamic link library C:\\x\\app.exe")
    (
        "retold",
        fact_pattern(
            r"\b(?:can't|cannot|could not|couldn't|unable to) (?:find|locate) (?:the )?procedure entry point "
            r"[\"'`]?(?P<symbol>" + _FUNCTION + r")[\"'`]? in (?:the )?dynamic link library\b"
        ),
        {"code": 127},
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
)
