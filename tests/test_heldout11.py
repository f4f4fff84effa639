"""The eleventh blind batch (corpus/heldout11/): resolved public reports collected blind at the end of the seventh
round, after heldout10 was measured, and measured once on the commit its collection started from (cff815b) and
once after the work that followed. It prints the figures (and the same figures for its Python reports and for
texts that quote the error, aggregates only); nobody changes rules because of it. Counted in the priors since
the eighth round (diagnose/priors_build.py), so the figures it prints now are in-sample; scripts/measure.py
--loo gives the leave-one-out ones."""

from __future__ import annotations

import pytest
from test_heldout import batch_folder, batch_items, overlaps_with_earlier, shown_batch_figures

from dlldoctor.kb.ruleset import RuleSet


def test_eleventh_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps_with_earlier(11) == []


def test_eleventh_batch_says_what_each_text_is() -> None:
    items = batch_items(batch_folder(11))
    assert len(items) >= 70  # short of 80: the stored threads are nearly all taken
    assert {str(i.get("text_kind")) for i in items.values()} == {"paste", "title"}


def test_eleventh_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    assert shown_batch_figures("eleventh", 11, rule_set, capsys).overall.cases >= 65
