"""The rule model: frozen values built from one validated rule file (rules/<category>/<id>.yaml)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dlldoctor.vocabulary import MATCHER_KINDS, MatcherKind, Prevalence, ProbeKind, RuleStatus, Severity

# What a matcher adds to the score when it matches and the rule does not say `weight:`. The error code and a
# named DLL family outweigh generic words, so two text patterns never beat a code and a family.
DEFAULT_WEIGHTS: dict[MatcherKind, float] = {
    "code": 5.0,
    "family": 4.0,
    "dll": 3.0,
    "symbol": 3.0,
    "module": 1.0,
    "text": 2.0,
    "python": 1.0,
    "package": 1.0,
    "env": 1.0,
    "location": 3.0,
    "derived": 4.0,
}

PREVALENCE_BONUS: dict[Prevalence, float] = {"common": 0.6, "occasional": 0.3, "rare": 0.0}

SHELLS = ("cmd", "powershell", "bash", "conda", "pip")


@dataclass(frozen=True)
class Text:
    """A text in English and Chinese."""

    en: str
    zh: str

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True)
class Matcher:
    kind: MatcherKind
    weight: float
    codes: tuple[int, ...] = ()
    names: tuple[str, ...] = ()  # family ids, environment types, or the package name
    pattern: str = ""  # dll, symbol, module, text
    spec: str = ""  # python and package version ranges
    langs: tuple[str, ...] = ()  # text: display languages it is limited to

    def describe(self) -> str:
        if self.kind == "code":
            return "code " + "/".join(format_code(c) for c in self.codes)
        if self.kind in ("family", "env", "location", "derived"):
            return f"{self.kind} " + "/".join(self.names)
        if self.kind == "package":
            return f"package {self.names[0]}{self.spec}"
        if self.kind == "python":
            return f"python {self.spec}"
        return f"{self.kind} /{self.pattern}/"


@dataclass(frozen=True)
class MatchSpec:
    all: tuple[Matcher, ...]
    any: tuple[Matcher, ...]
    none: tuple[Matcher, ...]
    min_any: float | None

    def matchers(self) -> tuple[Matcher, ...]:
        return self.all + self.any + self.none


@dataclass(frozen=True)
class Probe:
    kind: ProbeKind
    args: tuple[tuple[str, Any], ...]  # sorted (name, value) pairs; values are str, bool or tuples of str
    expect: bool | str | None

    def arg(self, name: str) -> Any:
        return dict(self.args).get(name)


@dataclass(frozen=True)
class Fix:
    text: Text
    commands: tuple[tuple[str, str], ...]  # (shell, command) in SHELLS order
    url: str | None = None


@dataclass(frozen=True)
class Examples:
    match: tuple[str, ...]
    no_match: tuple[str, ...]
    todo_match: tuple[str, ...]


@dataclass(frozen=True)
class Rule:
    id: str
    category: str
    status: RuleStatus
    severity: Severity
    prevalence: Prevalence
    title: Text
    summary: Text
    keywords: tuple[str, ...]
    match: MatchSpec
    probes: tuple[Probe, ...]
    fixes: tuple[Fix, ...]
    references: tuple[str, ...]
    examples: Examples
    path: str  # relative to the rule set root, with forward slashes
    replaced_by: str | None = None
    generic: bool = False  # the message it matches does not tell the cause: the differential ranks it

    @property
    def active(self) -> bool:
        return self.status != "deprecated"


def parse_code(value: int | str) -> int:
    return int(value, 16) if isinstance(value, str) else int(value)


def format_code(code: int) -> str:
    return f"0x{code:08X}" if code > 0xFFFF else str(code)


def _tuple(value: Any) -> tuple[Any, ...]:
    if value is None:
        return ()
    return tuple(value) if isinstance(value, list) else (value,)


# YAML folds a long line into several with spaces; Chinese puts no space between words.
_CJK = "\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef"


@lru_cache(maxsize=1)
def _cjk_gap() -> re.Pattern[str]:
    return re.compile(f"(?<=[{_CJK}])\\s+(?=[{_CJK}])")


def _zh(text: str) -> str:
    return _cjk_gap().sub("", text.strip())


def _text(data: Any) -> Text:
    return Text(en=str(data["en"]).strip(), zh=_zh(str(data["zh"])))


def matcher_kind(data: Any) -> MatcherKind | None:
    """The kind of a matcher mapping: the one key of MATCHER_KINDS it has."""
    if not isinstance(data, dict):
        return None
    kinds = [k for k in MATCHER_KINDS if k in data]
    return kinds[0] if len(kinds) == 1 else None


def _matcher(data: dict[str, Any]) -> Matcher:
    kind = matcher_kind(data)
    assert kind is not None
    weight = float(data.get("weight", DEFAULT_WEIGHTS[kind]))
    value = data[kind]
    if kind == "code":
        return Matcher(kind, weight, codes=tuple(parse_code(v) for v in _tuple(value)))
    if kind in ("family", "env", "location", "derived"):
        return Matcher(kind, weight, names=tuple(str(v) for v in _tuple(value)))
    if kind == "package":
        return Matcher(
            kind, weight, names=(str(value).lower().replace("_", "-"),), spec=str(data.get("version", ""))
        )
    if kind == "python":
        return Matcher(kind, weight, spec=str(value))
    langs = tuple(str(v) for v in _tuple(data.get("lang")))
    return Matcher(kind, weight, pattern=str(value), langs=langs)


def _probe(data: dict[str, Any]) -> Probe:
    args = []
    for key, value in data.items():
        if key in ("probe", "expect"):
            continue
        args.append((key, tuple(value) if isinstance(value, list) else value))
    kind: ProbeKind = data["probe"]  # the schema admits only the probe kinds of dlldoctor.vocabulary
    return Probe(kind=kind, args=tuple(sorted(args)), expect=data.get("expect"))


def _fix(data: dict[str, Any]) -> Fix:
    commands = data.get("commands") or {}
    return Fix(
        text=_text(data),
        commands=tuple((shell, str(commands[shell]).rstrip()) for shell in SHELLS if shell in commands),
        url=data.get("url"),
    )


def rule_from_data(data: dict[str, Any], path: str) -> Rule:
    """Build a :class:`Rule` from a mapping that passed the schema."""
    match = data["match"]
    examples = data["examples"]
    return Rule(
        id=data["id"],
        category=data["category"],
        status=data["status"],
        severity=data.get("severity", "error"),
        prevalence=data.get("prevalence", "occasional"),
        title=_text(data["title"]),
        summary=_text(data["summary"]),
        keywords=tuple(str(k) for k in data.get("keywords", [])),
        match=MatchSpec(
            all=tuple(_matcher(m) for m in match.get("all", [])),
            any=tuple(_matcher(m) for m in match.get("any", [])),
            none=tuple(_matcher(m) for m in match.get("none", [])),
            min_any=float(match["min_any"]) if "min_any" in match else None,
        ),
        probes=tuple(_probe(p) for p in data.get("probes", [])),
        fixes=tuple(_fix(f) for f in data["fixes"]),
        references=tuple(data["references"]),
        examples=Examples(
            match=tuple(examples["match"]),
            no_match=tuple(examples["no_match"]),
            todo_match=tuple(examples.get("todo_match", [])),
        ),
        path=path,
        replaced_by=data.get("replaced_by"),
        generic=bool(data.get("generic", False)),
    )
