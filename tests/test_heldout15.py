"""The fifteenth blind batch (corpus/heldout15/): resolved public reports collected blind at the start of the ninth
round by three collectors at once (Python processes, native programs, other languages) and a fourth that topped
it up, and measured once on the commit its collection started from (51e894d) and once after the work that
followed, and again at the end of the tenth round. Counted in the priors since the eleventh round, so in-sample
from then on: its figures printed here are no longer blind (the leave-one-out ones are in docs/accuracy.md).
Aggregates only; nobody changes rules because of it."""

from __future__ import annotations

import pytest
from test_heldout import assert_batch_says_what_each_text_is, overlaps_with_earlier, shown_batch_figures

from dlldoctor.kb.ruleset import RuleSet


def test_fifteenth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps_with_earlier(15) == []


def test_fifteenth_batch_says_what_each_text_is() -> None:
    assert_batch_says_what_each_text_is(15, 89)


def test_fifteenth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    assert shown_batch_figures("fifteenth", 15, rule_set, capsys).overall.cases >= 70
