"""How well the rules rank the right category on the labelled corpus (corpus/errors/).

Each case is a pasted error text labelled with its category (``also:`` lists categories that are equally
right); a case counts as top-k when one of them is among the first k distinct categories of the ranked
diagnoses. The healthy set (``category: null``) must make no error-level rule fire.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dlldoctor.diagnose.explain import diagnose
from dlldoctor.errors import InputError
from dlldoctor.kb.ruleset import RuleSet
from dlldoctor.kb.yamlsrc import SourceError, read_source
from dlldoctor.text.facts import extract_facts


@dataclass(frozen=True)
class Case:
    id: str
    lang: str
    text: str
    category: str | None  # the file's category; None for a healthy text
    expected: frozenset[str]  # the category and its `also` list; empty for a healthy text
    path: str
    line: int


@dataclass(frozen=True)
class CaseResult:
    case: Case
    ranked: tuple[str, ...]  # distinct categories, best first
    rules: tuple[str, ...]  # rules that fired, best first
    error_rules: tuple[str, ...]  # error-level rules that fired
    confidence: float = 0.0  # the first cause's confidence

    def rank(self) -> int | None:
        """1-based rank of the first right category, or None."""
        for i, category in enumerate(self.ranked, 1):
            if category in self.case.expected:
                return i
        return None


@dataclass(frozen=True)
class Score:
    cases: int = 0
    top1: int = 0
    top3: int = 0

    def add(self, rank: int | None) -> Score:
        return Score(self.cases + 1, self.top1 + (rank == 1), self.top3 + (rank is not None and rank <= 3))

    @property
    def top1_rate(self) -> float:
        return self.top1 / self.cases if self.cases else 0.0

    @property
    def top3_rate(self) -> float:
        return self.top3 / self.cases if self.cases else 0.0


@dataclass(frozen=True)
class Report:
    overall: Score
    unseen: Score  # the cases whose text is not (part of) any rule's examples
    by_language: tuple[tuple[str, Score], ...]
    by_category: tuple[tuple[str, Score], ...]
    results: tuple[CaseResult, ...]
    healthy: tuple[CaseResult, ...] = field(default=())

    @property
    def misses(self) -> tuple[CaseResult, ...]:
        return tuple(r for r in self.results if (r.rank() or 99) > 3)

    @property
    def false_alarms(self) -> tuple[CaseResult, ...]:
        return tuple(r for r in self.healthy if r.error_rules)


def _also(value: Any) -> list[str]:
    """A case's second categories: a list, or one category written as a plain string."""
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value or []]


def load_cases(folder: Path) -> list[Case]:
    cases: list[Case] = []
    files = sorted(Path(folder).glob("*.yaml"))
    if not files:
        raise InputError(f"{folder}: no corpus files (*.yaml)")
    for path in files:
        try:
            src = read_source(path)
        except SourceError as e:
            raise InputError(str(e)) from e
        data: Any = src.data
        if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
            raise InputError(f"{path}: expected `category:` and a `cases:` list")
        category = data.get("category")
        for i, item in enumerate(data["cases"]):
            expected = frozenset(([category] if category else []) + _also(item.get("also")))
            cases.append(
                Case(
                    id=str(item.get("id", f"{path.stem}-{i}")),
                    lang=str(item.get("lang", "en")),
                    text=str(item.get("text", "")),
                    category=category,
                    expected=expected,
                    path=str(path),
                    line=src.line(["cases", i]),
                )
            )
    return cases


def run_case(case: Case, rule_set: RuleSet) -> CaseResult:
    facts = extract_facts(
        case.text, messages=rule_set.messages, families=rule_set.families, releases=rule_set.releases
    )
    diagnoses = diagnose(facts, rule_set)
    ranked = tuple(dict.fromkeys(d.rule.category for d in diagnoses))
    return CaseResult(
        case,
        ranked,
        tuple(d.rule.id for d in diagnoses),
        tuple(d.rule.id for d in diagnoses if d.rule.severity == "error"),
        diagnoses[0].confidence if diagnoses else 0.0,
    )


def _squash(text: str) -> str:
    return " ".join(text.split())


def in_examples(case: Case, examples: list[str]) -> bool:
    """Whether a rule's examples contain this case's text (or a long part of it)."""
    text = _squash(case.text)
    return any(text == e or (len(e) >= 60 and (e in text or text in e)) for e in examples)


def evaluate(cases: Iterable[Case], rule_set: RuleSet) -> Report:
    examples = [_squash(t) for r in rule_set.rules for t in (*r.examples.match, *r.examples.todo_match)]
    overall = Score()
    unseen = Score()
    langs: dict[str, Score] = {}
    cats: dict[str, Score] = {}
    results = []
    healthy = []
    for case in cases:
        result = run_case(case, rule_set)
        if not case.expected:
            healthy.append(result)
            continue
        results.append(result)
        rank = result.rank()
        overall = overall.add(rank)
        if not in_examples(case, examples):
            unseen = unseen.add(rank)
        langs[case.lang] = langs.get(case.lang, Score()).add(rank)
        key = case.category or "?"
        cats[key] = cats.get(key, Score()).add(rank)
    return Report(
        overall=overall,
        unseen=unseen,
        by_language=tuple(sorted(langs.items(), key=lambda kv: (-kv[1].cases, kv[0]))),
        by_category=tuple(sorted(cats.items())),
        results=tuple(results),
        healthy=tuple(healthy),
    )
