"""The tenth blind batch (corpus/heldout10/): resolved public reports collected blind late in the seventh round of
rule work, after heldout9 was measured, and measured once on the commit before the changes that followed
(8387ccc) and once after them. It prints the figures (and the same figures for its Python reports and for texts
that quote the error, aggregates only); nobody changes rules because of it. Counted in the priors since the
eighth round (diagnose/priors_build.py), so the figures it prints now are in-sample; scripts/measure.py --loo
gives the leave-one-out ones."""

from __future__ import annotations

import pytest
from test_heldout import batch_folder, batch_items, overlaps_with_earlier, shown_batch_figures

from dlldoctor.kb.ruleset import RuleSet


def test_tenth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps_with_earlier(10) == []


def test_tenth_batch_says_what_each_text_is() -> None:
    items = batch_items(batch_folder(10))
    assert len(items) >= 80
    assert {str(i.get("text_kind")) for i in items.values()} == {"paste", "title"}


def test_tenth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    assert shown_batch_figures("tenth", 10, rule_set, capsys).overall.cases >= 80
