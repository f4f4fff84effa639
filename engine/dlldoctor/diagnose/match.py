"""Rules × facts: which rules fire on an error text, with the score and the evidence of each matcher.

All text patterns of a rule set are searched together (:class:`PatternFilter`: literal atoms first, then only
the patterns whose atoms occur); only the ones found are searched again, to quote what matched.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from dlldoctor.kb.model import PREVALENCE_BONUS, Matcher, Rule
from dlldoctor.kb.patterns import PatternFilter, compile_pattern, text_pattern
from dlldoctor.kb.versions import in_range
from dlldoctor.text.facts import ErrorFacts

SNIPPET = 120


@dataclass(frozen=True)
class Evidence:
    """One matcher that matched: its kind, what it matched in the facts or the text, and its weight."""

    kind: str
    value: str  # what matched: the code, the DLL, the symbol, a quote of the text …
    weight: float
    detail: str = ""  # for `family`: the family id


@dataclass(frozen=True)
class RuleMatch:
    rule: Rule
    score: float  # sum of the weights of the matchers that matched
    evidence: tuple[Evidence, ...]

    @property
    def rank_score(self) -> float:
        return self.score + PREVALENCE_BONUS.get(self.rule.prevalence, 0.0)


class Evaluator:
    """Evaluates matchers against one text's facts, with the text patterns searched once."""

    def __init__(self, facts: ErrorFacts, found: frozenset[str], family_titles: dict[str, str]) -> None:
        self.facts = facts
        self.found = found
        self.family_titles = family_titles
        self._snippets: dict[str, str] = {}

    def snippet(self, pattern: str) -> str:
        if pattern not in self._snippets:
            m = compile_pattern(text_pattern(pattern)).search(self.facts.data)
            text = m.group(0).decode("utf-8", "replace") if m else ""
            text = " ".join(text.split())
            self._snippets[pattern] = text if len(text) <= SNIPPET else text[: SNIPPET - 1] + "…"
        return self._snippets[pattern]

    def evaluate(self, m: Matcher) -> Evidence | None:
        f = self.facts
        kind = m.kind
        if kind == "code":
            for code in f.codes:
                if code in m.codes:
                    return Evidence(kind, str(code), m.weight)
            return None
        if kind == "family":
            if not f.states_failure:
                return None  # DLLs only named in a build log, a changelog or a question
            for dll, family in f.families:
                if family in m.names and dll in f.error_dlls:
                    return Evidence(kind, dll, m.weight, family)
            return None
        if kind == "dll":
            pattern = compile_pattern(m.pattern)
            for dll in f.error_dlls:
                if pattern.fullmatch(dll):
                    return Evidence(kind, dll, m.weight)
            return None
        if kind == "symbol":
            pattern = compile_pattern(m.pattern)
            for event in f.events:
                if event.symbol and pattern.search(event.symbol):
                    return Evidence(kind, event.symbol, m.weight)
            return None
        if kind == "module":
            pattern = compile_pattern(m.pattern)
            for module in _modules(f):
                if pattern.fullmatch(module):
                    return Evidence(kind, module, m.weight)
            return None
        if kind == "text":
            if m.pattern not in self.found:
                return None
            if m.langs and f.language not in m.langs:
                return None
            return Evidence(kind, self.snippet(m.pattern), m.weight)
        if kind == "python":
            if f.python_version and in_range(f.python_version, m.spec):
                return Evidence(kind, f.python_version, m.weight)
            return None
        if kind == "package":
            version = f.package_version(m.names[0])
            if version is None or (m.spec and not (version and in_range(version, m.spec))):
                return None
            return Evidence(kind, f"{m.names[0]} {version}".strip(), m.weight)
        if kind == "env":
            if f.env_type in m.names:
                return Evidence(kind, f.env_type or "", m.weight)
            return None
        if kind == "location":
            if f.location in m.names:
                return Evidence(kind, f.location or "", m.weight, f.dll_path or "")
            return None
        if kind == "derived":
            for name in m.names:
                if name in f.derived:
                    listed = ", ".join(f"{r.package} {v}" for r, v in f.releases)
                    return Evidence(kind, name, m.weight, listed if name == "listed-broken-release" else "")
            return None
        raise AssertionError(f"unknown matcher kind {kind}")


def _modules(f: ErrorFacts) -> list[str]:
    out = [f.module] if f.module else []
    out += [e.module for e in f.events if e.module and e.module not in out and e.kind != "module-not-found"]
    return out


def match_rule(rule: Rule, ev: Evaluator) -> RuleMatch | None:
    """The rule's match on these facts, or None when it does not fire."""
    spec = rule.match
    evidence: list[Evidence] = []
    for m in spec.none:
        if ev.evaluate(m) is not None:
            return None
    for m in spec.all:
        e = ev.evaluate(m)
        if e is None:
            return None
        evidence.append(e)
    any_score = 0.0
    any_hits = 0
    for m in spec.any:
        e = ev.evaluate(m)
        if e is not None:
            evidence.append(e)
            any_score += e.weight
            any_hits += 1
    if spec.any:
        if spec.min_any is not None:
            if any_score < spec.min_any:
                return None
        elif any_hits == 0:
            return None
    return RuleMatch(rule, sum(e.weight for e in evidence), tuple(evidence))


@dataclass(frozen=True)
class CompiledRules:
    """A rule set ready to run: the active rules and one pattern set of all their text patterns."""

    rules: tuple[Rule, ...]
    family_titles: tuple[tuple[str, str], ...] = ()

    @cached_property
    def _texts(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for rule in self.rules:
            for m in rule.match.matchers():
                if m.kind == "text":
                    seen.setdefault(m.pattern, None)
        return tuple(seen)

    @cached_property
    def _set(self) -> PatternFilter:
        return PatternFilter([text_pattern(p) for p in self._texts])

    def evaluator(self, facts: ErrorFacts) -> Evaluator:
        found = frozenset(self._texts[i] for i in self._set.search(facts.data))
        return Evaluator(facts, found, dict(self.family_titles))

    def run(self, facts: ErrorFacts) -> list[RuleMatch]:
        """Every rule that fires, best first (score, then prevalence, then id)."""
        ev = self.evaluator(facts)
        matches = [m for rule in self.rules if (m := match_rule(rule, ev)) is not None]
        matches.sort(key=lambda m: (-m.rank_score, m.rule.id))
        return matches


_COMPILED: dict[tuple[str, bool], CompiledRules] = {}


def compiled(rule_set: Any, *, include_deprecated: bool = False) -> CompiledRules:
    """Compile a :class:`~dlldoctor.ruleset.RuleSet` (once per content digest)."""
    key = (rule_set.digest, include_deprecated)
    if key not in _COMPILED:
        rules = rule_set.rules if include_deprecated else rule_set.active_rules()
        titles = tuple((f.id, f.title_en) for f in rule_set.families.families)
        _COMPILED[key] = CompiledRules(tuple(rules), titles)
    return _COMPILED[key]
