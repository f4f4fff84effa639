"""Error text and install together: the text proposes causes, probes on the target settle them.

Each diagnosis the text yields is probed on every scanned target and gets a verdict — confirmed,
refuted, or unknown with what to collect to decide. A cause the install confirms but the text did not
suggest is added after them: the paste may be the symptom of a second problem.
"""

from __future__ import annotations

from dataclasses import dataclass

from dlldoctor.diagnose.explain import Diagnosis, Explanation
from dlldoctor.diagnose.probe_context import ProbeContext
from dlldoctor.diagnose.verdicts import CONFIRMED, REFUTED, UNKNOWN, ProbedRule, probe_rule, rank_key
from dlldoctor.kb.ruleset import RuleSet
from dlldoctor.scan.result import ScanResult
from dlldoctor.vocabulary import Verdict

_ORDER = {CONFIRMED: 0, UNKNOWN: 1, REFUTED: 2}


@dataclass(frozen=True)
class CheckedDiagnosis:
    rule_id: str
    diagnosis: Diagnosis | None  # None: found on the target only
    verdict: Verdict
    evidence: tuple[str, ...]
    to_collect: tuple[str, ...]


def _merge(probed: list[ProbedRule]) -> tuple[Verdict, tuple[str, ...], tuple[str, ...]]:
    """One verdict over several targets: confirmed on any wins, refuted only when refuted on all."""
    verdicts = {p.verdict for p in probed}
    verdict: Verdict
    if CONFIRMED in verdicts:
        verdict = CONFIRMED
    elif verdicts == {REFUTED}:
        verdict = REFUTED
    else:
        verdict = UNKNOWN
    evidence = tuple(line for p in probed if p.verdict == verdict for line in p.evidence)
    if verdict == REFUTED:
        evidence = tuple(
            f"{a.probe.kind}: {line}"
            for p in probed
            for a in p.answers
            if a.decided and not a.as_expected
            for line in (a.evidence or (str(a.value),))
        )
    collect = tuple(dict.fromkeys(c for p in probed for c in p.to_collect)) if verdict == UNKNOWN else ()
    if verdict == UNKNOWN and not collect and not any(p.answers for p in probed):
        collect = ("this cause leaves no trace in the files; the error text is all there is to go on",)
    return verdict, evidence, collect


def check(
    ex: Explanation, results: list[ScanResult[ProbedRule]], rule_set: RuleSet
) -> tuple[CheckedDiagnosis, ...]:
    # Every active rule is probed once per target, in one context (its digests and family lookups are
    # shared); the text's causes and the install's own confirmations both read these answers.
    contexts = [ProbeContext(result, rule_set.families) for result in results]
    by_rule = [{rule.id: probe_rule(ctx, rule) for rule in rule_set.active_rules()} for ctx in contexts]
    checked = []
    for diagnosis in ex.diagnoses:
        rule = diagnosis.rule
        answers = [
            found.get(rule.id) or probe_rule(ctx, rule) for found, ctx in zip(by_rule, contexts, strict=True)
        ]
        verdict, evidence, collect = _merge(answers)
        checked.append(CheckedDiagnosis(rule.id, diagnosis, verdict, evidence, collect))
    seen = {c.rule_id for c in checked}
    for found in by_rule:
        for rule_probed in sorted((p for p in found.values() if p.verdict == CONFIRMED), key=rank_key):
            if rule_probed.rule.id not in seen:
                seen.add(rule_probed.rule.id)
                checked.append(
                    CheckedDiagnosis(rule_probed.rule.id, None, CONFIRMED, rule_probed.evidence, ())
                )
    order = {c.rule_id: i for i, c in enumerate(checked)}
    checked.sort(key=lambda c: (_ORDER[c.verdict], c.diagnosis is None, order[c.rule_id]))
    return tuple(checked)
