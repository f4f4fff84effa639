"""Pasted error text → :class:`ErrorFacts`: the code, the DLL, the symbol, the module, the environment.

The text is normalized (:mod:`dlldoctor.text.normalize`), then read with RE2 patterns in linear time: the
localized Windows messages of rules/data/messages.yaml (so a message maps to its code with no number
shown) and the statement shapes of :mod:`dlldoctor.text.shapes`. Several errors in one paste are grouped by line; the root-most group (one that names the missing
DLL itself, else the first) gives the headline facts.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from dlldoctor.kb.families import Families, base_name
from dlldoctor.kb.messages import Messages
from dlldoctor.kb.model import format_code
from dlldoctor.kb.patterns import compile_pattern
from dlldoctor.kb.releases import Release, Releases
from dlldoctor.text.bindings import BINDINGS
from dlldoctor.text.derived import derive
from dlldoctor.text.encoding import script_language
from dlldoctor.text.locations import locate, named_dll, named_symbol
from dlldoctor.text.mentions import IMPORTED, INSTALLED_LIST, PACKAGE_DIR, PACKAGES, STDLIB, listed_releases
from dlldoctor.text.native import NATIVE
from dlldoctor.text.normalize import normalize_text
from dlldoctor.text.prose import NOT_A_FILE, PROSE_MISSING, PROSE_NOT_A_FAILURE
from dlldoctor.text.retold import RETOLD, quieted_lines
from dlldoctor.text.shapes import (
    DLL_MENTION,
    ENV_PATTERNS,
    MAX_EVENTS_PER_PATTERN,
    PY_VERSION,
    SHAPES,
    WIN_PATH_DLL,
    ScannedText,
)
from dlldoctor.text.topic import topic_events
from dlldoctor.vocabulary import DerivedFact

# where a topic's match holds the DLL it names
_TOPIC_GROUPS = ("dll", "dll2", "dll3", "dll4", "dll5", "dll6", "dll7")
# Shapes that say little on their own ("error 7" in a log line, a missing Python module, a user's "X.dll is
# missing"): they never make a group the headline over a real loader error.
WEAK_KINDS = frozenset({"code-mention", "module-not-found", "prose-missing", "retold", "located", "topic"})
# Kinds of event any system's programs produce; every other kind is a statement only Windows makes.
ANY_SYSTEM_KINDS = WEAK_KINDS | {"load-library"}
MAX_DLLS = 200
# Characters of a paste that are read. An error is near the start or the end of a log; past this,
# the rest is left out and the facts say so (``cut``), so the time spent stays bounded.
MAX_TEXT = 8 << 20

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
    location: str | None = None  # where the named DLL sits (dlldoctor.text.locations), from its path
    packages: tuple[tuple[str, str], ...] = ()  # (normalized name, version or "")
    dlls: tuple[str, ...] = ()  # DLLs named in error statements first, then others in the text
    named: int = 0  # how many of `dlls` come from error statements (the rest are mentioned elsewhere)
    families: tuple[tuple[str, str], ...] = ()  # (dll, family id) for every DLL in `dlls`
    versions: tuple[tuple[str, str, str], ...] = ()  # (dll, component, version) read from DLL names
    codes: tuple[int, ...] = ()  # every code seen, the headline one first
    derived: tuple[str, ...] = ()  # facts reasoned from two others (dlldoctor.text.derived)
    # (entry, version named) for each release of rules/data/releases.yaml the text names with its symptom
    releases: tuple[tuple[Release, str], ...] = ()
    events: tuple[ErrorEvent, ...] = ()
    text: str = field(default="", repr=False, compare=False)  # the normalized text
    data: bytes = field(default=b"", repr=False, compare=False)  # the same, UTF-8
    cut: tuple[int, int] | None = None  # (characters examined, characters given) when the paste was cut

    @property
    def found_anything(self) -> bool:
        return bool(self.events or self.error_code is not None)

    @property
    def told_in_words(self) -> bool:
        """Whether the text names a DLL but states no failure (the derived fact ``dll-named``)."""
        return "dll-named" in self.derived

    @property
    def states_failure(self) -> bool:
        """Whether the text states a failure at all: a loader code, or an event other than where a DLL lies."""
        return self.error_code is not None or any(e.kind != "located" for e in self.events)

    @property
    def error_dlls(self) -> tuple[str, ...]:
        """The DLLs the error statements name, or every DLL mentioned when they name none."""
        return self.dlls[: self.named] if self.named else self.dlls

    def package_version(self, name: str) -> str | None:
        return dict(self.packages).get(name)

    def as_dict(self) -> dict[str, Any]:
        return (
            {
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
                "location": self.location,
                "packages": dict(self.packages),
                "dlls": list(self.dlls),
                "families": dict(self.families),
                "versions": [{"dll": d, "component": c, "version": v} for d, c, v in self.versions],
                "codes": list(self.codes),
            }
            | ({"derived": list(self.derived)} if self.derived else {})
            | (
                {
                    "releases": [
                        {
                            "package": r.package,
                            "version": v,
                            "versions": r.versions,
                            "platform": r.platform,
                            "symptom": r.symptom,
                            "instead": r.instead,
                            "fixed": r.fixed,
                            "source": r.source,
                        }
                        for r, v in self.releases
                    ]
                }
                if self.releases
                else {}
            )
            | ({"cut": {"examined": self.cut[0], "given": self.cut[1]}} if self.cut else {})
        )


@dataclass
class _Group:
    events: list[ErrorEvent]

    @property
    def first_line(self) -> int:
        return self.events[0].line

    @property
    def last_line(self) -> int:
        return self.events[-1].line


def _group(m: Any, name: str) -> str | None:
    try:
        value = m.group(name)
    except (IndexError, KeyError):
        return None
    if value is None:
        return None
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return text.strip().strip("\"'*`") or None


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


def _message_events(t: ScannedText, messages: Messages) -> Iterator[ErrorEvent]:
    templates = messages.templates
    for index in messages.candidates(t.text, t.data):
        template = templates[index]
        pattern = compile_pattern(template.extract)
        for n, m in enumerate(pattern.finditer(t.data)):
            if n >= MAX_EVENTS_PER_PATTERN:
                break
            path = _group(m, "path")
            dll_text = _group(m, "dll")
            dll = named_dll(dll_text) if dll_text and dll_text != "%1" else None
            if path and dll is None:
                dll = named_dll(path)
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
                symbol=named_symbol(_group(m, "symbol")),
                module=_group(m, "module"),
                language=template.lang,
                leaf=leaf and dll is not None,
            )


def _shape_events(t: ScannedText) -> Iterator[ErrorEvent]:
    for kind, pattern, extra in (*SHAPES, *NATIVE, *BINDINGS, *RETOLD):
        for m in t.finditer(pattern):
            path = _group(m, "path")
            dll = extra.get("dll") or named_dll(_group(m, "dll")) or named_dll(path)
            bare = _group(m, "bare")  # a DLL named without its extension, as .NET's DllImport writes it
            if dll is None and bare:
                dll = named_dll(bare if bare.lower().endswith(".dll") else bare + ".dll")
            code = _code_of(_group(m, "code"))
            if code is None:
                code = extra.get("code")
            if extra.get("folder") and path and dll:  # the path is the folder the DLL lies in
                path = path.rstrip("\\/") + "\\" + dll
            line = t.line_of(m.start())
            yield ErrorEvent(
                line=line,
                kind=kind,
                code=code,
                dll=dll,
                dll_path=path if path and ("\\" in path or "/" in path) else None,
                symbol=named_symbol(_group(m, "symbol")),
                module=_module_name(_group(m, "module")),
                leaf=bool(extra.get("leaf")) and dll is not None,
            )
            if kind == "located" and compile_pattern(_STILL_FAILS).search(
                t.line_data(line) + t.line_data(line + 1)
            ):
                # "msvcp140.dll is in C:\\Windows\\System32 but the game still says it is not found"
                yield ErrorEvent(line=line, kind="retold", dll=dll)


# Words on the line of a DLL said to lie somewhere that say it fails all the same.
_STILL_FAILS = r"not found|can'?t (?:find|load)|cannot (?:find|load)|is missing|won'?t load|fails? to load"


def _module_name(name: str | None) -> str | None:
    """A module name without markdown's escapes and emphasis (``\\_C`` → ``_C``, ``cv2*`` → ``cv2``)."""
    if name is None:
        return None
    return name.replace("\\", "").rstrip("*`.") or None


