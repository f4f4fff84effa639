"""Localized Windows error messages (rules/data/messages.yaml) turned into patterns.

Each message template becomes an RE2 pattern with named groups (``dll``, ``module``, ``path``, ``symbol``,
``code``) and a *fragment*, a literal word every match contains. Fragments screen the text (substring
tests on a short paste, one literal set on a long one), and only the candidates' patterns run.
Placeholders are written ``{dll}``, ``{module}``, ``{path}``, ``{symbol}``, ``{ordinal}``, ``{code}`` or
Windows' own ``%1`` (which Python prints literally).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from dlldoctor.kb.patterns import PatternSet

LANGUAGES = (
    "en",
    "zh-CN",
    "zh-TW",
    "ja",
    "ko",
    "ru",
    "fr",
    "de",
    "es",
    "it",
    "pt",
    "pl",
    "tr",
    "nl",
    "fi",
    "cs",
)
POPUP_KINDS = (
    "dll-not-found",
    "dll-missing-old",
    "entry-point-not-found",
    "ordinal-not-found",
    "bad-image",
    "app-start-failed",
)

_PLACEHOLDER = re.compile(r"\{(\w+)\}|%(\d)")
_SPACE = re.compile(r"\s+")
_ARTICLE = re.compile(r"The ([A-Za-z])(?=[a-z])")
# What each placeholder may stand for in a pasted message.
_CAPTURE = {
    "dll": r'"?(?P<dll>[^"\r\n<>|*?]*?\.(?:dll|pyd|exe|sys|drv|ocx|so|node))"?',
    "module": r"(?P<module>[A-Za-z_][\w.]*)",
    "path": r"(?P<path>[^\"\r\n]+?)",
    "symbol": r"(?P<symbol>[^\s\"]+?)",
    "ordinal": r"(?P<symbol>\d{1,6})",
    "code": r"(?P<code>0[xX][0-9a-fA-F]{1,8}|-?\d+)",
}
_GENERIC_CAPTURE = r"[^\r\n]*?"
SMALL_TEXT = 256 << 10


@dataclass(frozen=True)
class Template:
    """One message in one language: what it means (``code``, ``kind``) and its patterns."""

    code: int | None
    name: str  # ERROR_MOD_NOT_FOUND, a pop-up kind, or "python"
    kind: str  # "code", a POPUP_KINDS value, or "python"
    lang: str | None  # None for Python's own (English-only) prefixes
    text: str
    extract: str  # the pattern, with named groups
    fragment: str = ""  # a lower-case word every match contains ("" when none is long enough)


@dataclass(frozen=True)
class Messages:
    codes: tuple[Template, ...]
    popups: tuple[Template, ...]
    prefixes: tuple[Template, ...] = ()
    names: tuple[tuple[int, str], ...] = ()  # (code, ERROR_NAME)

    @property
    def templates(self) -> tuple[Template, ...]:
        return self.codes + self.popups + self.prefixes

    @cached_property
    def fragment_set(self) -> PatternSet:
        """The distinct fragments, as literals: a set whose DFA stays small however dense the text."""
        return PatternSet([re.escape(f) for f in self.fragments])

    @cached_property
    def fragments(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(t.fragment for t in self.templates if t.fragment))

    def candidates(self, text: str, data: bytes) -> list[int]:
        """Indexes of the templates that may occur in ``text`` (normalized; ``data`` is it in UTF-8).

        Every match of a template contains its fragment (a literal word of it). A short paste is screened
        with one substring test per template, which costs less than compiling a set; a long one with one
        pass of the set of fragments. Only the candidates' own patterns then run.
        """
        if len(data) > SMALL_TEXT:
            present = {self.fragments[i] for i in self.fragment_set.search(data)}
            return [i for i, t in enumerate(self.templates) if not t.fragment or t.fragment in present]
        lower = text.lower()
        return [i for i, t in enumerate(self.templates) if t.fragment in lower]

    def code_name(self, code: int) -> str | None:
        return dict(self.names).get(code)


def normalize(text: str) -> str:
    """The form both templates and pasted text are compared in (full-width punctuation made ASCII)."""
    return unicodedata.normalize("NFKC", text)


def template_pattern(text: str) -> str:
    """The pattern of a message template, with named groups for its placeholders."""
    text = normalize(text).strip()
    # An English message's leading article is often dropped or lower-cased when it is retold or quoted in a title
    # ("Specified module could not be found cublas64_11.dll"): "The" is optional, the next word's initial either case.
    lead = ""
    article = _ARTICLE.match(text)
    if article:
        initial = article.group(1)
        lead = rf"(?:[Tt]he\s*)?[{initial.upper()}{initial.lower()}]"
        text = text[article.end() :]
    trailing = ""
    while text and text[-1] in ".。!！":
        text = text[:-1]
        trailing = r"[.。!]?"
    extract_parts: list[str] = []
    used: set[str] = set()
    pos = 0
    for m in _PLACEHOLDER.finditer(text):
        literal = _literal(text[pos : m.start()])
        extract_parts.append(literal)
        name = m.group(1) or ""
        if m.group(2):  # %1: Python prints it literally; a pop-up has the file name in its place
            name = "dll"
            capture = _CAPTURE["dll"] if name not in used else _GENERIC_CAPTURE
            extract_parts.append(f"(?:%{m.group(2)}|{capture})")
        elif name in _CAPTURE and name not in used:
            extract_parts.append(_CAPTURE[name])
        else:
            extract_parts.append(_GENERIC_CAPTURE)
        used.add(name)
        pos = m.end()
    literal = _literal(text[pos:])
    extract_parts.append(literal + trailing)
    return lead + "".join(extract_parts)


def template_fragment(text: str) -> str:
    """The longest word of a template outside its placeholders, lower-case (``""`` when shorter than 4)."""
    words = _SPACE.split(_PLACEHOLDER.sub(" ", normalize(text)))
    best = max((w.strip(".。!！,:;()\"'") for w in words), key=len, default="")
    return best.lower() if len(best) >= 4 else ""


def _literal(text: str) -> str:
    words = _SPACE.split(text)
    return r"\s*".join(re.escape(w) for w in words)


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(v) for v in value]
    return []


def messages_from_data(data: Any) -> Messages:
    """Build :class:`Messages` from parsed messages.yaml (already checked by :func:`check_messages`)."""
    codes: list[Template] = []
    popups: list[Template] = []
    prefixes: list[Template] = []
    names: list[tuple[int, str]] = []
    for entry in data.get("codes", []) or []:
        code = _code(entry["code"])
        names.append((code, str(entry.get("name", ""))))
        for lang, value in (entry.get("texts") or {}).items():
            for text in _texts(value):
                extract = template_pattern(text)
                codes.append(
                    Template(
                        code,
                        str(entry.get("name", "")),
                        "code",
                        str(lang),
                        text,
                        extract,
                        template_fragment(text),
                    )
                )
    for entry in data.get("popups", []) or []:
        popup_code = _code(entry["code"]) if entry.get("code") is not None else None
        for lang, value in (entry.get("texts") or {}).items():
            for text in _texts(value):
                extract = template_pattern(text)
                popups.append(
                    Template(
                        popup_code,
                        str(entry["kind"]),
                        str(entry["kind"]),
                        str(lang),
                        text,
                        extract,
                        template_fragment(text),
                    )
                )
    for text in data.get("python_prefixes", []) or []:
        extract = template_pattern(str(text))
        prefixes.append(Template(None, "python", "python", None, str(text), extract, template_fragment(text)))
    return Messages(tuple(codes), tuple(popups), tuple(prefixes), tuple(names))


def _code(value: Any) -> int:
    return int(value, 16) if isinstance(value, str) else int(value)


def check_messages(data: Any) -> list[tuple[list[str | int], str]]:
    """Problems in messages.yaml as (path in the document, message)."""
    from dlldoctor.kb.patterns import compile_pattern

    problems: list[tuple[list[str | int], str]] = []
    if not isinstance(data, dict):
        return [([], "expected a mapping with `codes`, `popups` and `python_prefixes`")]

    def check_text(where: list[str | int], text: str) -> None:
        try:
            compile_pattern(template_pattern(text))
        except Exception as e:  # re2.error
            problems.append((where, f"cannot turn this message into a pattern: {e}"))

    for i, entry in enumerate(data.get("codes", []) or []):
        where: list[str | int] = ["codes", i]
        if not isinstance(entry, dict) or "code" not in entry:
            problems.append((where, "each entry needs a `code`"))
            continue
        if not _valid_code(entry["code"]):
            problems.append(([*where, "code"], f"not an error code: {entry['code']!r}"))
        for lang, value in (entry.get("texts") or {}).items():
            if lang not in LANGUAGES:
                problems.append(
                    ([*where, "texts", lang], f"unknown language {lang!r} (one of {', '.join(LANGUAGES)})")
                )
            for text in _texts(value):
                check_text([*where, "texts", lang], text)
    for i, entry in enumerate(data.get("popups", []) or []):
        where = ["popups", i]
        if not isinstance(entry, dict) or entry.get("kind") not in POPUP_KINDS:
            problems.append((where, f"each pop-up needs a `kind` (one of {', '.join(POPUP_KINDS)})"))
            continue
        if entry.get("code") is not None and not _valid_code(entry["code"]):
            problems.append(([*where, "code"], f"not an error code: {entry['code']!r}"))
        for lang, value in (entry.get("texts") or {}).items():
            if lang not in LANGUAGES:
                problems.append(([*where, "texts", lang], f"unknown language {lang!r}"))
            for text in _texts(value):
                check_text([*where, "texts", lang], text)
    for i, text in enumerate(data.get("python_prefixes", []) or []):
        if not isinstance(text, str):
            problems.append((["python_prefixes", i], "expected a string"))
        else:
            check_text(["python_prefixes", i], text)
    return problems


def _valid_code(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value >= 0
    return isinstance(value, str) and re.fullmatch(r"0[xX][0-9a-fA-F]{1,8}", value) is not None
