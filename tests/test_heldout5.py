"""The fifth batch (corpus/heldout5/): resolved public reports collected blind after issue 11's rule work, for
one more out-of-sample figure; the sixth round's development set, and counted in the priors since the seventh
(diagnose/priors_build.py), so the figures it prints are in-sample (scripts/measure.py --loo gives the
leave-one-out ones)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_heldout import CORPUS, HELDOUT, overlaps, shown_blind_figures

from dlldoctor.kb.ruleset import RuleSet

ROOT = Path(__file__).resolve().parents[1]
BATCHES = [ROOT / "corpus" / name for name in ("heldout2", "heldout3", "heldout4", "reports")]
HELDOUT5 = ROOT / "corpus" / "heldout5"


def test_fifth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps(HELDOUT5, CORPUS, HELDOUT, *BATCHES) == []


def test_fifth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    o = shown_blind_figures("fifth", HELDOUT5, rule_set, capsys).overall
    assert o.cases >= 70
