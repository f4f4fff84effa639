"""The thirteenth blind batch (corpus/heldout13/): resolved public reports collected blind in the middle of the
eighth round, after most of its work, by three collectors at once (Python processes, native programs, other
languages), and measured once on the commit its collection started from (c15a634) and once at the end of the
round. It prints the figures (and the same figures for its Python reports and for texts that quote the error,
aggregates only); nobody changes rules because of it."""

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
        "heldout10",
        "heldout11",
        "heldout12",
        "reports",
    )
]
HELDOUT13 = ROOT / "corpus" / "heldout13"


def test_thirteenth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps(HELDOUT13, CORPUS, HELDOUT, *BATCHES) == []


def test_thirteenth_batch_says_what_each_text_is() -> None:
    items = batch_items(HELDOUT13)
    assert len(items) >= 80
    assert {str(i.get("text_kind")) for i in items.values()} <= {"paste", "title", "prose"}
    assert {str(i.get("scope")) for i in items.values()} == {"python", "non-python"}


def test_thirteenth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    report = shown_blind_figures("thirteenth", HELDOUT13, rule_set, capsys)
    shown_subset_figures(report, HELDOUT13, capsys)
    assert report.overall.cases >= 75
