"""Rules × a scanned install: which causes the install itself confirms, refutes, or cannot decide.

A rule is *confirmed* when every probe it declares is answered as the rule expects and at least one of
those answers shows something wrong (a missing DLL, a missing name, a duplicate runtime …); answers
such as "this is a conda environment" only narrow a rule down. It is *refuted* when any answer is the
opposite of what the rule expects, and *unknown* otherwise — with what to collect to decide.

A confirmed rule is only as severe as the findings it rests on: when its fault answers rest on findings
(a missing DLL, a missing name, a wrong machine, a damaged file), the diagnosis takes the highest severity
among them if that is below the rule's own, so a fault the scan reports as a warning (a plugin, a load by
full path, a launcher) yields at most a warning. A rule that only fires on the text of one module's import
(``module:`` in its ``match.all``) is undecided on a target that holds no such module.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from dlldoctor.diagnose.probe_context import ProbeAnswer, ProbeContext
from dlldoctor.diagnose.probes import answer, is_problem
from dlldoctor.kb.families import Families
from dlldoctor.kb.model import Rule
from dlldoctor.kb.patterns import compile_pattern
from dlldoctor.scan.result import ScanResult
from dlldoctor.vocabulary import SEVERITY_RANK, Severity, Verdict

CONFIRMED: Verdict = "confirmed"
REFUTED: Verdict = "refuted"
UNKNOWN: Verdict = "unknown"
_PREVALENCE_ORDER = {"common": 0, "occasional": 1, "rare": 2}


@dataclass(frozen=True)
class ProbedRule:
    rule: Rule
    verdict: Verdict
    answers: tuple[ProbeAnswer, ...]
    outside: str | None = None  # what the target would have to hold for the rule's cause to apply

    @property
    def problems(self) -> tuple[ProbeAnswer, ...]:
        """The answers that show something wrong, as the rule expected."""
        return tuple(a for a in self.answers if a.as_expected and is_problem(a.probe))

    @property
    def evidence(self) -> tuple[str, ...]:
        return tuple(line for a in self.answers if a.as_expected for line in a.evidence)

    @property
    def to_collect(self) -> tuple[str, ...]:
        wanted = [a.collect for a in self.answers if not a.decided and a.collect]
        return tuple(dict.fromkeys([self.outside] if self.outside else wanted))


def probe_rule(ctx: ProbeContext, rule: Rule) -> ProbedRule:
    answers = tuple(answer(ctx, probe) for probe in rule.probes)
    if not answers:
        return ProbedRule(rule, UNKNOWN, answers)
    if any(a.decided and not a.as_expected for a in answers):
        return ProbedRule(rule, REFUTED, answers)
    probed = ProbedRule(rule, UNKNOWN, answers)
    if all(a.decided for a in answers) and probed.problems:
        absent = _absent_modules(ctx, rule)
        if absent:
            return ProbedRule(rule, UNKNOWN, answers, f"an install that holds a module {absent}")
        if any(m.kind == "location" for m in rule.match.all):
            # Where the failing DLL sat (a frozen bundle, System32, the user site) is read from an error
            # text; a scan cannot see it, so it cannot confirm such a cause on its own.
            return ProbedRule(rule, UNKNOWN, answers, "the error text, which says where the DLL sat")
        severity = _severity(rule.severity, probed.problems)
        if severity != rule.severity:
            rule = replace(rule, severity=severity)
        return ProbedRule(rule, CONFIRMED, answers)
    return probed


def _severity(declared: Severity, problems: tuple[ProbeAnswer, ...]) -> Severity:
    """The rule's severity, lowered to the highest severity of the findings its fault answers rest on."""
    findings = [f for a in problems for f in a.findings]
    if not findings:
        return declared
    strongest = min(findings, key=lambda f: SEVERITY_RANK.get(f.severity, 3)).severity
    return strongest if SEVERITY_RANK[strongest] > SEVERITY_RANK[declared] else declared


def _absent_modules(ctx: ProbeContext, rule: Rule) -> str | None:
    """The module pattern a rule requires (``module:`` in ``match.all``) when no extension module of the
    target matches it, as ``/pattern/``; None when the rule requires none or the target holds one."""
    patterns = [m.pattern for m in rule.match.all if m.kind == "module"]
    if not patterns:
        return None
    modules = ctx.extension_modules()
    for pattern in patterns:
        compiled = compile_pattern(pattern)
        if not any(
            compiled.fullmatch(name) for module in modules for name in (module, module.rsplit(".", 1)[-1])
        ):
            return f"/{pattern}/"
    return None


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
        SEVERITY_RANK.get(probed.rule.severity, 3),
        _PREVALENCE_ORDER.get(probed.rule.prevalence, 1),
        probed.rule.id,
    )


def confirmed_diagnoses(
    result: ScanResult[ProbedRule], rules: Iterable[Rule], families: Families
) -> list[ProbedRule]:
    """The rules a scan confirms, best first; the scan's ``diagnoses`` list. A rule that rests only on
    hints (info findings: another architecture's build nothing loads) is not a diagnosis."""
    confirmed = [
        p
        for p in probe_rules(result, rules, families)
        if p.verdict == CONFIRMED and p.rule.severity != "info"
    ]
    confirmed.sort(key=rank_key)
    return confirmed


@dataclass(frozen=True)
class DiagnoseWithRules:
    """The batch runner's diagnosis step: fill each result's ``diagnoses`` from a rule set (the built-in
    one unless a folder is given). A plain value, so worker processes can receive it."""

    rules_root: Path | None = None
    use_cache: bool = True
    extra: tuple[Path, ...] = ()  # --extra-rules folders, on top of the set
    select: tuple[str, ...] = ()  # rule ids or categories (empty: all)
    ignore: tuple[str, ...] = ()

    def __call__(self, results: list[ScanResult[ProbedRule]]) -> None:
        from dlldoctor.kb.selection import configured_rule_set

        rule_set = configured_rule_set(
            self.rules_root, self.extra, self.select, self.ignore, use_cache=self.use_cache
        )
        from dlldoctor.kb.machines import load_variants, rule_for_machine

        rules = rule_set.active_rules()
        variants = load_variants(Path(rule_set.root))
        for result in results:
            machine = result.environment.machine
            result.diagnoses = [
                replace(p, rule=rule_for_machine(p.rule, machine, variants))
                for p in confirmed_diagnoses(result, rules, rule_set.families)
            ]
