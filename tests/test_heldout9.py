"""The ninth blind batch (corpus/heldout9/): resolved public reports collected blind at the start of the seventh
round of rule work, measured once on the commit before that round and once after it. It prints the figures (and
the same figures for its Python reports and for texts that quote the error, aggregates only); nobody changes
rules because of it. Counted in the priors since the eighth round (diagnose/priors_build.py), so the figures it
prints now are in-sample; scripts/measure.py --loo gives the leave-one-out ones."""

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
        "reports",
    )
]
HELDOUT9 = ROOT / "corpus" / "heldout9"


def test_ninth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps(HELDOUT9, CORPUS, HELDOUT, *BATCHES) == []


def test_ninth_batch_says_what_each_text_is() -> None:
    items = batch_items(HELDOUT9)
    assert len(items) >= 80
    assert {str(i.get("text_kind")) for i in items.values()} == {"paste", "title"}


def test_ninth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    report = shown_blind_figures("ninth", HELDOUT9, rule_set, capsys)
    shown_subset_figures(report, HELDOUT9, capsys)
    assert report.overall.cases >= 80
