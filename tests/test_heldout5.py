"""The fifth blind batch (corpus/heldout5/): resolved public reports collected blind after issue 11's rule
work, for one more out-of-sample figure. It prints the figures; nobody changes rules because of it."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_heldout import CORPUS, HELDOUT, _pct, blind_figures, confident, overlaps

from dlldoctor.kb.ruleset import RuleSet

ROOT = Path(__file__).resolve().parents[1]
BATCHES = [ROOT / "corpus" / name for name in ("heldout2", "heldout3", "heldout4", "reports")]
HELDOUT5 = ROOT / "corpus" / "heldout5"


def test_fifth_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps(HELDOUT5, CORPUS, HELDOUT, *BATCHES) == []


def test_fifth_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    report, silent, loaders = blind_figures(HELDOUT5, rule_set)
    o = report.overall
    with capsys.disabled():
        print(
            f"\nfifth blind batch: {o.cases} cases, top-1 {_pct(o.top1_rate)}, top-3 {_pct(o.top3_rate)}, "
            f"no diagnosis {silent} of {loaders} loader errors; {confident(report)}"
        )
    assert o.cases >= 70
