"""The priors of the differential diagnosis are counted from the labelled reports, never edited by hand,
and the differential names distinct causes for a generic loader error."""

from __future__ import annotations

from pathlib import Path

import pytest

from dlldoctor.diagnose.differential import evidence_keys, is_loader_error
from dlldoctor.diagnose.explain import explain_text
from dlldoctor.diagnose.priors_build import priors_data, render_priors
from dlldoctor.kb.priors import Priors
from dlldoctor.kb.ruleset import RuleSet, load_rule_set

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def rule_set(tmp_path_factory: pytest.TempPathFactory) -> RuleSet:
    mp = pytest.MonkeyPatch()
    mp.setenv("DLLDOCTOR_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    try:
        return load_rule_set()
    finally:
        mp.undo()


def test_priors_file_is_what_the_corpus_counts(rule_set: RuleSet) -> None:
    data = priors_data(ROOT, rule_set)
    # heldout3, heldout4 and the batches not yet counted (heldout27 on) stay out
    assert {"corpus/heldout3", "corpus/heldout4", "corpus/heldout27"}.isdisjoint(data["sources"])
    current = (ROOT / "rules" / "data" / "priors.yaml").read_text(encoding="utf-8")
    assert current == render_priors(data), "regenerate: dlldoctor rules priors --out rules/data/priors.yaml"


def test_backoff_from_a_specific_key_to_its_parents() -> None:
    priors = Priors(
        categories=("a", "b"),
        counts=(("*", (("a", 3), ("b", 1))), ("code=126", (("b", 2),))),
        smoothing=2.0,
    )
    top = priors.distribution(("*",))
    assert top == {"a": 4 / 6, "b": 2 / 6}
    dist = priors.distribution(("*", "code=126", "code=126 dll=none"))
    assert dist == {"a": (0 + 2 * 4 / 6) / 4, "b": (2 + 2 * 2 / 6) / 4}
    assert priors.support(("*", "code=126", "code=126 dll=none"), "b") == (2, 2, "code=126")


def test_evidence_keys_of_a_bare_import_error(rule_set: RuleSet) -> None:
    ex = explain_text("ImportError: DLL load failed while importing _C: 找不到指定的模块。", rule_set)
    assert is_loader_error(ex.facts)
    assert evidence_keys(ex.facts) == ("*", "code=126", "code=126 dll=none", "code=126 dll=none via=import")


def test_a_generic_loader_error_gets_three_distinct_causes(rule_set: RuleSet) -> None:
    ex = explain_text(
        "ImportError: DLL load failed while importing _C: The specified module could not be found.", rule_set
    )
    categories = list(dict.fromkeys(d.rule.category for d in ex.diagnoses))
    assert len(categories) >= 3
    assert categories[0] == "vcredist-missing"
    assert all(any(e.kind == "prior" for e in d.evidence) for d in ex.diagnoses)


def test_a_ctypes_error_with_an_unknown_dll_gets_candidates(rule_set: RuleSet) -> None:
    text = (
        "FileNotFoundError: Could not find module 'C:\\app\\libzbar-64.dll' (or one of its dependencies). "
        "Try using the full path with constructor syntax."
    )
    ex = explain_text(text, rule_set)
    assert len({d.rule.category for d in ex.diagnoses}) == 3
    assert all(d.rule.id.startswith("possible-") for d in ex.diagnoses if d.rule.severity == "warning")


def test_no_candidates_for_texts_that_are_not_loader_errors(rule_set: RuleSet) -> None:
    ex = explain_text(
        "PermissionError: [WinError 5] Access is denied: 'C:\\\\x\\\\model.safetensors'", rule_set
    )
    assert not ex.diagnoses


def test_cues_shown_and_not_shown_shift_the_odds_as_counted() -> None:
    from dlldoctor.kb.priors import CUE_SMOOTHING, CUE_WEIGHT, Priors

    # every report of `a` shows cue x, none of `b` does
    priors = Priors(("a", "b"), counts=(("*", (("a", 2), ("b", 2))),), cues=(("x", (("a", 2),)),))
    even = {"a": 0.5, "b": 0.5}
    shown = priors.with_cues(even, ("x",))
    assert shown["a"] > 0.5 > shown["b"]
    # not shown: a's reports lack x less often than all reports do
    p_a = (2 + CUE_SMOOTHING * 0.5) / (2 + CUE_SMOOTHING)
    p_b = (0 + CUE_SMOOTHING * 0.5) / (2 + CUE_SMOOTHING)
    w_a, w_b = ((1 - p_a) / 0.5) ** CUE_WEIGHT, ((1 - p_b) / 0.5) ** CUE_WEIGHT
    absent = priors.with_cues(even, ())
    assert absent["a"] == pytest.approx(w_a / (w_a + w_b)) and absent["a"] < 0.5
    # a cue that cannot be seen (not in cues.yaml) says nothing by its absence
    assert priors.with_cues(even, (), frozenset()) == pytest.approx(even)


def test_a_name_given_weighs_like_a_cue_shown_and_one_not_given_says_nothing() -> None:
    from dlldoctor.kb.priors import CUE_SMOOTHING, CUE_WEIGHT, Priors

    priors = Priors(("a", "b"), counts=(("*", (("a", 2), ("b", 2))),), names=(("h5py", (("b", 2),)),))
    even = {"a": 0.5, "b": 0.5}
    named = priors.with_cues(even, (), None, ("h5py",))
    p_a = (0 + CUE_SMOOTHING * 0.5) / (2 + CUE_SMOOTHING)
    p_b = (2 + CUE_SMOOTHING * 0.5) / (2 + CUE_SMOOTHING)
    w_a, w_b = (p_a / 0.5) ** CUE_WEIGHT, (p_b / 0.5) ** CUE_WEIGHT
    assert named["b"] == pytest.approx(w_b / (w_a + w_b)) and named["b"] > 0.5
    assert priors.with_cues(even, (), None, ()) == pytest.approx(even)
    assert priors.with_cues(even, (), None, ("numpy",)) == pytest.approx(even)  # no counts: nothing


def test_the_names_a_text_gives_are_its_packages_the_module_that_failed_and_its_dlls(
    rule_set: RuleSet,
) -> None:
    from dlldoctor.diagnose.differential import report_names
    from dlldoctor.text.facts import extract_facts

    text = (
        '  File "C:\\Python39\\lib\\site-packages\\h5py\\__init__.py", line 33, in <module>\n'
        "ImportError: DLL load failed while importing _errors: The specified module could not be found.\n"
    )
    facts = extract_facts(text, messages=rule_set.messages, families=rule_set.families)
    assert report_names(facts) == ("_errors", "h5py")
    facts = extract_facts(
        "ImportError: DLL load failed while importing torch._C: The specified module could not be found.",
        messages=rule_set.messages,
        families=rule_set.families,
    )
    assert report_names(facts) == ("torch",)
    facts = extract_facts(
        "FileNotFoundError: Could not find module 'C:\\VLC\\libvlc.dll' (or one of its dependencies).",
        messages=rule_set.messages,
        families=rule_set.families,
    )
    assert report_names(facts) == ("libvlc.dll",)


def test_a_name_counted_in_the_priors_is_weighed_and_shown_as_evidence(rule_set: RuleSet) -> None:
    text = "ImportError: DLL load failed while importing _errors: The specified module could not be found."
    assert "_errors" in rule_set.priors.name_counts
    ex = explain_text(text, rule_set)
    prior = next(e for e in ex.diagnoses[0].evidence if e.kind == "prior")
    assert prior.value.endswith(" + _errors")


def test_a_priors_file_with_a_bad_names_table_is_refused() -> None:
    from dlldoctor.kb.priors import check_priors

    cats = frozenset({"a", "b"})
    good = {"counts": {"*": {"a": 2, "b": 1}}, "names": {"h5py": {"a": 2}}}
    assert check_priors(good, cats) == []
    assert check_priors({**good, "names": ["h5py"]}, cats) == [
        (["names"], "expected a mapping of name to counts (run `dlldoctor rules priors`)")
    ]
    bad = {**good, "names": {"h5py": {"c": 1, "b": -1, "a": 3}}}
    assert check_priors(bad, cats) == [
        (["names", "h5py", "c"], "unknown category 'c'"),
        (["names", "h5py", "c"], "more reports than 'c' has in `*`"),
        (["names", "h5py", "b"], "a count is a non-negative integer"),
        (["names", "h5py", "a"], "more reports than 'a' has in `*`"),
    ]
