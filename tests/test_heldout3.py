"""The third blind batch (corpus/heldout3/): resolved public reports, collected blind, never tuned on.

It prints top-1, top-3 (distinct categories) and how often a loader error gets no diagnosis at all. The
floors are low on purpose: the test measures rather than pins. Nobody changes rules because of it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_heldout import CORPUS, HELDOUT, overlaps, shown_blind_figures

from dlldoctor.kb.ruleset import RuleSet

ROOT = Path(__file__).resolve().parents[1]
HELDOUT2 = ROOT / "corpus" / "heldout2"
HELDOUT3 = ROOT / "corpus" / "heldout3"
REPORTS = ROOT / "corpus" / "reports"  # training reports (issue 11): must share nothing with the blind batch


def test_third_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps(HELDOUT3, CORPUS, HELDOUT, HELDOUT2, REPORTS) == []


def test_third_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    o = shown_blind_figures("third", HELDOUT3, rule_set, capsys).overall
    assert o.cases >= 100
    assert o.top3_rate >= 0.3
