"""`dlldoctor rules test`: every rule against its own examples.

A ``match`` example passes when the set of rules that fire on it includes the rule; a ``no_match`` example
when the rule is not in that set; a ``todo_match`` example is a known gap: reported, never failing (and
reported as fixed when the rule starts to fire on it).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from dlldoctor.diagnose.match import compiled
from dlldoctor.kb.model import Rule
from dlldoctor.kb.ruleset import RuleSet
from dlldoctor.kb.yamlsrc import SourceError, read_source
from dlldoctor.text.facts import extract_facts


@dataclass(frozen=True)
class ExampleResult:
    rule: str
    kind: str  # match, no_match, todo_match
    index: int
    text: str
    fired: tuple[str, ...]  # the exact set of rules that fire on the text, sorted

    @property
    def fires(self) -> bool:
        return self.rule in self.fired

    @property
    def passed(self) -> bool:
        if self.kind == "match":
            return self.fires
        if self.kind == "no_match":
            return not self.fires
        return True

    @property
    def todo_fixed(self) -> bool:
        return self.kind == "todo_match" and self.fires


def fired_rules(text: str, rule_set: RuleSet) -> tuple[str, ...]:
    facts = extract_facts(
        text, messages=rule_set.messages, families=rule_set.families, releases=rule_set.releases
    )
    return tuple(sorted(m.rule.id for m in compiled(rule_set).run(facts)))


def _examples(rule: Rule) -> Iterator[tuple[str, int, str]]:
    for kind, texts in (
        ("match", rule.examples.match),
        ("no_match", rule.examples.no_match),
        ("todo_match", rule.examples.todo_match),
    ):
        for i, text in enumerate(texts):
            yield kind, i, text


def run_examples(rule_set: RuleSet, only: set[str] | None = None) -> list[ExampleResult]:
    results = []
    for rule in rule_set.active_rules():
        if only and rule.id not in only:
            continue
        for kind, i, text in _examples(rule):
            results.append(ExampleResult(rule.id, kind, i, text, fired_rules(text, rule_set)))
    return results


def example_line(rule_set: RuleSet, rule_id: str, kind: str, index: int) -> int:
    """Line of an example in its rule file (0 when it cannot be read)."""
    rule = rule_set.get(rule_id)
    if rule is None:
        return 0
    try:
        src = read_source(Path(rule_set.root) / rule.path)
    except SourceError:
        return 0
    return src.line(["examples", kind, index])
