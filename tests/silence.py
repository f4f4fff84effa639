"""What a text that states no failure may still get: nothing, or, when it names a DLL, the weak candidates of the
differential (the derived fact ``dll-named``), never a rule's cause.

The negative tests of the text readings ask this of each healthy text: that no failure is read from it, so that no
rule fires, and that anything said is the priors' guess for a text that names a DLL, below :data:`WEAK`.
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
        "dll-named" in f.derived
        and not f.states_failure
        and all(d.rule.id.startswith("possible-") and d.confidence < WEAK for d in diagnoses)
    )


def says_no_failure(text: str, rule_set: RuleSet) -> bool:
    """Whether no failure is read from ``text`` and nothing but a named DLL's weak candidates is said of it."""
    f, diagnoses = reading(text, rule_set)
    return f.error_code is None and not f.states_failure and only_named_guesses(f, diagnoses)
