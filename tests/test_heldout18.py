"""The eighteenth blind batch (corpus/heldout18/): resolved public reports collected blind at the start of the
twelfth round by four collectors at once (Python's machine-learning stacks, other Python, native programs, other
languages) and topped up by two more (pull requests that state a cause, less-mined hosts and languages), and
measured once on the commit its collection started from (5feb59a), once after the work that followed and once more
at the end of the thirteenth round. Counted in the priors since the fourteenth round, and its wrong and silent
reports read then, so in-sample from then on: its figures printed here are no longer blind (the leave-one-out ones
are in docs/accuracy.md)."""

from __future__ import annotations

import pytest
from test_heldout import assert_batch_says_what_each_text_is, overlaps_with_earlier, shown_batch_figures

from dlldoctor.kb.ruleset import RuleSet


def test_eighteenth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps_with_earlier(18) == []


def test_eighteenth_batch_says_what_each_text_is() -> None:
    assert_batch_says_what_each_text_is(18, 95)


def test_eighteenth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    assert shown_batch_figures("eighteenth", 18, rule_set, capsys).overall.cases >= 85
