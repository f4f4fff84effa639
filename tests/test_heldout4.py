"""The fourth blind batch (corpus/heldout4/): resolved public reports, collected blind after the third was
measured, for the next out-of-sample figure. It prints the figures; nobody changes rules because of it."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_heldout import CORPUS, HELDOUT, _pct, blind_figures, confident, overlaps

from dlldoctor.kb.ruleset import RuleSet

ROOT = Path(__file__).resolve().parents[1]
BATCHES = [ROOT / "corpus" / name for name in ("heldout2", "heldout3", "reports")]
HELDOUT4 = ROOT / "corpus" / "heldout4"


def test_fourth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps(HELDOUT4, CORPUS, HELDOUT, *BATCHES) == []


def test_fourth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    report, silent, loaders = blind_figures(HELDOUT4, rule_set)
    o = report.overall
    with capsys.disabled():
        print(
            f"\nfourth blind batch: {o.cases} cases, top-1 {_pct(o.top1_rate)}, top-3 {_pct(o.top3_rate)}, "
            f"no diagnosis {silent} of {loaders} loader errors; {confident(report)}"
        )
    assert o.cases >= 60
