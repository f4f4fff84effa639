"""The words the priors learn from (engine/dlldoctor/diagnose/words.py)."""

from __future__ import annotations

from collections import Counter

from dlldoctor.diagnose.words import MIN_REPORTS, informative_words, report_words
from dlldoctor.kb.priors import Priors


def test_a_reports_words_are_its_latin_words_and_its_chinese_pairs() -> None:
    # corpus/heldout21 h21e-031 (cut), with a line of English
    text = "用户下载的 exe/dll 全部损坏。\nThe release 7z contained 130-byte LFS pointer text"
    assert report_words(text) == frozenset(
        {
            "用户",
            "户下",
            "下载",
            "载的",
            "全部",
            "部损",
            "损坏",
            "exe",
            "dll",
            "release",
            "contained",
            "byte",
            "lfs",
            "pointer",
            "text",
        }
    )


def test_common_words_and_numbers_are_not_counted() -> None:
    # a number or a word with three digits in a row (an address, a version, a build tag) is not counted
    assert report_words("It was the 12345 and the x64 build cp310 that failed") == frozenset(
        {"x64", "build", "failed"}
    )


def test_the_most_informative_words_come_first_and_rare_ones_are_left_out() -> None:
    per_category = {"a": 10, "b": 10}
    words = {
        "telling": Counter({"a": 9, "b": 0}),  # nearly every a, no b
        "weak": Counter({"a": 5, "b": 3}),
        "even": Counter({"a": 4, "b": 4}),  # says nothing
        "rare": Counter({"a": MIN_REPORTS - 1}),  # too few reports to trust
        "everywhere": Counter({"a": 10, "b": 10}),  # every report
    }
    assert informative_words(words, per_category) == ["telling", "weak", "even"]
    assert informative_words(words, per_category, kept=1) == ["telling"]


def test_a_word_shifts_the_odds_toward_the_causes_of_the_reports_that_use_it() -> None:
    priors = Priors(
        categories=("a", "b"),
        counts=(("*", (("a", 10), ("b", 10))),),
        words=(("telling", (("a", 9),)),),
    )
    even = {"a": 0.5, "b": 0.5}
    shifted = priors.with_cues(even, (), words=("telling",))
    assert shifted["a"] > 0.5 > shifted["b"]
    assert priors.with_cues(even, (), words=("unknown",)) == even
