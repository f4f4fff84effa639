"""The fourth blind batch (corpus/heldout4/): resolved public reports, collected blind after the third was
measured, for the next out-of-sample figure. It prints the figures; nobody changes rules because of it."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_heldout import CORPUS, HELDOUT, overlaps, shown_blind_figures

from dlldoctor.kb.ruleset import RuleSet

ROOT = Path(__file__).resolve().parents[1]
BATCHES = [ROOT / "corpus" / name for name in ("heldout2", "heldout3", "reports")]
HELDOUT4 = ROOT / "corpus" / "heldout4"


def test_fourth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps(HELDOUT4, CORPUS, HELDOUT, *BATCHES) == []


def test_fourth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    o = shown_blind_figures("fourth", HELDOUT4, rule_set, capsys).overall
    assert o.cases >= 60
