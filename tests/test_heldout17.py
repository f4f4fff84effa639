"""The seventeenth blind batch (corpus/heldout17/): resolved public reports collected blind at the start of the
eleventh round by four collectors at once (Python's machine-learning stacks, other Python, native programs, other
languages), and measured once on the commit its collection started from (e5b69a4) and once after the work that
followed, and again at the end of the twelfth round. Counted in the priors since the thirteenth round, and its wrong
and silent reports read then, so in-sample from then on: its figures printed here are no longer blind (the
leave-one-out ones are in docs/accuracy.md)."""

from __future__ import annotations

import pytest
from test_heldout import assert_batch_says_what_each_text_is, overlaps_with_earlier, shown_batch_figures

from dlldoctor.kb.ruleset import RuleSet


def test_seventeenth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps_with_earlier(17) == []


def test_seventeenth_batch_says_what_each_text_is() -> None:
    assert_batch_says_what_each_text_is(17, 80)


def test_seventeenth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    assert shown_batch_figures("seventeenth", 17, rule_set, capsys).overall.cases >= 70
