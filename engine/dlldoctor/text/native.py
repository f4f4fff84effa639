"""Loader errors as native programs, runtimes and plug-in hosts print them: .NET's exceptions and HRESULTs,
Java's UnsatisfiedLinkError, Unreal Engine's and Maya's plug-in loaders, codes in hexadecimal, a process's exit
by its NTSTATUS name, Cygwin's and MSYS2's loader, Electron's "Library file not found".

Each is read like a shape of :mod:`dlldoctor.text.shapes` (same kinds, same groups).
"""

from __future__ import annotations

from typing import Any

from dlldoctor.text.shapes import DLL_NAME, PATH, RPATH, FactPattern, fact_pattern

# A process's exit by its NTSTATUS name, as a runner reports it (not a function's return value in docs or tests).
_STATUS_NAMED = (
    r"(?:\bexited with|\bexit code:?\s*(?:0x[0-9a-f]{{8}},?\s*)?|\bterminated with|\b(?:is|was|gets|got) raised\b|"
    r"\b(?:raises|raised|fails with|failed with|crashes with|crashed with))\s*[(`'\"]?STATUS_{name}\b|"
    r"[`'\"]STATUS_{name}[`'\"] (?:is|was|gets|got) raised\b"
)
# The words a crash report or a pop-up says a status with ("Exception Code: c06d007e"), not an "==" of code
_STATUS_SAID = r"\b(?:exception|error|status|code)\b[^\r\n=]{0,12}?\b"
# An HRESULT as .NET's exceptions and its binder's log print it: "Exception from HRESULT: 0x8007007E" (or without
# its colon or "from": "(Exception HRESULT: 0x8007007E)" in an Italian Visual Studio's output), "异常来自
# HRESULT:0x8007007E", "Failed to complete setup of assembly (hr = 0x8007000b)", a failure's "fails with HRESULT
# 0x8007007e", and IIS's error page's "Error Code: 0x800700c1" opening a line (not a constant in code, "// HRESULT:
# 0x8007007E", nor another API's "dism failed (hr = 0x8007000b)").
_HRESULT = (
    r"(?:\bException (?:from )?HRESULT:?|(?m:^)[ \t]*Error Code:|异常来自\s*HRESULT:|"
    r"\b(?:with|returned|returns|error|fail(?:s|ed)?) HRESULT(?: of| =|:)?|"
    r"(?:Failed to complete setup of assembly|未能完成程序集的安装)\s*\(hr\s*=)\s*"
)
# A loader code in hexadecimal after a DLL's error ("DLL Error 0x7e", "foo.dll failed, error code 0x7E"), after the
# Chinese word for an error a plug-in host prints ("报错 0000007E"), or in brackets ("(0000007E)"); not any "code
# 0xC1" (a byte, a key, a character, a bug check). The doubled braces are str.format's.
_HEX_CODE = (
    r"(?:\bdll error|\.dll\b[^\r\n]{{0,60}}?\berror(?: code)?|报错|错误代码|錯誤代碼)(?: is)?[ \t:：=]*"
    r"(?:0x0{{0,6}}|0{{4,6}}){low}\b|\((?:0x)?0{{4,6}}{low}\)"
)


def _wine_import(words: str, outcome: str) -> FactPattern:
    """Wine's log line for one DLL a program imports: "err:module:import_dll <words> X.dll (which is needed by …)
    <outcome>"."""
    return fact_pattern(
        r"\berr:module:import_dll "
        + words
        + r" (?P<dll>"
        + DLL_NAME
        + r") \(which is needed by [^\r\n]+?\) "
        + outcome
    )


