"""The eleventh blind batch (corpus/heldout11/): resolved public reports collected blind at the end of the
seventh round, after heldout10 was measured, and measured once on the commit its collection started from
(cff815b) and once after the work that followed. It prints the figures (and the same figures for its Python
reports and for texts that quote the error, aggregates only); nobody changes rules because of it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from test_heldout import CORPUS, HELDOUT, OUTSIDE, _pct, overlaps, shown_blind_figures

from dlldoctor.diagnose.accuracy import CaseResult
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
        "reports",
    )
]
HELDOUT11 = ROOT / "corpus" / "heldout11"


def _items() -> dict[str, dict]:  # type: ignore[type-arg]
    return {
        str(item["id"]): item
        for path in sorted(HELDOUT11.glob("*.yaml"))
        for item in yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]
    }


def test_eleventh_batch_shares_nothing_with_the_other_corpora() -> None:
    assert overlaps(HELDOUT11, CORPUS, HELDOUT, *BATCHES) == []


def test_eleventh_batch_says_what_each_text_is() -> None:
    items = _items()
    assert len(items) >= 70  # short of 80: the stored threads are nearly all taken
    assert {str(i.get("text_kind")) for i in items.values()} == {"paste", "title"}


def _subset(results: list[CaseResult]) -> str:
    ranks = [r.rank() for r in results]
    n = len(ranks) or 1
    top1 = sum(rank == 1 for rank in ranks) / n
    top3 = sum(rank is not None and rank <= 3 for rank in ranks) / n
    return f"{len(ranks)} cases, top-1 {_pct(top1)}, top-3 {_pct(top3)}"


def test_eleventh_batch_figures(rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    report = shown_blind_figures("eleventh", HELDOUT11, rule_set, capsys)
    items = _items()
    results = [r for r in report.results if r.case.category != OUTSIDE]
    python = [r for r in results if items[r.case.id].get("scope") is None]
    pasted = [r for r in results if items[r.case.id].get("text_kind") == "paste"]
    with capsys.disabled():
        print(f"  of them Python reports: {_subset(python)}; texts that quote the error: {_subset(pasted)}")
    assert report.overall.cases >= 65
