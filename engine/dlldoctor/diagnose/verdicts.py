"""Rules × a scanned install: which causes the install itself confirms, refutes, or cannot decide.

A rule is *confirmed* when every probe it declares is answered as the rule expects and at least one of
those answers shows something wrong (a missing DLL, a missing name, a duplicate runtime …); answers
such as "this is a conda environment" only narrow a rule down. It is *refuted* when any answer is the
opposite of what the rule expects, and *unknown* otherwise — with what to collect to decide.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dlldoctor.diagnose.probes import ProbeAnswer, ProbeContext, answer, is_problem
from dlldoctor.kb.families import Families
from dlldoctor.kb.model import Rule
from dlldoctor.scan.target import ScanResult

CONFIRMED, REFUTED, UNKNOWN = "confirmed", "refuted", "unknown"
_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}
_PREVALENCE_ORDER = {"common": 0, "occasional": 1, "rare": 2}


@dataclass(frozen=True)
class ProbedRule:
    rule: Rule
    verdict: str
    answers: tuple[ProbeAnswer, ...]

    @property
    def problems(self) -> tuple[ProbeAnswer, ...]:
        """The answers that show something wrong, as the rule expected."""
        return tuple(a for a in self.answers if a.as_expected and is_problem(a.probe))

    @property
    def evidence(self) -> tuple[str, ...]:
        return tuple(line for a in self.answers if a.as_expected for line in a.evidence)

    @property
    def to_collect(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(a.collect for a in self.answers if not a.decided and a.collect))


def probe_rule(ctx: ProbeContext, rule: Rule) -> ProbedRule:
    answers = tuple(answer(ctx, probe) for probe in rule.probes)
    if not answers:
        return ProbedRule(rule, UNKNOWN, answers)
    if any(a.decided and not a.as_expected for a in answers):
        return ProbedRule(rule, REFUTED, answers)
    probed = ProbedRule(rule, UNKNOWN, answers)
    if all(a.decided for a in answers) and probed.problems:
        return ProbedRule(rule, CONFIRMED, answers)
    return probed


def probe_rules(result: ScanResult, rules: Iterable[Rule], families: Families) -> list[ProbedRule]:
    ctx = ProbeContext(result, families)
    return [probe_rule(ctx, rule) for rule in rules]


def rank_key(probed: ProbedRule) -> tuple[int, int, int, int, str]:
    """Most specific first (more problem answers, then more probes in all), then severity, then the
    more common cause; the rule id only makes the order stable."""
    return (
        -len(probed.problems),
        -len(probed.answers),
        _SEVERITY_ORDER.get(probed.rule.severity, 3),
        _PREVALENCE_ORDER.get(probed.rule.prevalence, 1),
        probed.rule.id,
    )


def confirmed_diagnoses(result: ScanResult, rules: Iterable[Rule], families: Families) -> list[ProbedRule]:
    """The rules a scan confirms, best first; the scan's ``diagnoses`` list."""
    confirmed = [p for p in probe_rules(result, rules, families) if p.verdict == CONFIRMED]
    confirmed.sort(key=rank_key)
    return confirmed


def diagnose_results(results: list[ScanResult], rules_root: object = None) -> None:
    """Fill each result's ``diagnoses`` from the rule set (the built-in one unless a folder is given)."""
    from pathlib import Path

    from dlldoctor.kb.ruleset import load_rule_set

    rule_set = load_rule_set(Path(str(rules_root)) if rules_root else None)
    rules = rule_set.active_rules()
    for result in results:
        result.diagnoses = confirmed_diagnoses(result, rules, rule_set.families)