def _prose_events(t: ScannedText) -> Iterator[ErrorEvent]:
    """DLLs the user says are missing, in their own words (no code: see :func:`extract_facts`)."""
    not_a_failure = compile_pattern(PROSE_NOT_A_FAILURE)
    checked: dict[int, bool] = {}  # line -> whether it is no failure (each line searched once)
    for pattern in PROSE_MISSING:
        for m in t.finditer(pattern):
            after = (_group(m, "next") or "").lower()
            dll = named_dll(_group(m, "dll"))
            if dll is None or after in NOT_A_FILE:
                continue
            line = t.line_of(m.start())
            if line not in checked:
                checked[line] = not_a_failure.search(t.line_data(line).rstrip(b"\r\n")) is not None
            if checked[line]:
                continue
            yield ErrorEvent(line=line, kind="prose-missing", dll=dll, leaf=True)


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


def _python_version(t: ScannedText) -> str | None:
    best: tuple[int, int, str] | None = None
    for priority, pattern in PY_VERSION:
        m = t.search(pattern)
        if not m:
            continue
        v = _group(m, "v") or f"{_group(m, 'maj')}.{_group(m, 'min')}"
        candidate = (priority, -m.start(), v)
        if best is None or candidate > best:
            best = candidate
    return best[2] if best else None


