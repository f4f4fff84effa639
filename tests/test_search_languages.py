"""`search` finds the rules of an error code from its Windows message in every language the message table
knows, and answers in Chinese only for Chinese."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from dlldoctor.cli.search import query_language
from dlldoctor.kb.ruleset import RuleSet
from dlldoctor.kb.search import message_codes, search


def test_every_language_of_the_message_table_finds_the_paging_file_rules(rule_set: RuleSet) -> None:
    texts = [t for t in rule_set.messages.codes if t.code == 1455 and t.lang]
    langs = {t.lang for t in texts}
    assert {"en", "zh-CN", "zh-TW", "ja", "ko", "ru", "fr", "de", "es"} <= langs
    for template in texts:
        hits = search(template.text, rule_set, limit=3)
        assert hits, template.lang
        assert hits[0].rule.category == "paging-file", (template.lang, [h.rule.id for h in hits])


def test_one_word_of_a_localized_message_is_enough(rule_set: RuleSet) -> None:
    assert message_codes("Auslagerungsdatei", rule_set)[0] == [1455]
    assert search("Auslagerungsdatei", rule_set, limit=1)[0].rule.category == "paging-file"
    codes, _ = message_codes("指定されたモジュールが見つかりません", rule_set)
    assert codes == [126]
    hits = search("指定されたモジュールが見つかりません", rule_set, limit=5)
    assert hits and all(126 in {c for m in h.rule.match.matchers() for c in m.codes} for h in hits), [
        h.rule.id for h in hits
    ]


def test_the_answer_language() -> None:
    assert query_language("页面文件太小") == "zh"
    assert query_language("指定されたモジュールが見つかりません") == "en"  # Japanese: kana
    assert query_language("지정된 모듈을 찾을 수 없습니다") == "en"
    assert query_language("Auslagerungsdatei") == "en"


@pytest.mark.parametrize(
    "query", ["指定されたモジュールが見つかりません", "Le module spécifié est introuvable"]
)
def test_cli_gives_english_titles_for_a_japanese_or_french_message(query: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dlldoctor", "search", query, "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    data = json.loads(done.stdout)
    assert data["results"]
    assert not any("\u4e00" <= ch <= "\u9fff" for r in data["results"] for ch in r["title"])
