"""The eighth blind batch (corpus/heldout8/): resolved public reports collected blind at the end of the sixth round
of rule work and measured once at intake, on that round's last commit. It is short of 80 cases (the stored
threads are nearly all taken), so no round used it as its fresh batch. It prints the figures; nobody changes
rules because of it. Counted in the priors since the eighth round (diagnose/priors_build.py), so the figures it
prints now are in-sample; scripts/measure.py --loo gives the leave-one-out ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_heldout import CORPUS, HELDOUT, overlaps, shown_blind_figures

from dlldoctor.kb.ruleset import RuleSet

ROOT = Path(__file__).resolve().parents[1]
BATCHES = [
    ROOT / "corpus" / name
    for name in ("heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "reports")
]
HELDOUT8 = ROOT / "corpus" / "heldout8"


def test_eighth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps(HELDOUT8, CORPUS, HELDOUT, *BATCHES) == []


def test_eighth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    o = shown_blind_figures("eighth", HELDOUT8, rule_set, capsys).overall
    assert o.cases >= 30  # short of 80: it needs topping up before it can be a round's fresh batch
