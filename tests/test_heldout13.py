"""The thirteenth blind batch (corpus/heldout13/): resolved public reports collected blind in the middle of the
eighth round, after most of its work, by three collectors at once (Python processes, native programs, other
languages), and measured once on the commit its collection started from (c15a634) and once at the end of the
round. It prints the figures (and the same figures for its Python reports and for texts that quote the error,
aggregates only); nobody changed rules because of it while it was blind. Counted in the priors since the ninth round
(diagnose/priors_build.py), and its silent and wrong reports read then to write shapes, so the figures it prints
now are in-sample; scripts/measure.py --loo gives the leave-one-out ones."""

from __future__ import annotations

import pytest
from test_heldout import assert_batch_says_what_each_text_is, overlaps_with_earlier, shown_batch_figures

from dlldoctor.kb.ruleset import RuleSet


def test_thirteenth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps_with_earlier(13) == []


def test_thirteenth_batch_says_what_each_text_is() -> None:
    assert_batch_says_what_each_text_is(13, 80)


def test_thirteenth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    assert shown_batch_figures("thirteenth", 13, rule_set, capsys).overall.cases >= 75
