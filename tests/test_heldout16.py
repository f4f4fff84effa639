"""The sixteenth blind batch (corpus/heldout16/): resolved public reports collected blind at the start of the tenth
round by three collectors at once (Python processes, native programs, other languages), and measured once on the
commit its collection started from (a5d560d) and once after the work that followed, and again at the end of the
eleventh round. Counted in the priors since the twelfth round, and its wrong and silent reports read then, so
in-sample from then on: its figures printed here are no longer blind (the leave-one-out ones are in
docs/accuracy.md)."""

from __future__ import annotations

import pytest
from test_heldout import assert_batch_says_what_each_text_is, overlaps_with_earlier, shown_batch_figures

from dlldoctor.kb.ruleset import RuleSet


def test_sixteenth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps_with_earlier(16) == []


def test_sixteenth_batch_says_what_each_text_is() -> None:
    assert_batch_says_what_each_text_is(16, 80)


def test_sixteenth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    assert shown_batch_figures("sixteenth", 16, rule_set, capsys).overall.cases >= 70
