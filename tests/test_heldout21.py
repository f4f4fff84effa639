"""The twenty-first blind batch (corpus/heldout21/): resolved public reports collected blind in the sixteenth round
by six collectors (Python's machine-learning stacks, other Python, native programs, other languages, less-mined
corners, Python packages with compiled extensions beyond the big stacks), merged unread, and measured once on the
commit its collection started from (172bd1e) and once after the work of the round. It prints the figures (and the
same for its Python reports and for texts that quote the error, aggregates only); nobody changes rules because of
it."""

from __future__ import annotations

import pytest
from test_heldout import assert_batch_says_what_each_text_is, overlaps_with_earlier, shown_batch_figures

from dlldoctor.kb.ruleset import RuleSet

# 183 cases were kept (192 merged, nine dropped unread by the overlap check), 161 of them scored
AT_LEAST = 183
SCORED = 161


def test_twenty_first_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps_with_earlier(21) == []


def test_twenty_first_batch_says_what_each_text_is() -> None:
    assert_batch_says_what_each_text_is(21, AT_LEAST)


def test_twenty_first_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    assert shown_batch_figures("twenty-first", 21, rule_set, capsys).overall.cases >= SCORED
