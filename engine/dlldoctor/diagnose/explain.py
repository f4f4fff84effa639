"""Error text → ranked diagnoses with confidence and the evidence each rests on (words: dlldoctor.formats)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from dlldoctor.diagnose.differential import (
    CANDIDATE_SCORE,
    DISTINCT,
    Differential,
    candidate_rule,
    differential_for,
)
from dlldoctor.diagnose.match import Evidence, RuleMatch, compiled
from dlldoctor.kb.model import Rule
from dlldoctor.kb.ruleset import RuleSet
from dlldoctor.text.facts import ErrorFacts, extract_facts

# Confidence is a softmax over the scores of the rules that fire, with a baseline for "a cause no rule
# knows": a lone rule that matched only a code and a generic word stays well below certainty, and rules
# that matched the same evidence share it.
TEMPERATURE = 2.0
BASELINE_SCORE = 6.0
AMBIGUOUS_BELOW = 0.6
CANDIDATE_MARGIN = 0.5  # how far below the weakest rule-named cause a cause named by the priors alone stays
# A text that names a DLL but quotes no error is a failed load only some of the time (a build log, a how-to, a
# changelog says as much): its causes keep their order, their confidence is this share of what the priors give.
NAMED_SHARE = 0.5


@dataclass(frozen=True)
class Diagnosis:
    rule: Rule
    confidence: float
    score: float
    evidence: tuple[Evidence, ...]


@dataclass(frozen=True)
class Explanation:
    facts: ErrorFacts
    diagnoses: tuple[Diagnosis, ...]
    lang: str  # "en" or "zh": the language of the answer

    @property
    def guessed(self) -> bool:
        """Whether the text states no failure and only the priors' candidates are given (a text told in words)."""
        return bool(self.diagnoses) and all(
            any(e.kind == "derived" and e.value == "dll-named" for e in d.evidence) for d in self.diagnoses
        )

    @property
    def finds_failure(self) -> bool:
        """Whether a cause is given for a failure the text states (not only the priors' guess at a text told in words):
        what the command's exit status, and triage's decision to comment, rest on."""
        return bool(self.diagnoses) and not self.guessed

    @property
    def ambiguous(self) -> bool:
        """No cause stands out: several categories fit and the best is below :data:`AMBIGUOUS_BELOW`."""
        return (
            len(leading_per_category(self.diagnoses)) >= 2 and self.diagnoses[0].confidence < AMBIGUOUS_BELOW
        )


def answer_language(facts: ErrorFacts, requested: str | None = None) -> str:
    if requested in ("en", "zh"):
        return requested
    return "zh" if facts.language in ("zh-CN", "zh-TW") else "en"


def rank(
    matches: list[RuleMatch], diff: Differential | None = None, rule_set: RuleSet | None = None
) -> tuple[Diagnosis, ...]:
    """Diagnoses best first, with confidences.

    Confidence is shared between *causes* (categories), not rules: two rules that say the same cause in
    different words do not halve each other's confidence. The best rule of a category carries the
    category's share; a weaker rule of the same category carries it scaled by how much weaker it is.
    With a differential (a loader error and priors), each cause's score gains the log of how often it
    explains this evidence, and causes no rule named fill the list up to three distinct ones.
    """
    if diff and diff.named and matches:
        diff = None  # a text told in words that a rule speaks of is that rule's, as it was before the priors
    scored: list[tuple[Rule, float, float, tuple[Evidence, ...]]] = []  # rule, rank score, score, evidence
    generic: list[tuple[Rule, tuple[Evidence, ...]]] = []
    for m in matches:
        bonus = diff.bonus(m.rule.category) if diff else 0.0
        evidence = m.evidence + (_prior_evidence(diff, m.rule.category, bonus) if diff else ())
        if diff and m.rule.generic:
            generic.append((m.rule, evidence))
            continue
        scored.append((m.rule, m.rank_score + bonus, m.score + bonus, evidence))
    if diff:
        # A cause only the priors name, or a generic rule's, ranks below every cause a rule named evidence of:
        # it fills the list, never leads it.
        ceiling = min((rs for _, rs, _, _ in scored), default=math.inf) - CANDIDATE_MARGIN

        def filling(rule: Rule, evidence: tuple[Evidence, ...]) -> None:
            score = min(CANDIDATE_SCORE + diff.bonus(rule.category), ceiling)
            scored.append((rule, score, max(score, 0.0), evidence))

        for rule, evidence in generic:
            filling(rule, evidence)
        named = {r.category for r, *_ in scored}
        for category, _p in diff.prior:
            if len(named) >= DISTINCT or rule_set is None:
                break
            candidate = candidate_rule(category, rule_set) if category not in named else None
            if candidate is None:
                continue
            named.add(category)
            filling(candidate, _prior_evidence(diff, category, diff.bonus(category)))
    if not scored:
        return ()
    top = max(rs for _, rs, _, _ in scored)
    best: dict[str, float] = {}
    for rule, rs, _, _ in scored:
        best[rule.category] = max(best.get(rule.category, -math.inf), rs)
    weights = {cat: math.exp((score - top) / TEMPERATURE) for cat, score in best.items()}
    total = math.exp((BASELINE_SCORE - top) / TEMPERATURE) + sum(weights.values())
    if diff and diff.named:
        total /= NAMED_SHARE
    out = []
    for rule, rs, score, evidence in scored:
        share = weights[rule.category] / total
        within = math.exp((rs - best[rule.category]) / TEMPERATURE)
        out.append(Diagnosis(rule, round(share * within, 3), round(score, 2), evidence))
    out.sort(key=lambda d: (-d.confidence, -d.score, d.rule.id))
    return tuple(out)


def _prior_evidence(diff: Differential, category: str, bonus: float) -> tuple[Evidence, ...]:
    """The priors' evidence: ``value`` is the evidence key, then `` + `` and the cues and names weighed in; for a
    text that states no failure, the derived fact that says so first."""
    k, n, key = diff.support(category)
    weighed = [*diff.cues, *diff.names]
    value = f"{key} + {', '.join(weighed)}" if weighed else key
    prior = Evidence("prior", value, round(bonus, 2), f"{k}/{n}")
    return (Evidence("derived", "dll-named", 0.0), prior) if diff.named else (prior,)


def leading_per_category(diagnoses: tuple[Diagnosis, ...]) -> list[Diagnosis]:
    """The best diagnosis of each category, best first."""
    seen: set[str] = set()
    out = []
    for d in diagnoses:
        if d.rule.category not in seen:
            seen.add(d.rule.category)
            out.append(d)
    return out


def diagnose(facts: ErrorFacts, rule_set: RuleSet) -> tuple[Diagnosis, ...]:
    return rank(compiled(rule_set).run(facts), differential_for(facts, rule_set), rule_set)


def explain_text(text: str, rule_set: RuleSet, *, lang: str | None = None) -> Explanation:
    facts = extract_facts(
        text, messages=rule_set.messages, families=rule_set.families, releases=rule_set.releases
    )
    diagnoses = diagnose(facts, rule_set)
    answer = answer_language(facts, lang)
    return Explanation(facts, diagnoses, answer)
