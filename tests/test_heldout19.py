"""The nineteenth blind batch (corpus/heldout19/): resolved public reports collected blind at the start of the
thirteenth round by five collectors at once (Python's machine-learning stacks, other Python, native programs, other
languages, less-mined corners), and measured once on the commit its collection started from (3deb5f8) and once after
the work that followed. It prints the figures (and the same for its Python reports and for texts that quote the
error, aggregates only); nobody changes rules because of it."""

from __future__ import annotations

import pytest
from test_heldout import assert_batch_says_what_each_text_is, overlaps_with_earlier, shown_batch_figures

from dlldoctor.kb.ruleset import RuleSet


def test_nineteenth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps_with_earlier(19) == []


def test_nineteenth_batch_says_what_each_text_is() -> None:
    assert_batch_says_what_each_text_is(19, 105)


def test_nineteenth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    assert shown_batch_figures("nineteenth", 19, rule_set, capsys).overall.cases >= 95
