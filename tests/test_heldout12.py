"""The twelfth blind batch (corpus/heldout12/): resolved public reports collected blind at the start of the
eighth round by three collectors at once (Python processes, native programs, other languages), and measured
once on the commit its collection started from (55fa4e2) and once after the work that followed. It prints the
figures (and the same figures for its Python reports and for texts that quote the error, aggregates only);
nobody changed rules because of it while it was blind. Counted in the priors since the ninth round
(diagnose/priors_build.py), and its silent and wrong reports read then to write shapes, so the figures it prints
now are in-sample; scripts/measure.py --loo gives the leave-one-out ones."""

from __future__ import annotations

import pytest
from test_heldout import assert_batch_says_what_each_text_is, overlaps_with_earlier, shown_batch_figures

from dlldoctor.kb.ruleset import RuleSet


def test_twelfth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps_with_earlier(12) == []


def test_twelfth_batch_says_what_each_text_is() -> None:
    assert_batch_says_what_each_text_is(12, 80)


def test_twelfth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    assert shown_batch_figures("twelfth", 12, rule_set, capsys).overall.cases >= 80
