"""The shapes error statements take, as RE2 patterns: loader messages of Python, torch, ctypes, cuDNN,
onnxruntime, PyInstaller and Rust, a user's own "X.dll is missing", and the paths that tell the Python
version, the environment type and package versions.

Every pattern registers itself; :class:`ScannedText` first searches all of them together in one pass, then
runs only those that can match.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from functools import cache
from typing import Any, ClassVar

from dlldoctor.kb.patterns import PatternSet, compile_pattern
from dlldoctor.text.normalize import line_starts

MAX_EVENTS_PER_PATTERN = 50


class FactPattern:
    """A fact pattern, compiled on first use; all of them are first searched together in one pass."""

    registry: ClassVar[list[FactPattern]] = []

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.index = len(FactPattern.registry)
        FactPattern.registry.append(self)

    @property
    def compiled(self) -> Any:
        return compile_pattern(self.pattern, case_sensitive=False)


def fact_pattern(pattern: str) -> FactPattern:
    return FactPattern(pattern)


@cache
def gate() -> PatternSet:
    """Every fact pattern in one set, searched in one pass to learn which can match at all."""
    return PatternSet([p.pattern for p in FactPattern.registry])


# --- shapes of error statements -------------------------------------------------------------------------
DLL_NAME = r"[A-Za-z0-9_.+~-]+\.(?:dll|pyd)"
PATH = r"[^\"'\r\n<>|*?]+?"
QPATH = r"[^\"'`\r\n<>|*?]+?"
# A path in a paste may have its user name starred out ("C:\\Users\\*me*\\AppData").
RPATH = r"[^\"'`\r\n<>|?]+?"
_ERROR_NAMED = (
    r"(?:\berror 0x[0-9a-f]{{1,8}} \(|\b(?:failed|fails) with (?:error )?|\breturned )ERROR_{name}\b"
)
SHAPES: tuple[tuple[str, FactPattern, dict[str, Any]], ...] = (
    ("winerror", fact_pattern(r"\[?WinError (?P<code>-?\d+)\]?"), {}),
    ("code-mention", fact_pattern(r"\((?:error code|error|code)[ :=]*(?P<code>\d{2,5})\)"), {}),
    ("code-mention", fact_pattern(r"\bWindows Error (?P<code>0x[0-9a-f]{1,8}|\d+)\b"), {}),
    # Ruby's LoadError puts the loader's code first: "LoadError: 126: The specified module could not be found.   -
    # C:/x/y.so", retold in a title as "ruby loadError: 126 cannot found module"
    ("code-mention", fact_pattern(r"\bLoadError:[ \t]*(?P<code>126|127|193|1114)\b"), {}),
    # ... or after require's frame, the class at the line's end: "in `require': 126: The specified module could not be
    # found.   - C:/Ruby/lib/ruby/gems/3.1.0/gems/gosu-1.3.0/lib/gosu.so (LoadError)"
    (
        "code-mention",
        fact_pattern(
            r"\brequire[\'`]?:[ \t]*(?P<code>126|127|193|1114):[^\r\n]{0,300}?\.so[ \t]*\(LoadError\)"
        ),
        {},
    ),
    # Lua's loadlib prints the code alone when Windows' message does not fit its buffer: "system error 14001", after
    # "require" or "error loading module" (not "System error 1326 has occurred", a network share's)
    (
        "code-mention",
        fact_pattern(
            r"(?:\brequire\b|\bloadlib\b|\berror loading module\b)[^\r\n]{0,160}?(?:\r?\n[ \t]*)?[^\r\n]{0,40}?"
            r"\bsystem error (?P<code>\d{3,5})\b"
        ),
        {},
    ),
    # Rust's io::Error prints the Windows code as "(os error 126)".
    ("code-mention", fact_pattern(r"\bos error (?P<code>\d{1,5})\b"), {}),
    ("status", fact_pattern(r"\b(?P<code>0xc0000(?:07b|135|139|142))\b"), {}),
    # the same statuses as a process exit code in decimal, signed (PyCharm's "Process finished with exit code
    # -1073741515") or unsigned (3221225781): 0xC0000135, 0xC000007B, 0xC0000139, 0xC0000142
    (
        "status",
        fact_pattern(
            r"(?:^|[^\w-])(?P<code>-1073741515|-1073741701|-1073741511|-1073741502|"
            r"3221225781|3221225595|3221225785|3221225794)\b"
        ),
        {},
    ),
    (
        "error-loading",
        fact_pattern(
            # "Erro loading" and "Error loading:" are how pastes and titles damage it
            r"Err?or? loading:? [\"'`]?(?P<path>" + RPATH + r")[\"'`]? or one of its dependencies"
        ),
        {},
    ),
    # ... followed by a parenthesis ("Error loading "...\c10.dll" (or one of its dependencies)"), only for a DLL
    # ("Error loading settings.yaml (line 3)" is not one).
    (
        "error-loading",
        fact_pattern(r"Err?or? loading:? [\"'`]?(?P<path>" + RPATH + r"\.(?:dll|pyd))[\"'`]?\s*\("),
        {},
    ),
    # ... and cut after the name, which must then be a DLL's ("Error loading model from checkpoint" is not).
    (
        "error-loading",
        fact_pattern(r"(?m)Err?or?:? loading:? *[\"'`]?(?P<path>" + RPATH + r"\.(?:dll|pyd))[\"'`]?[ \t.]*$"),
        {},
    ),
    # torch's message retold in a title without its "Error loading" ("Missing \"...\\c10.dll\" or one of
    # its dependencies"): the quoted DLL and the clause that follows it are the loader's own words.
    (
        "error-loading",
        fact_pattern(r"[\"'`](?P<path>" + RPATH + r"\.dll)[\"'`] or one of its dependencies"),
        {},
    ),
    # PyInstaller's bootloader: "Error loading Python DLL '...\\python39.dll'." (6.x: "Failed to load ..."),
    # the path perhaps on the next line and LoadLibrary's message after it; or its first words alone ("Fatal error!
    # Error loading Python DLL", or quoted in a sentence).
    (
        "load-library",
        fact_pattern(
            r"(?m)(?:Error loading|Failed to load) .ython DLL"
            r"(?::?[ \t]?(?:\r?\n[ \t]*)?'?(?P<path>" + RPATH + r")'?\.?[`\"]?(?:\s|$)|[ \t.!]*$|[\"'`])"
        ),
        {"leaf": True},
    ),
    (
        "depends-missing",
        fact_pattern(
            r"Error loading \"(?P<path>"
            + PATH
            + r")\" which depends on \"(?P<dll>"
            + PATH
            + r")\" which is missing"
        ),
        {"leaf": True, "code": 126},
    ),
    (
        "ctypes",
        fact_pattern(r"Could not find module '(?P<path>" + PATH + r")'(?: \(or one of its dependencies\))?"),
        {"code": 126},
    ),
    ("ctypes", fact_pattern(r"Could not find module \"(?P<path>" + PATH + r")\""), {"code": 126}),
    # ctypes asked a loaded DLL for a function it does not export (GetProcAddress's 127): "AttributeError: function
    # 'CancelIoEx' not found"
    (
        "ctypes",
        fact_pattern(r"\bAttributeError: function '(?P<symbol>[A-Za-z_?@$][\w@?$]{0,119})' not found"),
        {"code": 127},
    ),
    (
        "load-library",
        fact_pattern(
            r"Could not load (?:dynamic )?library '?(?P<dll>"
            + DLL_NAME
            + r")'?\.?(?:[^\n]*?(?:error code|error)\s*(?P<code>\d{1,5}))?"
        ),
        {"leaf": True},
    ),
    (
        "load-library",
        fact_pattern(r"dlerror: (?P<dll>" + DLL_NAME + r") not found"),
        {"leaf": True, "code": 126},
    ),
    (
        "load-library",
        fact_pattern(r"Could not locate (?P<dll>" + DLL_NAME + r")"),
        {"leaf": True, "code": 126},
    ),
    (
        "load-library",
        fact_pattern(r"Unable to load (?:DLL |[\w ]{0,40}library )?'?(?P<path>" + QPATH + r"\.dll)\b"),
        {"leaf": True},
    ),
    (
        "load-library",
        fact_pattern(
            r"Could not load (?:file or assembly |library )?[\"'`]?(?P<path>(?:[A-Za-z]:)?[^\"'`\r\n<>|*?:]+?\.dll)\b"
        ),
        {"leaf": True},
    ),
    (
        "load-library",
        fact_pattern(r"Library (?P<dll>" + DLL_NAME + r") is not found or cannot be loaded"),
        {"leaf": True, "code": 126},
    ),
    ("cuda-driver", fact_pattern(r"CUDA driver version is insufficient for CUDA runtime version"), {}),
    ("cuda-driver", fact_pattern(r"NVIDIA driver on your system is too old"), {}),
    ("torch-no-cuda", fact_pattern(r"Torch not compiled with CUDA enabled"), {}),
    (
        "load-library",
        fact_pattern(
            r"LoadLibrary(?:Ex)?[AW]?(?:\(\))? ?(?:failed|失败|失敗|실패)(?: with error(?: code)?| with code|, error(?: code)?)?:? ?[(（]?(?P<code>0x[0-9a-f]{1,4}\b|\d+)"
        ),
        {},
    ),
    (
        "load-library",
        fact_pattern(r"LoadLibrary(?:Ex)?[AW]? (?:of |on )?\"?(?P<path>" + PATH + r"\.dll)\"? failed"),
        {},
    ),
    # CuPy: "CuPy failed to load nvrtc64_120_0.dll: FileNotFoundError: Could not find module ..."
    (
        "load-library",
        fact_pattern(r"CuPy failed to load (?P<dll>" + DLL_NAME + r")"),
        {"leaf": True},
    ),
    # onnxruntime's provider bridge, also when the words between the names were mangled by a code page:
    # `... onnxruntime_providers_cuda.dll" which dep<mojibake>"cudnn64_9.dll" which is missing`.
    (
        "depends-missing",
        fact_pattern(r"[\"'](?P<dll>" + DLL_NAME + r")[\"'] which is missing"),
        {"leaf": True, "code": 126},
    ),
    (
        "depends-missing",
        fact_pattern(
            r"Error loading [\"']?(?P<path>" + QPATH + r"\.dll)[\"']?: (?P<dll>" + DLL_NAME + r") is missing"
        ),
        {"leaf": True, "code": 126},
    ),
    # Nuitka's standalone loader: "ImportError: LoadLibraryExW 'C:\\app\\mod.pyd' failed: <message>".
    (
        "load-library",
        fact_pattern(r"LoadLibraryExW? '(?P<path>[^'\r\n]+\.(?:pyd|dll))' failed"),
        {},
    ),
    # The same failure retold: "ImportError: LoadLibraryEx fails for win32ui.pyd on 64 bit Windows".
    (
        "load-library",
        fact_pattern(
            r"(?m)LoadLibrary(?:Ex)?[AW]? fail(?:s|ed) for [\"'`]?(?P<path>" + QPATH + r"\.(?:pyd|dll))\b"
            # OBS's log line ends with the code: "LoadLibrary failed for '…\\x.dll': (null) (193)"
            r"(?:[\"'`]?:[^\r\n]{0,80}? \((?P<code>\d{2,5})\)[ \t]*$)?"
        ),
        {},
    ),
    # regsvr32's: 'LoadLibrary("C:\\foo\\bar.dll") failed - The specified module could not be found.'
    (
        "load-library",
        fact_pattern(r"LoadLibrary(?:Ex)?[AW]?\(\"(?P<path>[^\"\r\n]+?\.(?:dll|ocx|ax))\"\) failed"),
        {},
    ),
    # pywin32 / win32ctypes errors, as PyInstaller prints them: "(1920, 'LoadLibraryEx', '...')".
    (
        "winerror",
        fact_pattern(
            r"\((?P<code>\d{1,5}), '(?:LoadLibrary|GetModuleHandle|EnumResource|BeginUpdateResource)\w*',"
        ),
        {},
    ),
    # ODPI-C (cx_Oracle, python-oracledb thick mode, node-oracledb): the Oracle Client of the other bitness.
    (
        "load-library",
        fact_pattern(
            r"DPI-1047: [^\r\n]*?(?:32|64)-bit Oracle Client library[^\r\n]*?\n?[ \t]*\"(?P<path>"
            + PATH
            + r"\.dll) is not the correct architecture"
        ),
        {"leaf": True, "code": 193},
    ),
    ("code-mention", fact_pattern(r"\(Error (?P<code>\d{1,5}): "), {}),
    # 193's message retyped ("%1 not a valid win32 application!", "is not a valid Win32 app", "is not a valid 32-bit
    # application", "不是有效的win32应用程序", its Chinese translated back, "is not effective win32 application", or
    # said short, 'an "invalid win32 app" error'),
    # German's "keine zulässige Win32-Anwendung" translated back: "is no valid win32 program"),
    # or without "valid" after the file it names ("python.exe is not a Win32 application"; not "a web app, not a
    # Win32 app")
    (
        "code-mention",
        fact_pattern(
            r"\b(?:not|no) (?:an? )?(?:valid|effective) (?:win32|32-bit|64-bit)[- ](?:app(?:lication)?|program)\b|"
            r"\ban? [\"'`]?invalid win32 app(?:lication)?\b|"
            r"(?:%1|[\w.+-]+\.(?:exe|dll|pyd)[\"'`]?) is not an? win32 app(?:lication)?\b|不是(?:一个|一個)?有效(?:的)? ?win32 ?(?:应用程序|應用程式|程序|程式)"
        ),
        {"code": 193},
    ),
    # "Error 1455", "error code: 1114" without WinError's brackets; not an issue number ("error #1455") nor a
    # database's own error of the same number ("ERROR 1114 (HY000): The table is full" is MySQL's)
    (
        "code-mention",
        # (and not a count: "error 1455 times retried", "error: 1455 tests failed")
        fact_pattern(
            r"\berror(?: code)?:? (?P<code>1455|1114|4551)(?:$|[.,;!)\]\r\n]|[ \t]+(?:[-:]|\(0x|when|while|at|in|on)\b)"
        ),
        {},
    ),
    ("code-mention", fact_pattern(r"\bGetLastError\(\)\s*(?:=|returned|:)?\s*(?P<code>\d+)"), {}),
    # the loader's codes by their names, as a failure reports them (not a constant in code or docs): "error 0xc1
    # (ERROR_BAD_EXE_FORMAT)", "LoadLibrary failed with ERROR_MOD_NOT_FOUND", "returned ERROR_PROC_NOT_FOUND"
    ("code-mention", fact_pattern(_ERROR_NAMED.format(name="MOD_NOT_FOUND")), {"code": 126}),
    ("code-mention", fact_pattern(_ERROR_NAMED.format(name="PROC_NOT_FOUND")), {"code": 127}),
    ("code-mention", fact_pattern(_ERROR_NAMED.format(name="BAD_EXE_FORMAT")), {"code": 193}),
    ("code-mention", fact_pattern(_ERROR_NAMED.format(name="DLL_INIT_FAILED")), {"code": 1114}),
    # markdown pastes escape or emphasise the name: "importing \\_multiarray\\_umath", "importing *cv2*"
    (
        "python",
        fact_pattern(r"DLL load failed (?:while )?importing [*`_\\]*?(?P<module>\\?[A-Za-z_][\w.\\]*)"),
        {},
    ),
    # ... and its words alone in quotes ('Prompt "DLL load failed" while install binary'; at a line's end: below)
    ("python", fact_pattern(r"DLL load failed(?: while importing)?(?::|[\"'`])"), {}),
    # the message translated by the reporter (from 找不到指定的模块 / 找不到指定的程序 and the like; "DLL load failed
    # using pymssql: specific module cannot be found")
    (
        "python",
        fact_pattern(
            r"DLL load failed(?: (?:while importing|using) [\w.]+)?: ?(?:(?:could not|cannot|can't|can not) find "
            r"(?:this|the specified|specified|the) module|(?:the )?specifi(?:ed|c) module "
            r"(?:can(?:not|'t| not)|could(?:n't| not)) (?:be )?found)"
        ),
        {"code": 126},
    ),
    (
        "python",
        fact_pattern(
            r"DLL load failed(?: while importing [\w.]+)?: ?(?:(?:could not|cannot|can't|can not) find "
            r"(?:this|the specified|specified|the) (?:procedure|program)|(?:the )?specifi(?:ed|c) procedure "
            r"(?:can(?:not|'t| not)|could(?:n't| not)) (?:be )?found)"
        ),
        {"code": 127},
    ),
    # issue titles speak of it in the present: "DLL load fails on Anaconda/Windows install (python3.dll)"
    ("python", fact_pattern(r"\bDLL load fails\b"), {}),
    # ... or name it as a noun: "DLL Import Error", "DLL load error", "DLL loading failure"
    ("python", fact_pattern(r"\bDLL (?:import|load|loading) (?:error|failure)s?\b"), {}),
    # The line cut after "DLL load failed" (the message lost, or on a line the user did not copy).
    ("python", fact_pattern(r"(?m)DLL load failed[ \t.!]*$"), {}),
    (
        "python-conflict",
        fact_pattern(r"Module use of (?P<dll>python\d+\.dll) conflicts with this ver\w{2,5} of Python"),
        {"leaf": True},
    ),
    (
        "omp-duplicate",
        fact_pattern(
            r"OMP: Error #15: Initializing (?P<dll>"
            + DLL_NAME
            + r"), but found (?:"
            + DLL_NAME
            + r") already initialized"
        ),
        {"leaf": True},
    ),
    ("module-not-found", fact_pattern(r"ModuleNotFoundError: No module named '(?P<module>[\w.]+)'"), {}),
    (
        "entry-point",
        fact_pattern(
            r"entry point (?P<symbol>[^\s\"]+) could not be located in the dynamic link library "
            r"(?P<dll>" + PATH + r"\.dll)"
        ),
        {"leaf": True, "code": 127},
    ),
    # PyInstaller's ctypes hook: "Failed to load dynlib/dll 'C:\\app\\_internal\\foo.dll'. Most likely this
    # dynlib/dll was not found when the application was frozen."
    (
        "load-library",
        fact_pattern(r"Failed to load dynlib/dll [\"']?(?P<path>" + RPATH + r"\.(?:dll|pyd))\b"),
        {"leaf": True},
    ),
)
DLL_MENTION = fact_pattern(r"(?P<dll>[A-Za-z0-9_.+~-]+\.dll)\b")
WIN_PATH_DLL = fact_pattern(r"(?P<path>(?:[A-Za-z]:|\\\\[^\\\s]+)[\\/][^\"'\r\n<>|*?:]*?\.dll)\b")


# --- environment --------------------------------------------------------------------------------------
PY_VERSION: tuple[tuple[int, FactPattern], ...] = (
    (
        9,
        fact_pattern(r"(?m)^\s*Python (?P<v>3\.\d{1,2})(?:\.\d+)?\s*(?:\(|\||$)"),
    ),  # interpreter banner / `python -V`
    # "Python version: 3.9", "my python version is currently 3.7.8"
    (8, fact_pattern(r"(?:Python|python) version:?\s*(?:is\s+)?(?:currently\s+|now\s+)?(?P<v>3\.\d{1,2})")),
    (7, fact_pattern(r"WindowsApps[\\/]PythonSoftwareFoundation\.Python\.(?P<v>3\.\d{1,2})")),
    (7, fact_pattern(r"Packages[\\/]PythonSoftwareFoundation\.Python\.(?P<v>3\.\d{1,2})")),
    (7, fact_pattern(r"pythoncore-(?P<v>3\.\d{1,2})")),
    (6, fact_pattern(r"[\\/]Python(?P<maj>3)(?P<min>\d{1,2})t?(?:-32|-64|-arm64)?[\\/]")),
    (6, fact_pattern(r"[\\/]lib[\\/]python(?P<v>3\.\d{1,2})t?[\\/]")),
    (5, fact_pattern(r"python-(?P<v>3\.\d{1,2})(?:\.\d+)?-embed")),
    (5, fact_pattern(r"[\\/]python(?P<maj>3)(?P<min>\d{1,2})\._pth")),
    (4, fact_pattern(r"-cp(?P<maj>3)(?P<min>\d{1,2})-(?:cp3\d{1,2}t?|abi3|none)-win")),
    (3, fact_pattern(r"\bPython (?P<v>3\.\d{1,2})(?:\.\d+)?\b")),
    (2, fact_pattern(r"[\\/]envs[\\/]py(?:thon)?(?P<maj>3)(?P<min>\d{1,2})[\\/]")),
)
ENV_PATTERNS: tuple[tuple[str, FactPattern], ...] = (
    # A frozen application's process, whatever environment it was built from: PyInstaller's _MEI… folder,
    # its runtime hooks and messages, a Nuitka standalone .dist folder, cx_Freeze's lib\library.zip layout.
    (
        "frozen",
        fact_pattern(
            r"[\\/]_MEI\d{2,}[\\/]|sys\._MEIPASS|\bpyi_rth_\w+|\bpyimod0\d_\w+|Failed to execute script\b"
            r"|\[PYI-\d+:ERROR\]|\w\.dist[\\/][^\n]*\.(?:pyd|dll|exe|py)\b|cx_Freeze[\\/]initscripts"
            r"|[\\/]lib[\\/]library\.zip\b"
            # ... and the user saying so: "built with pyinstaller", "pyinstaller --onefile", "the packaged exe",
            # "after packaging", 打包后 / 打包成exe (not "I do not use pyinstaller")
            r"|\b(?:built|build|building|packaged|packed|frozen|bundled|compiled|made|created) (?:it |the app |my app )?"
            r"(?:with|using|by) pyinstaller\b|\b(?:use|used|using) pyinstaller to (?:build|make|create|package|pack)\b"
            r"|\bpyinstaller (?:--onefile|-F|--onedir|-D|--noconsole|--windowed|-w)\b|\b(?:packaged|frozen|bundled) "
            r"(?:exe|executable|app|application)\b|\bafter (?:packaging|freezing|bundling)\b|打包(?:后|成|为)"
        ),
    ),
    (
        "store",
        fact_pattern(
            r"WindowsApps[\\/]PythonSoftwareFoundation|Packages[\\/]PythonSoftwareFoundation\.Python"
        ),
    ),
    (
        "embedded",
        fact_pattern(
            r"python_embed(?:d)?ed[\\/]|python-3[\d.]*-embed|[\\/]python3\d{1,2}\._pth"
            r"|\bembeddable (?:package|python|distribution)"
        ),
    ),
    (
        "conda",
        fact_pattern(
            r"(?:ana|mini|micro)conda3?[\\/]|miniforge3?[\\/]|mambaforge[\\/]|conda-meta|\(base\) [A-Za-z]:\\"
            r"|[\\/]envs[\\/][^\\/\s]+[\\/](?:lib[\\/]site-packages|Library[\\/]bin|python\.exe)"
        ),
    ),
    (
        "venv",
        fact_pattern(
            r"[\\/]\.?venv[^\\/\s]*[\\/]|[\\/]virtualenvs?[\\/]|[\\/]\.virtualenvs[\\/]|pyvenv\.cfg|[\\/]pypoetry[\\/]|[\\/]pipx[\\/]venvs[\\/]|[\\/]env[\\/]Lib[\\/]site-packages"
        ),
    ),
    (
        "system",
        fact_pattern(
            r"Programs[\\/]Python[\\/]Python3|Program Files(?: \(x86\))?[\\/]Python3"
            r"|[A-Za-z]:[\\/]Python3\d{1,2}[\\/]"
        ),
    ),
)


class ScannedText:
    def __init__(self, text: str) -> None:
        self.text = text
        self.data = text.encode("utf-8", "surrogatepass")
        self.starts = line_starts(self.data)
        self.present = gate().search(self.data)

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def line_data(self, line: int) -> bytes:
        """The bytes of 1-based ``line``, its line break included (empty past the last line)."""
        start = self.starts[line - 1] if line - 1 < len(self.starts) else len(self.data)
        end = self.starts[line] if line < len(self.starts) else len(self.data)
        return self.data[start:end]

    def search(self, pattern: FactPattern) -> Any:
        return pattern.compiled.search(self.data) if pattern.index in self.present else None

    def finditer(self, pattern: FactPattern, limit: int = MAX_EVENTS_PER_PATTERN) -> Iterator[Any]:
        if pattern.index not in self.present:
            return
        for n, m in enumerate(pattern.compiled.finditer(self.data)):
            if n >= limit:
                return
            yield m