NATIVE: tuple[tuple[str, FactPattern, dict[str, Any]], ...] = (
    # Electron's and other loaders' "Library file not found: C:\\...\\libfoo_amd64.dll"
    (
        "load-library",
        fact_pattern(
            r"(?:initiali[sz]ation failed|\berror\b)[^\r\n]{0,40}?\blibrary file not found:?\s*[\"'`]?(?P<path>"
            + RPATH
            + r"\.dll)\b"
        ),
        {"code": 126, "leaf": True},
    ),
    # Unreal Engine's plug-in loader, and Maya's: "Plugin 'X' failed to load because module 'X' could not be
    # loaded. There may be an operating system error or the module may not be properly set up.", "Unable to
    # dynamically load : C:/.../maya2glTF.mll"
    (
        "load-library",
        fact_pattern(r"failed to load because module [\"'`][^\"'`\r\n]{1,100}[\"'`] could not be loaded"),
        {},
    ),
    (
        "load-library",
        fact_pattern(r"Unable to dynamically load\s*:\s*(?P<path>" + PATH + r"\.(?:mll|dll|pyd))\b"),
        {},
    ),
    # Unity's check of a native plug-in's machine: "Failed to load 'X.dll', expected x64 architecture, but was x86
    # architecture" (the other bitness) or "... but was Unknown architecture" (not a PE file at all)
    (
        "load-library",
        fact_pattern(
            r"Failed to load [\"'`](?P<path>" + RPATH + r"\.dll)[\"'`],? expected \w+ architecture, but was "
            r"(?:x86|x64|x86_64|ARM64|ARM|Unknown) architecture"
        ),
        {"code": 193},
    ),
    # a host that reads the plug-in's machine itself: SuperCollider's "couldn't load 'C:/.../Zyn.dll': Wrong CPU
    # architecture"
    (
        "load-library",
        fact_pattern(
            r"(?:could(?:n'?t| not)|can'?t|cannot|failed to|unable to) load [\"'`]?(?P<path>"
            + RPATH
            + r"\.dll)"
            r"[\"'`]?:? (?:wrong|incompatible) (?:cpu |processor |machine )?architecture\b"
        ),
        {"code": 193, "leaf": True},
    ),
    # a loader's code in a native program's own words: Firebird's "Module X exists but can not be loaded / unknown
    # Win32 error 193", pywin32's service host's "could not be loaded - win32 error code is 193", an injector's "when
    # injecting giving error 126" and a plug-in host's "The plugin dll could not be loaded: 126" (not make's "***
    # [foo.dll] Error 127", a shell's exit status)
    (
        "load-library",
        fact_pattern(r"\bModule (?P<path>" + RPATH + r") exists but can ?not be loaded"),
        {},
    ),
    ("code-mention", fact_pattern(r"\bWin32 error(?: code)?(?: is)?:? (?P<code>126|127|193|1114)\b"), {}),
    (
        "code-mention",
        fact_pattern(
            r"\binject(?:ing|ed|ion)?\b[^\r\n\]]{0,40}?\berror(?: code)?[ :]*(?P<code>126|127|193|1114)\b"
        ),
        {},
    ),
    # ... a plug-in that fails to load, or that its author compiles, with a bare code: "every plugin I compile ...
    # says "error 126"", "Failed to load plugin foo.dll: error 126", "plugins loaded, error code 126 when loading x.dll"
    # (not a shell's 127, "command not found", nor a plug-in's own error numbers: "the Kodi plugin says "error 193"")
    (
        "code-mention",
        fact_pattern(
            r"(?:\bplug-?ins?\b[^\r\n\]]{0,40}?\b(?:compil\w*|load\w*)\b|\b(?:fail(?:s|ed)? to load|can'?t load|cannot load|"
            r"could not load|loading)\b[^\r\n\]]{0,20}?\bplug-?ins?\b)[^\r\n\]]{0,40}?\berror(?: code)?[ :\"'`]*"
            r"(?P<code>126|193|1114)\b"
        ),
        {},
    ),
    ("code-mention", fact_pattern(r"\bdll could not be loaded:?[ \t]*(?P<code>126|127|193|1114)\b"), {}),
    # a launcher's own words with the loader's code: "Error loading DLL: 126", "Error loading DLL 'nvcuda.dll': 126"
    (
        "code-mention",
        fact_pattern(
            r"\berror loading (?:the )?dll(?: [\"'](?P<dll>"
            + DLL_NAME
            + r")[\"'])?:?[ \t]*(?P<code>126|127|193|1114)\b"
        ),
        {},
    ),
    # ... or with the code first: Python4Delphi's "Error 193: Could not open Dll "python33.dll"", "Error 126 while
    # loading DLL x.dll"
    (
        "code-mention",
        fact_pattern(
            r"\berror (?P<code>126|127|193|1114):? (?:could not open|while loading|when loading) (?:the )?dll\b"
            r"(?:[ \t]*[\"'`]?(?P<dll>" + DLL_NAME + r"))?"
        ),
        {},
    ),
    # onnxruntime's words when its CUDA provider's DLLs do not load: "CUDA_PATH is set but CUDA wasn't able to be
    # loaded. Please install the correct version of CUDA and cuDNN", "wasnt" in older releases
    ("load-library", fact_pattern(r"\bCUDA_PATH is set but CUDA wasn'?t able to be loaded\b"), {"code": 126}),
    # LoadLibraryEx's failure as a tool prints it: "setdll.exe: LoadLibraryEx(version-x64.dll) failed with error 126."
    (
        "load-library",
        fact_pattern(
            r"\bLoadLibrary(?:Ex)?[AW]?\(\s*[\"']?(?P<path>"
            + RPATH
            + r"\.dll)[\"']?\s*\) failed with error (?P<code>\d{1,5})\b"
        ),
        {"leaf": True},
    ),
    # an injector's manual mapping of a DLL's imports: "Failed finding address of MSVCP140!?_Syserror_map@std@@..."
    # (the VC++ runtime's DLLs only: an API set or a forwarded export is the mapper's own limit, not the system's)
    (
        "entry-point",
        fact_pattern(
            r"Failed finding address of (?P<bare>(?:msvcp|vcruntime|concrt|msvcr)[A-Za-z0-9_]{0,20})!(?P<symbol>[^\s\"'`]+)"
        ),
        {"leaf": True, "code": 127},
    ),
    # Chinese 1114 reduced to its last words after the DLL's name: "MaaCore.dll 初始化例程失败(0x9)"
    (
        "load-library",
        fact_pattern(r"(?P<dll>" + DLL_NAME + r")[ \t]*初始化例程失败"),
        {"code": 1114, "leaf": True},
    ),
    # the loader's codes in hexadecimal, as plug-in hosts print them: "DLL Error 0x7e", "couldn't load plugin
    # (0000007E)", "报错 0000007E：找不到指定模块"
    ("code-mention", fact_pattern(_HEX_CODE.format(low="7e")), {"code": 126}),
    ("code-mention", fact_pattern(_HEX_CODE.format(low="7f")), {"code": 127}),
    ("code-mention", fact_pattern(_HEX_CODE.format(low="c1")), {"code": 193}),
    # .NET: a BadImageFormatException's "An attempt was made to load a program with an incorrect format"
    # (ERROR_BAD_FORMAT, 11) is most often a DLL of the other bitness, like 193; the HRESULTs of the loader's codes
    # as .NET's exceptions print them, in English or another language ("异常来自 HRESULT:0x8007007E"), and as the
    # assembly binder's log does ("未能完成程序集的安装(hr = 0x8007000b)").
    (
        "load-library",
        fact_pattern(
            r"(?:BadImageFormatException:?\s*[\"'`]?|or one of its dependencies\.?|Unable to load DLL [\"'`]"
            r"[^\"'`\r\n]{1,100}[\"'`]:|[\"'`]\.)\s*An attempt was made to load a program "
            r"with an incorrect format"
        ),
        {"code": 193},
    ),
    # ... or that message alone, quoted from PowerShell or another .NET host, with its HRESULT or after a failure's verb
    # ('throws "An attempt was made to load a program with an incorrect format. (0x8007000B)"'; not a document's "see
    # also: 'An attempt was made to load a program with an incorrect format'")
    (
        "code-mention",
        fact_pattern(
            r"\bAn attempt was made to load a program with an incorrect format\.? ?\(0x8007000B\)|"
            r"\b(?:throws?|threw|error|failed|fails|got|get|getting)\b[^\r\n]{0,20}?[\"'`]"
            r"An attempt was made to load a program with an incorrect format\b"
        ),
        {"code": 193},
    ),
    ("code-mention", fact_pattern(_HRESULT + r"0x8007000B\b"), {"code": 193}),
    ("code-mention", fact_pattern(_HRESULT + r"0x8007007E\b"), {"code": 126}),
    ("code-mention", fact_pattern(_HRESULT + r"0x8007007F\b"), {"code": 127}),
    ("code-mention", fact_pattern(_HRESULT + r"0x800700C1\b"), {"code": 193}),
    ("code-mention", fact_pattern(_HRESULT + r"0x8007045A\b"), {"code": 1114}),
    # .NET's "Unable to load DLL" with the name DllImport gave, which may lack ".dll" ("Unable to load DLL 'e_sqlite3':
    # The specified module could not be found", "Unable to load DLL 'cimplot' or one of its dependencies"), in
    # English or in Chinese, simplified or traditional, with straight or curly quotes ("无法加载 DLL“YR3.dll”",
    # "無法載入 DLL \"SQLite.Interop.dll\""; in Chinese a name with ".dll" may stand unquoted); the loader's message
    # after it gives the code
    (
        "load-library",
        fact_pattern(
            r"(?:(?-i:Unable to load DLL) |(?:无法加载|無法載入|無法加載)\s*DLL\s*)(?:[\"'`“「](?P<bare>"
            r"[A-Za-z0-9_+~-][\w.+~-]{0,79})[\"'`”」]|(?P<dll>" + DLL_NAME + r")\b)"
        ),
        {},
    ),
    # .NET's (and Unity's) DllNotFoundException without "Unable to load DLL": "DllNotFoundException: DiskUtilsWinAPI"
    ("load-library", fact_pattern(r"(?-i:\bD(?:ll|LL)NotFoundException):"), {"code": 126}),
    # ... or named as what was thrown: '"threw an exception" of type DllNotFoundException', "got a DllNotFoundException"
    (
        "load-library",
        fact_pattern(
            r"\b(?:of type|threw|throws?|throwing|got|get|getting|gets)\s+(?:an?\s+)?[\"'`*_]{0,2}(?:System\.)?"
            r"(?-i:D(?:ll|LL)NotFoundException)\b(?:[\"'`*_]{0,2} (?:on|for|loading) [\"'`]?(?P<dll>"
            + DLL_NAME
            + r"))?"
        ),
        {"code": 126},
    ),
    # ... and a BadImageFormatException a program hit, named without its message ("I encountered a strange
    # BadImageFormat Exception", "throws BadImageFormatException", "run into a **BadImageFormatException**", a title's
    # "BadImageFormatException when build target is x64"; not a document's "BadImageFormatException is thrown when")
    (
        "load-library",
        fact_pattern(
            r"\b(?:an?|got|get|getting|gets|throws?|threw|throwing|strange|with)\s+(?:strange\s+)?[*_]{0,2}"
            r"(?:System\.)?(?-i:BadImageFormat ?Exception\b)|(?-i:BadImageFormatException) (?:was thrown|occurred)\b|"
            r"(?m:^)[ \t#*]*(?:System\.)?(?-i:BadImageFormatException)[ \t]+(?:when|while|on|after|with|in)\b"
        ),
        {"code": 193},
    ),
    # ... and a class of P/Invoke declarations whose static constructor failed, which is its DLL not loading ("The type
    # initializer for 'Microsoft.ML.OnnxRuntime.NativeMethods' threw an exception"; not another class's)
    (
        "load-library",
        fact_pattern(
            r"The type initializer for [\"'`][\w.+`]*?\.?(?:NativeMethods|UnsafeNativeMethods|SafeNativeMethods|"
            r"NativeLibrary|Interop|PInvoke|Native)[\"'`] threw an exception"
        ),
        {},
    ),
    # x64dbg's log for a plug-in (a DLL named .dp32 or .dp64) that did not load: "[PLUGIN]Failed to load plugin:
    # x64dbgpy.dp32", "Failed to load plugin: CpuidSpoofer.dp32"
    ("load-library", fact_pattern(r"\bFailed to load plugin:[ \t]*[\w.+~-]+\.dp(?:32|64)\b"), {}),
    # Node.js and Electron: an addon built for another Node ABI ("was compiled against a different Node.js version
    # using NODE_MODULE_VERSION 72. This version of Node.js requires NODE_MODULE_VERSION 73.")
    (
        "load-library",
        fact_pattern(r"was compiled against a different Node\.js version using\s+NODE_MODULE_VERSION \d+"),
        {},
    ),
    # .NET Core's DllNotFoundException: "Unable to load shared library 'libSkiaSharp' or one of its dependencies".
    (
        "load-library",
        fact_pattern(
            r"(?m)Unable to load shared library [\"'`](?P<dll>[^\"'`\r\n]{1,100})[\"'`] or one of its dependencies"
            r"(?:[ \t.]*$|[^\r\n]*?(?:PATH environment variable|specified module|0x8007007E))"
        ),
        {"code": 126},
    ),
    # Java's UnsatisfiedLinkError: the DLL was found but not one of its dependencies, or it is of the other
    # bitness ("Can't load AMD 64-bit .dll on a IA 32-bit platform"). The JVM's words may stand on a line of
    # their own, and a path it cannot print shows "??" for each character ("C:\Users\??\AppData\…").
    (
        "load-library",
        fact_pattern(
            r"UnsatisfiedLinkError:?\s+(?P<path>[^\"'`\r\n<>|*]+?\.dll): Can't find dependent libraries"
        ),
        {"code": 126},
    ),
    (
        "retold",
        fact_pattern(
            r"(?:^|[\s\"'`(])(?P<path>(?:[A-Za-z]:[\\/][^\"'`\r\n<>|*]*?|[\\/][^\"'`\r\n<>|*]*?|[\w.+~-]+)\.dll)"
            r"[\"'`]?: Can't find dependent libraries"
        ),
        {"code": 126},
    ),
    # ... for a file without an extension, as a library unpacked to a temporary name is ("…\\Temp\\tempLib1064…:
    # Can't find dependent libraries")
    (
        "load-library",
        fact_pattern(
            r"UnsatisfiedLinkError:?\s+[A-Za-z]:[\\/](?:[^\"'`\r\n<>|*]*[\\/])?[^\"'`\r\n<>|*.\\/]+: "
            r"Can't find dependent libraries"
        ),
        {"code": 126},
    ),
    # ... as IBM's J9 JVM says it: "x.dll (JVMPORT015E Unable to resolve shared library references - a prerequisite
    # shared library may be missing)"; or the JVM's words retold ("stuck on cant find dependant libraries")
    (
        "load-library",
        fact_pattern(r"\bJVMPORT015E Unable to resolve shared library references\b"),
        {"code": 126},
    ),
    (
        "retold",
        fact_pattern(r"\b(?:can'?t|cannot|could not|couldn'?t) find (?:the )?dependa?e?nt librar(?:y|ies)\b"),
        {"code": 126},
    ),
    # ... or only named, in a title: "UnsatisfiedLinkError for JNA on startup" (not "UnsatisfiedLinkError.class")
    ("load-library", fact_pattern(r"(?-i:\bUnsatisfiedLinkError)(?: for | on | when | while )"), {}),
    # ... or not found by name at all: "java.lang.UnsatisfiedLinkError: no opencv_java455 in java.library.path".
    (
        "load-library",
        fact_pattern(
            r"(?m)UnsatisfiedLinkError: no (?:[\w.+-]{1,80}|(?P<path>[A-Za-z]:[\\/][^\r\n]{1,200}?\.dll)) in java\.library\.path"
            r"(?:[ \t]*$|[^:\r\n]|: ?\[?[A-Za-z]:)"
        ),
        {"code": 126},
    ),
    (
        "load-library",
        fact_pattern(
            r"(?:UnsatisfiedLinkError: (?P<path>"
            + PATH
            + r"\.dll): )?Can't load (?:AMD|IA|ARM) ?(?:32|64)[- ]bit \.dll on an? (?:AMD|IA|ARM) ?(?:32|64)[- ]bit platform"
        ),
        {"code": 193},
    ),
    # ... or as SWT and rJava say it: "Cannot load 64-bit SWT libraries on 32-bit JVM", "make sure R and Java have
    # matching architectures"
    (
        "load-library",
        fact_pattern(
            r"Cannot load (?:32|64)-bit \w+ librar(?:y|ies) on (?:a )?(?:32|64)-bit JVM|"
            r"\bmake sure R and Java have matching architectures\b"
        ),
        {"code": 193},
    ),
    # the NTSTATUS names a process's exit is reported with ("exited with STATUS_DLL_NOT_FOUND", cargo's "(exit
    # code: 0xc0000135, STATUS_DLL_NOT_FOUND)"), not a function's return value in docs or tests
    ("status", fact_pattern(_STATUS_NAMED.format(name="DLL_NOT_FOUND")), {"code": 0xC0000135}),
    ("status", fact_pattern(_STATUS_NAMED.format(name="ENTRYPOINT_NOT_FOUND")), {"code": 0xC0000139}),
    ("status", fact_pattern(_STATUS_NAMED.format(name="INVALID_IMAGE_FORMAT")), {"code": 0xC000007B}),
    ("status", fact_pattern(_STATUS_NAMED.format(name="DLL_INIT_FAILED")), {"code": 0xC0000142}),
    # a delay-loaded DLL or function the loader could not find, as the C++ exception the delay-load helper raises,
    # ERROR_MOD_NOT_FOUND and ERROR_PROC_NOT_FOUND in its low word ("Unhandled exception Code:0xC06D007E", Windows
    # Error Reporting's "Exception Code: c06d007e", Visual Studio's "… in test.exe: 0xC06D007E: Module not found.");
    # not a filter in code that catches it on purpose
    # ("GetExceptionCode() == 0xC06D007E", "case 0xc06d007e:", a table's row)
    (
        "status",
        fact_pattern(_STATUS_SAID + r"(?:0x)?c06d007e\b|\.exe: 0xC06D007E: Module not found\b"),
        {"code": 126},
    ),
    (
        "status",
        fact_pattern(_STATUS_SAID + r"(?:0x)?c06d007f\b|\.exe: 0xC06D007F: Procedure not found\b"),
        {"code": 127},
    ),
    # STATUS_VIRUS_INFECTED, the start-up pop-up's "unable to start correctly (0xc0000906)": an antivirus refused
    # the image, as Win32's ERROR_VIRUS_INFECTED (225) says for a file
    (
        "status",
        fact_pattern(
            r"\(0xc0000906\)|" + _STATUS_SAID + r"0xc0000906\b|" + _STATUS_NAMED.format(name="VIRUS_INFECTED")
        ),
        {"code": 225},
    ),
    # Wine's loader log (ntdll's loader.c): a DLL a program imports is not there ('err:module:import_dll Library
    # libgdal-20.dll (which is needed by L"C:\\Program Files\\Mapper\\Mapper.exe") not found'), or it did not load for
    # another status ("err:module:import_dll Loading library MSVCP140.dll (which is needed by L\"C:\\x\\y.exe\") failed
    # (error c000007b)."), or the program's imports failed as a whole, a line the loader prints under another function
    # in each Wine release ("err:module:LdrInitializeThunk Importing dlls for L\"C:\\x\\y.exe\" failed, status c0000135",
    # "err:module:loader_init …", "err:module:attach_dlls …")
    ("load-library", _wine_import("Library", r"not found"), {"code": 126, "leaf": True}),
    (
        "load-library",
        _wine_import("Loading library", r"failed \(error c000007b\)"),
        {"code": 0xC000007B, "leaf": True},
    ),
    (
        "load-library",
        _wine_import("Loading library", r"failed \(error (?-i:c0000(?:135|139|142))\)"),
        {"leaf": True},
    ),
    (
        "status",
        fact_pattern(
            r"\berr:module:\w+ (?:Importing dlls|Main fwd initialization) for [^\r\n]*? failed, status "
            r"c0000135\b"
        ),
        {"code": 0xC0000135},
    ),
    # ... or Wine's own line when the program it was asked to start cannot load ('wine: failed to open
    # "C:/users/x/Scripts/pyinstaller.exe": c0000135')
    (
        "status",
        fact_pattern(r"\bwine: (?:failed to open|could not load) [^\r\n]+?: (?-i:c0000135)\b"),
        {"code": 0xC0000135},
    ),
    (
        "status",
        fact_pattern(r"\bwine: (?:failed to open|could not load) [^\r\n]+?: (?-i:c000007b)\b"),
        {"code": 0xC000007B},
    ),
    # a host's check of a plug-in's machine: foobar2000's 'Could not load component "foo_x.fb2k-component": This
    # component was built for a different processor architecture.'
    (
        "load-library",
        fact_pattern(r"\bThis component was built for a different processor architecture\b"),
        {"code": 193},
    ),
    # Cygwin's and MSYS2's own loader: "error while loading shared libraries: msys-2.0.dll: cannot open shared
    # object file".
    (
        "load-library",
        fact_pattern(
            r"error while loading shared libraries: (?P<dll>" + DLL_NAME + r"): cannot open shared object"
        ),
        {"code": 126, "leaf": True},
    ),
)
