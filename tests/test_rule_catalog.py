"""docs/rules/ is generated from the rules and must be up to date."""

from __future__ import annotations

from pathlib import Path

import pytest

from dlldoctor.cli import main
from dlldoctor.formats.rule_catalog import check_catalog, render_catalog
from dlldoctor.kb.ruleset import load_rule_set

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DLLDOCTOR_CACHE_DIR", str(tmp_path / "cache"))


def test_catalog_is_up_to_date() -> None:
    stale = check_catalog(load_rule_set(), ROOT / "docs" / "rules")
    assert stale == [], "regenerate with: dlldoctor rules catalog --out docs/rules"


def test_catalog_lists_every_rule_in_both_languages() -> None:
    rule_set = load_rule_set()
    files = render_catalog(rule_set)
    index = files["README.md"]
    for rule in rule_set.rules:
        assert f"[`{rule.id}`]({rule.category}.md#{rule.id})" in index
        page = files[f"{rule.category}.md"]
        assert rule.title.en in page and rule.title.zh in page


def test_check_finds_a_stale_or_extra_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rules"
    assert main(["rules", "catalog", "--out", str(out)]) == 0
    assert main(["rules", "catalog", "--out", str(out), "--check"]) == 0
    (out / "paging-file.md").write_text("edited by hand\n", encoding="utf-8")
    (out / "stray.md").write_text("x\n", encoding="utf-8")
    assert main(["rules", "catalog", "--out", str(out), "--check"]) == 1
    assert check_catalog(load_rule_set(), out) == ["paging-file.md", "stray.md"]
    assert main(["rules", "catalog", "--out", str(out)]) == 0
    assert check_catalog(load_rule_set(), out) == []
