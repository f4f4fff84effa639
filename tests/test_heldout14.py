"""The fourteenth blind batch (corpus/heldout14/): resolved public reports collected blind at the end of the eighth
round, after its last change to the engine and the rules, by three collectors at once (Python processes, native
programs, other languages), and measured once on that final state (43d026e): the next round's before-figure. It
prints the figures (and the same for its Python reports and for texts that quote the error, aggregates only);
nobody changes rules because of it."""

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
        "heldout13",
        "reports",
    )
]
HELDOUT14 = ROOT / "corpus" / "heldout14"


def test_fourteenth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps(HELDOUT14, CORPUS, HELDOUT, *BATCHES) == []


def test_fourteenth_batch_says_what_each_text_is() -> None:
    items = batch_items(HELDOUT14)
    assert len(items) >= 70  # short of 80: the search budget ran out for two collectors
    assert {str(i.get("text_kind")) for i in items.values()} <= {"paste", "title", "prose"}
    assert {str(i.get("scope")) for i in items.values()} == {"python", "non-python"}


def test_fourteenth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    report = shown_blind_figures("fourteenth", HELDOUT14, rule_set, capsys)
    shown_subset_figures(report, HELDOUT14, capsys)
    assert report.overall.cases >= 65
