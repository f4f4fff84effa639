"""The training reports (corpus/reports/): well formed, each a public report, none shared with the other corpora."""

from __future__ import annotations

from pathlib import Path

import yaml
from test_heldout import CORPUS, HELDOUT, NON_PYTHON, _raw, overlaps

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "corpus" / "reports"
HELDOUT2 = ROOT / "corpus" / "heldout2"


def test_reports_are_well_formed() -> None:
    taxonomy = yaml.safe_load((ROOT / "rules" / "taxonomy.yaml").read_text(encoding="utf-8"))["categories"]
    items = _raw(REPORTS)
    ids = [str(item["id"]) for item in items]
    assert len(ids) == len(set(ids)) and len(ids) >= 20
    for item in items:
        assert item["category"] in taxonomy and item["category"] != "other", item["id"]
        assert str(item["id"]).startswith(f"rep-{item['category']}-"), item["id"]
        assert str(item.get("source", "")).startswith("https://"), item["id"]
        assert str(item.get("note", "")).strip(), item["id"]
        assert all(a in taxonomy and a != item["category"] for a in item.get("also") or []), item["id"]
        assert item.get("scope") in (None, NON_PYTHON), item["id"]


def test_reports_share_no_report_or_text_with_the_other_corpora() -> None:
    assert overlaps(REPORTS, CORPUS, HELDOUT, HELDOUT2) == []
