"""Error text → ranked diagnoses with confidence and the evidence each rests on (words: dlldoctor.formats)."""

from __future__ import annotations

import math
from dataclasses import dataclass

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
    def ambiguous(self) -> bool:
        """No cause stands out: several categories fit and the best is below :data:`AMBIGUOUS_BELOW`."""
        return (
            len(leading_per_category(self.diagnoses)) >= 2 and self.diagnoses[0].confidence < AMBIGUOUS_BELOW
        )


def answer_language(facts: ErrorFacts, requested: str | None = None) -> str:
    if requested in ("en", "zh"):
        return requested
    return "zh" if facts.language in ("zh-CN", "zh-TW") else "en"


def rank(matches: list[RuleMatch]) -> tuple[Diagnosis, ...]:
    """Diagnoses best first, with confidences.

    Confidence is shared between *causes* (categories), not rules: two rules that say the same cause in
    different words do not halve each other's confidence. The best rule of a category carries the
    category's share; a weaker rule of the same category carries it scaled by how much weaker it is.
    """
    if not matches:
        return ()
    top = max(m.rank_score for m in matches)
    best: dict[str, float] = {}
    for m in matches:
        best[m.rule.category] = max(best.get(m.rule.category, -math.inf), m.rank_score)
    weights = {cat: math.exp((score - top) / TEMPERATURE) for cat, score in best.items()}
    total = math.exp((BASELINE_SCORE - top) / TEMPERATURE) + sum(weights.values())
    out = []
    for m in matches:
        share = weights[m.rule.category] / total
        within = math.exp((m.rank_score - best[m.rule.category]) / TEMPERATURE)
        out.append(Diagnosis(m.rule, round(share * within, 3), round(m.score, 2), m.evidence))
    out.sort(key=lambda d: (-d.confidence, -d.score, d.rule.id))
    return tuple(out)


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
    return rank(compiled(rule_set).run(facts))


def explain_text(text: str, rule_set: RuleSet, *, lang: str | None = None) -> Explanation:
    facts = extract_facts(text, messages=rule_set.messages, families=rule_set.families)
    diagnoses = diagnose(facts, rule_set)
    answer = answer_language(facts, lang)
    return Explanation(facts, diagnoses, answer)
