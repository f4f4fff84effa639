"""Pasted error text → :class:`ErrorFacts`: the code, the DLL, the symbol, the module, the environment.

The text is normalized (:mod:`dlldoctor.text.normalize`), then read with RE2 patterns in linear time: the
localized Windows messages of rules/data/messages.yaml (so a message maps to its code with no number
shown), the shapes Python, torch's DLL preload, ctypes, cuDNN, onnxruntime, PyInstaller and Rust print, a
user's own "X.dll is missing", and the paths that tell the Python version, the environment type and package
versions. Several errors in one paste are grouped by line; the root-most group (one that names the missing
DLL itself, else the first) gives the headline facts.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

from dlldoctor.kb.families import Families, base_name
from dlldoctor.kb.messages import Messages
from dlldoctor.kb.model import format_code
from dlldoctor.kb.patterns import PatternSet, compile_pattern
from dlldoctor.text.normalize import line_starts, normalize_text

MAX_EVENTS_PER_PATTERN = 50
# Shapes that say little on their own ("error 7" in a log line, a missing Python module, a user's "X.dll is
# missing"): they never make a group the headline over a real loader error.
WEAK_KINDS = frozenset({"code-mention", "module-not-found", "prose-missing"})
MAX_DLLS = 200

# Names of the codes rules care about, for when messages.yaml does not name them.
CODE_NAMES = {
    126: "ERROR_MOD_NOT_FOUND",
    127: "ERROR_PROC_NOT_FOUND",
    182: "ERROR_INVALID_ORDINAL",
    193: "ERROR_BAD_EXE_FORMAT",
    1114: "ERROR_DLL_INIT_FAILED",
    1455: "ERROR_COMMITMENT_LIMIT",
    4551: "ERROR_SYSTEM_INTEGRITY_POLICY_VIOLATION",
    0xC000007B: "STATUS_INVALID_IMAGE_FORMAT",
    0xC0000135: "STATUS_DLL_NOT_FOUND",
    0xC0000139: "STATUS_ENTRYPOINT_NOT_FOUND",
    0xC0000142: "STATUS_DLL_INIT_FAILED",
    0xC000001D: "STATUS_ILLEGAL_INSTRUCTION",
    0xC0000005: "STATUS_ACCESS_VIOLATION",
    0xC0000409: "STATUS_STACK_BUFFER_OVERRUN",
}


@dataclass(frozen=True)
class ErrorEvent:
    """One error statement found in the text."""

    line: int
    kind: str  # "message", a pop-up kind, "python", or the shape recognised ("winerror", "ctypes", …)
    code: int | None = None
    dll: str | None = None  # lower-case base name
    dll_path: str | None = None
    symbol: str | None = None
    module: str | None = None
    language: str | None = None
    leaf: bool = False  # the DLL named is itself missing or lacks the symbol (not a DLL that depends on it)


@dataclass(frozen=True)
class ErrorFacts:
    """What an error text says, as far as it says it. Empty values mean "not in the text"."""

    error_code: int | None = None
    error_name: str | None = None
    dll: str | None = None
    dll_path: str | None = None
    symbol: str | None = None
    module: str | None = None
    language: str = "en"
    python_version: str | None = None
    env_type: str | None = None
    packages: tuple[tuple[str, str], ...] = ()  # (normalized name, version or "")
    dlls: tuple[str, ...] = ()  # DLLs named in error statements first, then others in the text
    named: int = 0  # how many of `dlls` come from error statements (the rest are mentioned elsewhere)
    families: tuple[tuple[str, str], ...] = ()  # (dll, family id) for every DLL in `dlls`
    versions: tuple[tuple[str, str, str], ...] = ()  # (dll, component, version) read from DLL names
    codes: tuple[int, ...] = ()  # every code seen, the headline one first
    events: tuple[ErrorEvent, ...] = ()
    text: str = field(default="", repr=False, compare=False)  # the normalized text
    data: bytes = field(default=b"", repr=False, compare=False)  # the same, UTF-8

    @property
    def found_anything(self) -> bool:
        return bool(self.events or self.error_code is not None)

    @property
    def error_dlls(self) -> tuple[str, ...]:
        """The DLLs the error statements name, or every DLL mentioned when they name none."""
        return self.dlls[: self.named] if self.named else self.dlls

    def package_version(self, name: str) -> str | None:
        return dict(self.packages).get(name)

    def as_dict(self) -> dict[str, Any]:
        return {
            "error_code": self.error_code,
            "error_code_hex": format_code(self.error_code) if self.error_code is not None else None,
            "error_name": self.error_name,
            "dll": self.dll,
            "dll_path": self.dll_path,
            "symbol": self.symbol,
            "module": self.module,
            "language": self.language,
            "python_version": self.python_version,
            "env_type": self.env_type,
            "packages": dict(self.packages),
            "dlls": list(self.dlls),
            "families": dict(self.families),
            "versions": [{"dll": d, "component": c, "version": v} for d, c, v in self.versions],
            "codes": list(self.codes),
        }


class _P:
    """A fact pattern, compiled on first use; all of them are first searched together in one pass."""

    registry: ClassVar[list[_P]] = []

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.index = len(_P.registry)
        _P.registry.append(self)

    @property
    def compiled(self) -> Any:
        return compile_pattern(self.pattern, case_sensitive=False)


def _c(pattern: str) -> _P:
    return _P(pattern)


@cache
def _gate() -> PatternSet:
    return PatternSet([p.pattern for p in _P.registry])


# --- shapes of error statements -------------------------------------------------------------------------
_DLL_NAME = r"[A-Za-z0-9_.+~-]+\.(?:dll|pyd)"
_PATH = r"[^\"'\r\n<>|*?]+?"
_QPATH = r"[^\"'`\r\n<>|*?]+?"
_SHAPES: tuple[tuple[str, _P, dict[str, Any]], ...] = (
    ("winerror", _c(r"\[?WinError (?P<code>-?\d+)\]?"), {}),
    ("code-mention", _c(r"\((?:error code|error|code)[ :=]*(?P<code>\d{2,5})\)"), {}),
    ("code-mention", _c(r"\bWindows Error (?P<code>0x[0-9a-f]{1,8}|\d+)\b"), {}),
    # Rust's io::Error prints the Windows code as "(os error 126)".
    ("code-mention", _c(r"\bos error (?P<code>\d{1,5})\b"), {}),
    ("status", _c(r"\b(?P<code>0xc0000(?:07b|135|139|142))\b"), {}),
    (
        "error-loading",
        _c(r"Error loading [\"'`]?(?P<path>" + _QPATH + r")[\"'`]?(?: or one of its dependencies|$|\s*\()"),
        {},
    ),
    # PyInstaller's bootloader: "Error loading Python DLL '...\\python39.dll'." (6.x: "Failed to load ..."),
    # the LoadLibrary message on the next line.
    (
        "load-library",
        _c(r"(?:Error loading|Failed to load) Python DLL:? '?(?P<path>" + _QPATH + r")'?\.?(?:\s|$)"),
        {"leaf": True},
    ),
    (
        "depends-missing",
        _c(
            r"Error loading \"(?P<path>"
            + _PATH
            + r")\" which depends on \"(?P<dll>"
            + _PATH
            + r")\" which is missing"
        ),
        {"leaf": True, "code": 126},
    ),
    (
        "ctypes",
        _c(r"Could not find module '(?P<path>" + _PATH + r")'(?: \(or one of its dependencies\))?"),
        {"code": 126},
    ),
    ("ctypes", _c(r"Could not find module \"(?P<path>" + _PATH + r")\""), {"code": 126}),
    (
        "load-library",
        _c(
            r"Could not load (?:dynamic )?library '?(?P<dll>"
            + _DLL_NAME
            + r")'?\.?(?:[^\n]*?(?:error code|error)\s*(?P<code>\d{1,5}))?"
        ),
        {"leaf": True},
    ),
    ("load-library", _c(r"dlerror: (?P<dll>" + _DLL_NAME + r") not found"), {"leaf": True, "code": 126}),
    ("load-library", _c(r"Could not locate (?P<dll>" + _DLL_NAME + r")"), {"leaf": True, "code": 126}),
    (
        "load-library",
        _c(r"Unable to load (?:[\w ]{0,40}library )?'?(?P<path>" + _QPATH + r"\.dll)\b"),
        {"leaf": True},
    ),
    (
        "load-library",
        _c(
            r"Could not load (?:file or assembly |library )?[\"'`]?(?P<path>(?:[A-Za-z]:)?[^\"'`\r\n<>|*?:]+?\.dll)\b"
        ),
        {"leaf": True},
    ),
    (
        "load-library",
        _c(r"Library (?P<dll>" + _DLL_NAME + r") is not found or cannot be loaded"),
        {"leaf": True, "code": 126},
    ),
    ("cuda-driver", _c(r"CUDA driver version is insufficient for CUDA runtime version"), {}),
    ("cuda-driver", _c(r"NVIDIA driver on your system is too old"), {}),
    ("torch-no-cuda", _c(r"Torch not compiled with CUDA enabled"), {}),
    (
        "load-library",
        _c(r"LoadLibrary(?:Ex)?[AW]?(?:\(\))? failed(?: with error| with code|, error)?:? (?P<code>\d+)"),
        {},
    ),
    (
        "load-library",
        _c(r"LoadLibrary(?:Ex)?[AW]? (?:of |on )?\"?(?P<path>" + _PATH + r"\.dll)\"? failed"),
        {},
    ),
    ("code-mention", _c(r"\(Error (?P<code>\d{1,5}): "), {}),
    ("code-mention", _c(r"\bGetLastError\(\)\s*(?:=|returned|:)?\s*(?P<code>\d+)"), {}),
    ("python", _c(r"DLL load failed (?:while )?importing (?P<module>[A-Za-z_][\w.]*)"), {}),
    ("python", _c(r"DLL load failed(?: while importing)?:"), {}),
    # The line cut after "DLL load failed" (the message lost, or on a line the user did not copy).
    ("python", _c(r"(?m)DLL load failed[ \t.!]*$"), {}),
    (
        "python-conflict",
        _c(r"Module use of (?P<dll>python\d+\.dll) conflicts with this version of Python"),
        {"leaf": True},
    ),
    (
        "omp-duplicate",
        _c(
            r"OMP: Error #15: Initializing (?P<dll>"
            + _DLL_NAME
            + r"), but found (?:"
            + _DLL_NAME
            + r") already initialized"
        ),
        {"leaf": True},
    ),
    ("module-not-found", _c(r"ModuleNotFoundError: No module named '(?P<module>[\w.]+)'"), {}),
    (
        "entry-point",
        _c(
            r"entry point (?P<symbol>[^\s\"]+) could not be located in the dynamic link library "
            r"(?P<dll>" + _PATH + r"\.dll)"
        ),
        {"leaf": True, "code": 127},
    ),
)
# A user's own words: "fbgemm.dll is missing", "missing msvcr100.dll", "缺少 MSVCP140.dll". ``next`` is the word
# after "missing", to tell a missing file from a DLL "missing an entry point".
_PROSE_MISSING: tuple[_P, ...] = (
    _c(
        r"\b(?P<dll>" + _DLL_NAME + r")[\"'`]?\s+(?:is |was |are |were |seems to be |appears to be |file is |"
        r"files are |went |got |goes )?missing\b(?P<next>[ \t]+[A-Za-z]+)?"
    ),
    _c(r"\bmissing(?: the| a)?(?: file| files| dll| DLL| library)?:?\s+[\"'`]?(?P<dll>" + _DLL_NAME + r")\b"),
    _c(r"(?:缺少|缺失|丢失|遺失)了?\s*(?:文件|檔案)?\s*[\"'`]?(?P<dll>" + _DLL_NAME + r")\b"),
    _c(r"\b(?P<dll>" + _DLL_NAME + r")[\"'`]?\s*(?:文件|檔案)?\s*(?:丢失|缺失|遺失|找不到|不存在)"),
)
# After "X.dll is missing": words that make it a missing *part* of the DLL, not a missing file.
_NOT_A_FILE = frozenset(
    [
        "a",
        "an",
        "the",
        "some",
        "entry",
        "export",
        "exports",
        "symbol",
        "symbols",
        "function",
        "functions",
        "procedure",
        "procedures",
        "ordinal",
        "dependency",
        "dependencies",
    ]
)
_DLL_MENTION = _c(r"(?P<dll>[A-Za-z0-9_.+~-]+\.dll)\b")
_WIN_PATH_DLL = _c(r"(?P<path>(?:[A-Za-z]:|\\\\[^\\\s]+)[\\/][^\"'\r\n<>|*?:]*?\.dll)\b")


# --- environment --------------------------------------------------------------------------------------
_PY_VERSION: tuple[tuple[int, _P], ...] = (
    (9, _c(r"(?m)^\s*Python (?P<v>3\.\d{1,2})(?:\.\d+)?\s*(?:\(|\||$)")),  # interpreter banner / `python -V`
    (8, _c(r"(?:Python|python) version:?\s*(?P<v>3\.\d{1,2})")),
    (7, _c(r"WindowsApps[\\/]PythonSoftwareFoundation\.Python\.(?P<v>3\.\d{1,2})")),
    (7, _c(r"Packages[\\/]PythonSoftwareFoundation\.Python\.(?P<v>3\.\d{1,2})")),
    (7, _c(r"pythoncore-(?P<v>3\.\d{1,2})")),
    (6, _c(r"[\\/]Python(?P<maj>3)(?P<min>\d{1,2})t?(?:-32|-64|-arm64)?[\\/]")),
    (6, _c(r"[\\/]lib[\\/]python(?P<v>3\.\d{1,2})t?[\\/]")),
    (5, _c(r"python-(?P<v>3\.\d{1,2})(?:\.\d+)?-embed")),
    (5, _c(r"[\\/]python(?P<maj>3)(?P<min>\d{1,2})\._pth")),
    (4, _c(r"-cp(?P<maj>3)(?P<min>\d{1,2})-(?:cp3\d{1,2}t?|abi3|none)-win")),
    (3, _c(r"\bPython (?P<v>3\.\d{1,2})(?:\.\d+)?\b")),
    (2, _c(r"[\\/]envs[\\/]py(?:thon)?(?P<maj>3)(?P<min>\d{1,2})[\\/]")),
)
_ENV: tuple[tuple[str, _P], ...] = (
    ("store", _c(r"WindowsApps[\\/]PythonSoftwareFoundation|Packages[\\/]PythonSoftwareFoundation\.Python")),
    (
        "embedded",
        _c(
            r"python_embed(?:d)?ed[\\/]|python-3[\d.]*-embed|[\\/]python3\d{1,2}\._pth"
            r"|\bembeddable (?:package|python|distribution)"
        ),
    ),
    (
        "conda",
        _c(
            r"(?:ana|mini|micro)conda3?[\\/]|miniforge3?[\\/]|mambaforge[\\/]|conda-meta|\(base\) [A-Za-z]:\\"
            r"|[\\/]envs[\\/][^\\/\s]+[\\/](?:lib[\\/]site-packages|Library[\\/]bin|python\.exe)"
        ),
    ),
    (
        "venv",
        _c(
            r"[\\/]\.?venv[^\\/\s]*[\\/]|[\\/]virtualenvs?[\\/]|[\\/]\.virtualenvs[\\/]|pyvenv\.cfg|[\\/]pypoetry[\\/]|[\\/]pipx[\\/]venvs[\\/]|[\\/]env[\\/]Lib[\\/]site-packages"
        ),
    ),
    (
        "system",
        _c(
            r"Programs[\\/]Python[\\/]Python3|Program Files(?: \(x86\))?[\\/]Python3"
            r"|[A-Za-z]:[\\/]Python3\d{1,2}[\\/]"
        ),
    ),
)
_PACKAGES: tuple[_P, ...] = (
    _c(r"site-packages[\\/](?P<name>[A-Za-z0-9][A-Za-z0-9_.]*)-(?P<version>\d[A-Za-z0-9_.+!]*?)\.dist-info"),
    _c(r"\b(?P<name>[A-Za-z0-9][A-Za-z0-9_.]*)-(?P<version>\d[A-Za-z0-9_.+!]*?)-(?:cp|py)\d{1,3}[t]?-"),
    _c(
        r"\b(?P<name>torch|torchvision|torchaudio|numpy|onnxruntime(?:-gpu)?|tensorflow|jax|xformers)"
        r"(?:(?:\.__version__| version)\s*[:=]?\s*|\s*==\s*|\s+)'?"
        r"(?P<version>\d+\.\d+\.\d+(?:\+[a-z0-9.]+)?|\d+\.\d+\+[a-z0-9.]+)\b"
    ),
    _c(
        r"Requirement already satisfied: (?P<name>[A-Za-z0-9][A-Za-z0-9_.-]*)"
        r"(?:==(?P<version>\d[\w.+!]*))?"
    ),
)
_INSTALLED_LIST = _c(r"Successfully installed (?P<list>[^\n]+)")
_PACKAGE_DIR = _c(r"site-packages[\\/](?P<name>[A-Za-z_][A-Za-z0-9_]*)[\\/]")


@dataclass
class _Group:
    events: list[ErrorEvent]

    @property
    def first_line(self) -> int:
        return self.events[0].line

    @property
    def last_line(self) -> int:
        return self.events[-1].line


class _Text:
    def __init__(self, text: str) -> None:
        self.text = text
        self.data = text.encode("utf-8", "surrogatepass")
        self.starts = line_starts(self.data)
        self.present = _gate().search(self.data)

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def search(self, pattern: _P) -> Any:
        return pattern.compiled.search(self.data) if pattern.index in self.present else None

    def finditer(self, pattern: _P, limit: int = MAX_EVENTS_PER_PATTERN) -> Iterator[Any]:
        if pattern.index not in self.present:
            return
        for n, m in enumerate(pattern.compiled.finditer(self.data)):
            if n >= limit:
                return
            yield m


def _group(m: Any, name: str) -> str | None:
    try:
        value = m.group(name)
    except (IndexError, KeyError):
        return None
    if value is None:
        return None
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return text.strip().strip("\"'") or None


def _code_of(text: str | None) -> int | None:
    if not text:
        return None
    try:
        value = int(text, 16) if text.lower().startswith("0x") else int(text)
    except ValueError:
        return None
    if value < 0:  # a negative HRESULT/NTSTATUS printed as a signed integer
        value &= 0xFFFFFFFF
    return value


def _dll_from_path(path: str | None) -> str | None:
    if not path:
        return None
    name = base_name(path)
    return name if name.endswith((".dll", ".pyd", ".exe")) else None


def _message_events(t: _Text, messages: Messages) -> Iterator[ErrorEvent]:
    templates = messages.templates
    for index in messages.candidates(t.text, t.data):
        template = templates[index]
        pattern = compile_pattern(template.extract)
        for n, m in enumerate(pattern.finditer(t.data)):
            if n >= MAX_EVENTS_PER_PATTERN:
                break
            path = _group(m, "path")
            dll_text = _group(m, "dll")
            dll = _dll_from_path(dll_text) if dll_text and dll_text != "%1" else None
            if path and dll is None:
                dll = _dll_from_path(path)
            leaf = template.kind in (
                "dll-not-found",
                "dll-missing-old",
                "entry-point-not-found",
                "ordinal-not-found",
            )
            code = _code_of(_group(m, "code"))
            yield ErrorEvent(
                line=t.line_of(m.start()),
                kind=template.kind,
                code=code if code is not None else template.code,
                dll=dll,
                dll_path=path or (dll_text if dll_text and ("\\" in dll_text or "/" in dll_text) else None),
                symbol=_group(m, "symbol"),
                module=_group(m, "module"),
                language=template.lang,
                leaf=leaf and dll is not None,
            )


def _shape_events(t: _Text) -> Iterator[ErrorEvent]:
    for kind, pattern, extra in _SHAPES:
        for m in t.finditer(pattern):
            path = _group(m, "path")
            dll = _dll_from_path(_group(m, "dll")) or _dll_from_path(path)
            code = _code_of(_group(m, "code"))
            if code is None:
                code = extra.get("code")
            yield ErrorEvent(
                line=t.line_of(m.start()),
                kind=kind,
                code=code,
                dll=dll,
                dll_path=path if path and ("\\" in path or "/" in path) else None,
                symbol=_group(m, "symbol"),
                module=_group(m, "module"),
                leaf=bool(extra.get("leaf")) and dll is not None,
            )


def _prose_events(t: _Text) -> Iterator[ErrorEvent]:
    """DLLs the user says are missing, in their own words (no code: see :func:`extract_facts`)."""
    for pattern in _PROSE_MISSING:
        for m in t.finditer(pattern):
            after = (_group(m, "next") or "").lower()
            dll = _dll_from_path(_group(m, "dll"))
            if dll is None or after in _NOT_A_FILE:
                continue
            yield ErrorEvent(line=t.line_of(m.start()), kind="prose-missing", dll=dll, leaf=True)


def _groups(events: Iterable[ErrorEvent]) -> list[_Group]:
    """Events on the same or adjacent lines describe one error."""
    groups: list[_Group] = []
    for event in sorted(events, key=lambda e: (e.line, e.kind)):
        if groups and event.line - groups[-1].last_line <= 1:
            groups[-1].events.append(event)
        else:
            groups.append(_Group([event]))
    return groups


def _root_most(groups: list[_Group]) -> _Group | None:
    """The group that says most about the cause: one naming the missing DLL itself, then one with a code,
    then the first (in a chained traceback the first exception printed is the original one)."""
    if not groups:
        return None

    def key(g: _Group) -> tuple[int, int, int]:
        leaf = any(e.leaf for e in g.events)
        code = any(e.code is not None and e.kind not in WEAK_KINDS for e in g.events)
        strong = any(e.kind not in WEAK_KINDS for e in g.events)
        return (-(leaf + code + strong), -int(code), g.first_line)

    return min(groups, key=key)


def _first(values: Iterable[Any]) -> Any:
    return next((v for v in values if v is not None), None)


def _script_language(text: str) -> str | None:
    han = kana = hangul = cyrillic = 0
    for ch in text[:200_000]:
        o = ord(ch)
        if o < 0x400:
            continue
        if 0x4E00 <= o <= 0x9FFF:
            han += 1
        elif 0x3040 <= o <= 0x30FF:
            kana += 1
        elif 0xAC00 <= o <= 0xD7AF:
            hangul += 1
        elif 0x400 <= o <= 0x4FF:
            cyrillic += 1
    if kana >= 2:
        return "ja"
    if hangul >= 2:
        return "ko"
    if han >= 2:
        traditional = sum(text.count(c) for c in "們錯誤組數據檔無法啟動載為請選項將這")
        simplified = sum(text.count(c) for c in "们错误组数据档无法启动载为请选项将这")
        return "zh-TW" if traditional > simplified else "zh-CN"
    if cyrillic >= 5:
        return "ru"
    return None


def _python_version(t: _Text) -> str | None:
    best: tuple[int, int, str] | None = None
    for priority, pattern in _PY_VERSION:
        m = t.search(pattern)
        if not m:
            continue
        v = _group(m, "v") or f"{_group(m, 'maj')}.{_group(m, 'min')}"
        candidate = (priority, -m.start(), v)
        if best is None or candidate > best:
            best = candidate
    return best[2] if best else None


def _env_type(t: _Text) -> str | None:
    for env, pattern in _ENV:
        if t.search(pattern):
            return env
    return None


def _norm_pkg(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def _packages(t: _Text) -> tuple[tuple[str, str], ...]:
    found: dict[str, str] = {}

    def add(name: str | None, version: str | None) -> None:
        if not name:
            return
        key = _norm_pkg(name)
        if version or key not in found:
            found[key] = version or found.get(key, "")

    for m in t.finditer(_PACKAGE_DIR, limit=500):
        add(_group(m, "name"), None)
    for pattern in _PACKAGES:
        for m in t.finditer(pattern, limit=200):
            add(_group(m, "name"), _group(m, "version"))
    for m in t.finditer(_INSTALLED_LIST, limit=20):
        for item in (_group(m, "list") or "").split():
            name, _, version = item.rpartition("-")
            if name and version[:1].isdigit():
                add(name, version)
    return tuple(sorted(found.items()))


def extract_facts(raw: str, *, messages: Messages, families: Families) -> ErrorFacts:
    """Read the facts of an error text (any size; linear time)."""
    t = _Text(normalize_text(raw))
    events = list(_message_events(t, messages)) + list(_shape_events(t)) + list(_prose_events(t))
    groups = _groups(events)
    root = _root_most(groups)
    ordered = ([root] if root else []) + [g for g in groups if g is not root]

    # DLLs: the root group's (the missing one first), the other groups', then any other mention.
    dlls: list[str] = []
    for g in ordered:
        for e in sorted(g.events, key=lambda e: not e.leaf):
            if e.dll and e.dll not in dlls:
                dlls.append(e.dll)
        for line in range(g.first_line, g.last_line + 2):
            start = t.starts[line - 1] if line - 1 < len(t.starts) else len(t.data)
            end = t.starts[line] if line < len(t.starts) else len(t.data)
            for m in _DLL_MENTION.compiled.finditer(t.data[start:end]):
                name = base_name(_group(m, "dll") or "")
                if name not in dlls:
                    dlls.append(name)
    named = len(dlls)
    for m in t.finditer(_DLL_MENTION, limit=MAX_DLLS * 5):
        name = base_name(_group(m, "dll") or "")
        if name and name not in dlls and len(dlls) < MAX_DLLS:
            dlls.append(name)

    headline = root.events if root else []
    code = _first(e.code for e in headline)
    if code is None and any(e.kind == "prose-missing" for e in headline):
        # Only the user's "X.dll is missing" says what failed: a file not found, ERROR_MOD_NOT_FOUND.
        code = 126
    codes: list[int] = [code] if code is not None else []
    for e in events:
        if e.code is not None and e.code not in codes:
            codes.append(e.code)
    dll = _first(e.dll for e in sorted(headline, key=lambda e: not e.leaf))
    dll_path = _first(e.dll_path for e in headline if e.dll_path and _dll_from_path(e.dll_path) == dll)
    if dll and not dll_path:
        for m in t.finditer(_WIN_PATH_DLL, limit=500):
            path = _group(m, "path")
            if path and _dll_from_path(path) == dll:
                dll_path = path
                break
    language = (
        _first(e.language for e in headline)
        or _first(e.language for e in events)
        or _script_language(t.text)
        or "en"
    )

    fams: list[tuple[str, str]] = []
    versions: list[tuple[str, str, str]] = []
    for name in dlls:
        for hit in families.classify(name):
            fams.append((name, hit.family))
            if hit.version and hit.component:
                versions.append((name, hit.component, hit.version))

    return ErrorFacts(
        error_code=code,
        error_name=(messages.code_name(code) or CODE_NAMES.get(code)) if code is not None else None,
        dll=dll,
        dll_path=dll_path,
        symbol=_first(e.symbol for e in headline) or _first(e.symbol for e in events),
        module=_first(e.module for e in headline if e.kind != "module-not-found")
        or _first(e.module for e in events if e.kind != "module-not-found")
        or _first(e.module for e in events),
        language=language,
        python_version=_python_version(t),
        env_type=_env_type(t),
        packages=_packages(t),
        dlls=tuple(dlls),
        named=named,
        families=tuple(fams),
        versions=tuple(versions),
        codes=tuple(codes),
        events=tuple(e for g in ordered for e in g.events),
        text=t.text,
        data=t.data,
    )
