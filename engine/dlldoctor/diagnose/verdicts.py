"""Rules × a scanned install: which causes the install itself confirms, refutes, or cannot decide.

A rule is *confirmed* when every probe it declares is answered as the rule expects and at least one of
those answers shows something wrong (a missing DLL, a missing name, a duplicate runtime …); answers
such as "this is a conda environment" only narrow a rule down. It is *refuted* when any answer is the
opposite of what the rule expects, and *unknown* otherwise — with what to collect to decide.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from dlldoctor.diagnose.probe_context import ProbeAnswer, ProbeContext
from dlldoctor.diagnose.probes import answer, is_problem
from dlldoctor.kb.families import Families
from dlldoctor.kb.model import Rule
from dlldoctor.scan.result import ScanResult
from dlldoctor.vocabulary import Verdict

CONFIRMED: Verdict = "confirmed"
REFUTED: Verdict = "refuted"
UNKNOWN: Verdict = "unknown"
_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}
_PREVALENCE_ORDER = {"common": 0, "occasional": 1, "rare": 2}


@dataclass(frozen=True)
class ProbedRule:
    rule: Rule
    verdict: Verdict
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


def probe_rules(
    result: ScanResult[ProbedRule], rules: Iterable[Rule], families: Families
) -> list[ProbedRule]:
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


def confirmed_diagnoses(
    result: ScanResult[ProbedRule], rules: Iterable[Rule], families: Families
) -> list[ProbedRule]:
    """The rules a scan confirms, best first; the scan's ``diagnoses`` list."""
    confirmed = [p for p in probe_rules(result, rules, families) if p.verdict == CONFIRMED]
    confirmed.sort(key=rank_key)
    return confirmed


@dataclass(frozen=True)
class DiagnoseWithRules:
    """The batch runner's diagnosis step: fill each result's ``diagnoses`` from a rule set (the built-in
    one unless a folder is given). A plain value, so worker processes can receive it."""

    rules_root: Path | None = None
    use_cache: bool = True

    def __call__(self, results: list[ScanResult[ProbedRule]]) -> None:
        from dlldoctor.kb.ruleset import load_rule_set

        rule_set = load_rule_set(self.rules_root, use_cache=self.use_cache)
        rules = rule_set.active_rules()
        for result in results:
            result.diagnoses = confirmed_diagnoses(result, rules, rule_set.families)
