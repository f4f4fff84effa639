"""What a text that states no failure may still get: nothing, or, when it names a DLL, the weak candidates of the
differential (the derived fact ``dll-named``), never a rule's cause.

The negative tests of the text readings ask this of each healthy text: that nothing is said of it, or only the
priors' guess for a text that names a DLL and states no failure, below :data:`WEAK`.
"""

from __future__ import annotations

from dlldoctor.diagnose.explain import Diagnosis, diagnose
from dlldoctor.kb.ruleset import RuleSet
from dlldoctor.text.facts import ErrorFacts, extract_facts

WEAK = 0.2  # the confidence below which a cause counts as a weak guess (tests/test_real_negatives.py)


def reading(text: str, rule_set: RuleSet) -> tuple[ErrorFacts, tuple[Diagnosis, ...]]:
    f = extract_facts(
        text, messages=rule_set.messages, families=rule_set.families, releases=rule_set.releases
    )
    return f, diagnose(f, rule_set)


def only_named_guesses(f: ErrorFacts, diagnoses: tuple[Diagnosis, ...]) -> bool:
    """Whether ``diagnoses`` are nothing, or only weak candidates of a text that names a DLL and states no failure."""
    if not diagnoses:
        return True
    return (
        f.told_in_words
        and not f.states_failure
        and all(d.rule.id.startswith("possible-") and d.confidence < WEAK for d in diagnoses)
    )