def _env_type(t: ScannedText) -> str | None:
    for env, pattern in ENV_PATTERNS:
        if t.search(pattern):
            return env
    return None


def _norm_pkg(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def _packages(t: ScannedText) -> tuple[tuple[str, str], ...]:
    found: dict[str, str] = {}

    def add(name: str | None, version: str | None) -> None:
        if not name:
            return
        key = _norm_pkg(name)
        if version or key not in found:
            found[key] = version or found.get(key, "")

    for m in t.finditer(PACKAGE_DIR, limit=500):
        add(_group(m, "name"), None)
    for m in (m for p in IMPORTED for m in t.finditer(p, limit=100)):
        if _group(m, "name") not in STDLIB:  # not Python's own library
            add(_group(m, "name"), None)
    for pattern in PACKAGES:
        for m in t.finditer(pattern, limit=200):
            add(_group(m, "name"), _group(m, "version"))
    for m in t.finditer(INSTALLED_LIST, limit=20):
        for item in (_group(m, "list") or "").split():
            name, _, version = item.rpartition("-")
            if name and version[:1].isdigit():
                add(name, version)
    return tuple(sorted(found.items()))


def extract_facts(
    raw: str, *, messages: Messages, families: Families, releases: Releases | None = None
) -> ErrorFacts:
    """Read the facts of an error text (linear time; the first :data:`MAX_TEXT` characters). ``releases``:
    the broken releases to look the text's package versions up in (none when not given)."""
    cut = (MAX_TEXT, len(raw)) if len(raw) > MAX_TEXT else None
    t = ScannedText(normalize_text(raw[:MAX_TEXT]))
    events = list(_message_events(t, messages)) + list(_shape_events(t)) + list(_prose_events(t))
    # A retold failure on a line the loader's own words are on adds nothing (cffi's "cannot load library"); one a
    # changelog or an answer quotes is none, nor a code there (see quieted_lines).
    quiet = quieted_lines(t, {e.line for e in events if e.kind not in WEAK_KINDS})
    events = [e for e in events if e.line not in quiet.get(e.kind, ())]
    if all(e.kind == "located" for e in events):
        # No statement at all: perhaps a failed load told in general words (dlldoctor.text.topic).
        events += [
            ErrorEvent(
                line=line,
                kind="topic",
                dll=named_dll(next((d for g in _TOPIC_GROUPS if (d := _group(m, g))), None)),
            )
            for line, m in topic_events(t)
        ]
    groups = _groups(events)
    root = _root_most(groups)
    ordered = ([root] if root else []) + [g for g in groups if g is not root]

    # DLLs: the root group's (the missing one first), the other groups', then any other mention.
    # A dict keeps the order and de-duplicates in constant time: one line may name a million DLLs.
    found: dict[str, None] = {}
    for g in ordered:
        for e in sorted(g.events, key=lambda e: not e.leaf):
            if e.dll:
                found.setdefault(e.dll)
        for line in range(g.first_line, g.last_line + 2):
            for m in DLL_MENTION.compiled.finditer(t.line_data(line)):
                if len(found) >= MAX_DLLS:
                    break
                found.setdefault(base_name(_group(m, "dll") or ""))
    named = len(found)
    for m in t.finditer(DLL_MENTION, limit=MAX_DLLS * 5):
        name = base_name(_group(m, "dll") or "")
        if name and len(found) < MAX_DLLS:
            found.setdefault(name)
    dlls = list(found)

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
    dll_path = _first(e.dll_path for e in headline if e.dll_path and named_dll(e.dll_path) == dll)
    if dll and not dll_path:
        for m in t.finditer(WIN_PATH_DLL, limit=500):
            path = _group(m, "path")
            if path and named_dll(path) == dll:
                dll_path = path
                break
    language = (
        _first(e.language for e in headline)
        or _first(e.language for e in events)
        or script_language(t.text)
        or "en"
    )

    fams: list[tuple[str, str]] = []
    versions: list[tuple[str, str, str]] = []
    for name in dlls:
        for hit in families.classify(name):
            fams.append((name, hit.family))
            if hit.version and hit.component:
                versions.append((name, hit.component, hit.version))

    listed = listed_releases(t, releases, tuple(codes)) if releases is not None else ()
    windows_stated = any(e.kind not in ANY_SYSTEM_KINDS for e in events)
    failed = code is not None or any(e.kind != "located" for e in events)  # as ErrorFacts.states_failure
    derived: tuple[DerivedFact, ...] = derive(
        t, tuple(dlls[:named] if named else dlls), tuple(versions), failed, windows_stated
    )
    if listed:
        derived = (*derived, "listed-broken-release")
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
        location=locate(dll_path),
        packages=_packages(t),
        dlls=tuple(dlls),
        named=named,
        families=tuple(fams),
        versions=tuple(versions),
        codes=tuple(codes),
        derived=derived,
        releases=listed,
        events=tuple(e for g in ordered for e in g.events),
        text=t.text,
        data=t.data,
        cut=cut,
    )
