"""`dlldoctor search`: rules ranked by words in any language."""

from __future__ import annotations

import json
import re

import pytest

from dlldoctor.cli import main
from dlldoctor.kb.ruleset import RuleSet
from dlldoctor.kb.search import search, terms


def top(query: str, rule_set: RuleSet, n: int = 3) -> list[str]:
    return [h.rule.id for h in search(query, rule_set)[:n]]


def categories(query: str, rule_set: RuleSet, n: int = 3) -> list[str]:
    return [h.rule.category for h in search(query, rule_set)[:n]]


def test_terms_cut_chinese_into_pairs_and_keep_dll_names() -> None:
    assert terms("页面文件太小") == ["页面", "面文", "文件", "件太", "太小"]
    assert terms("VCRUNTIME140_1.dll entry point") == ["vcruntime140_1.dll", "entry", "point"]
    assert terms("the") == ["the"]
    assert terms("   ") == []


def test_english_words(rule_set: RuleSet) -> None:
    assert categories("vcruntime", rule_set, 1) == ["vcredist-missing"]
    assert "msvcp140-entry-point-not-found" in top("entry point", rule_set, 5)
    assert categories("paging file", rule_set, 2) == ["paging-file", "paging-file"]
    assert categories("OMP Error #15 libiomp5md", rule_set, 1) == ["openmp-duplicate"]


def test_chinese_words(rule_set: RuleSet) -> None:
    assert categories("页面文件太小", rule_set, 1) == ["paging-file"]
    assert "winerror-1455-paging-file" in top("页面文件太小", rule_set, 3)
    assert categories("运行库", rule_set, 1)[0].startswith("vcredist")


def test_a_dll_name_finds_its_family(rule_set: RuleSet) -> None:
    assert categories("cudart64_12.dll", rule_set, 1) == ["cuda-dll-missing"]


def test_nothing_found(rule_set: RuleSet) -> None:
    assert search("zebra giraffe", rule_set) == []


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "页面文件太小"]) == 0
    out = capsys.readouterr().out
    assert re.match(r"winerror-1455-[a-z-]+  \[paging-file\]  .*页面文件", out.splitlines()[0])
    assert main(["search", "--format", "json", "paging", "file"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["version"] == 1 and data["results"][0]["category"] == "paging-file"
    assert main(["search", "zebra"]) == 0
    assert capsys.readouterr().out == "No rule matches 'zebra'.\n"
    assert main(["search", "   "]) == 2
