"""The sixth blind batch (corpus/heldout6/): resolved public reports collected blind at the start of the fourth
round of rule work, measured once before it and once after. It prints the figures; nobody changes rules because
of it. Counted in the priors since the eighth round (diagnose/priors_build.py), so the figures it prints now are
in-sample; scripts/measure.py --loo gives the leave-one-out ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_heldout import CORPUS, HELDOUT, overlaps, shown_blind_figures

from dlldoctor.kb.ruleset import RuleSet

ROOT = Path(__file__).resolve().parents[1]
BATCHES = [ROOT / "corpus" / name for name in ("heldout2", "heldout3", "heldout4", "heldout5", "reports")]
HELDOUT6 = ROOT / "corpus" / "heldout6"


def test_sixth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps(HELDOUT6, CORPUS, HELDOUT, *BATCHES) == []


def test_sixth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    o = shown_blind_figures("sixth", HELDOUT6, rule_set, capsys).overall
    assert o.cases >= 80
