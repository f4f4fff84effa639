"""The twentieth blind batch (corpus/heldout20/): resolved public reports collected blind in the fifteenth round by
five collectors (Python's machine-learning stacks, other Python, native programs, other languages, less-mined
corners), merged unread, and measured once on the commit its collection started from (435907f) and once after the
work of the round. It prints the figures (and the same for its Python reports and for texts that quote the error,
aggregates only); nobody changes rules because of it."""

from __future__ import annotations

import pytest
from test_heldout import assert_batch_says_what_each_text_is, overlaps_with_earlier, shown_batch_figures

from dlldoctor.kb.ruleset import RuleSet

# 140 cases were kept (149 merged, nine dropped unread by the overlap check), 124 of them scored
AT_LEAST = 140
SCORED = 124


def test_twentieth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps_with_earlier(20) == []


def test_twentieth_batch_says_what_each_text_is() -> None:
    assert_batch_says_what_each_text_is(20, AT_LEAST)


def test_twentieth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    assert shown_batch_figures("twentieth", 20, rule_set, capsys).overall.cases >= SCORED
