"""The twenty-second blind batch (corpus/heldout22/): resolved public reports collected blind in the seventeenth
round by six collectors (Python's machine-learning stacks, other Python, native programs, other languages, reports
in other languages and less-mined corners, Python packages with compiled extensions beyond the big stacks), merged
unread, and measured once on the commit its collection started from (68351e3) and once after the work of the round. It prints the figures (and the
same for its Python reports and for texts that quote the error, aggregates only); nobody changes rules because of
it."""

from __future__ import annotations

import pytest
from test_heldout import assert_batch_says_what_each_text_is, overlaps_with_earlier, shown_batch_figures

from dlldoctor.kb.ruleset import RuleSet

# 316 cases were kept (333 written, three over the three-per-repository cap and fourteen dropped unread by the
# overlap check), 294 of them scored
AT_LEAST = 316
SCORED = 294


def test_twenty_second_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps_with_earlier(22) == []


def test_twenty_second_batch_says_what_each_text_is() -> None:
    assert_batch_says_what_each_text_is(22, AT_LEAST)


def test_twenty_second_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    assert shown_batch_figures("twenty-second", 22, rule_set, capsys).overall.cases >= SCORED
