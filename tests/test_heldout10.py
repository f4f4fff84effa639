"""The tenth blind batch (corpus/heldout10/): resolved public reports collected blind late in the seventh round of
rule work, after heldout9 was measured, and measured once on the commit before the changes that followed
(8387ccc) and once after them. It prints the figures (and the same figures for its Python reports and for texts
that quote the error, aggregates only); nobody changes rules because of it. Counted in the priors since the
eighth round (diagnose/priors_build.py), so the figures it prints now are in-sample; scripts/measure.py --loo
gives the leave-one-out ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_heldout import CORPUS, HELDOUT, batch_items, overlaps, shown_blind_figures, shown_subset_figures

from dlldoctor.kb.ruleset import RuleSet

ROOT = Path(__file__).resolve().parents[1]
BATCHES = [
    ROOT / "corpus" / name
    for name in (
        "heldout2",
        "heldout3",
        "heldout4",
        "heldout5",
        "heldout6",
        "heldout7",
        "heldout8",
        "heldout9",
        "reports",
    )
]
HELDOUT10 = ROOT / "corpus" / "heldout10"


def test_tenth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps(HELDOUT10, CORPUS, HELDOUT, *BATCHES) == []


def test_tenth_batch_says_what_each_text_is() -> None:
    items = batch_items(HELDOUT10)
    assert len(items) >= 80
    assert {str(i.get("text_kind")) for i in items.values()} == {"paste", "title"}


def test_tenth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    report = shown_blind_figures("tenth", HELDOUT10, rule_set, capsys)
    shown_subset_figures(report, HELDOUT10, capsys)
    assert report.overall.cases >= 80
