"""The labelled corpus: top-1/top-3 accuracy (fails below 90 % top-3), and no alarms on healthy texts."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from dlldoctor.diagnose.accuracy import Report, evaluate, load_cases
from dlldoctor.formats.accuracy import render_markdown, render_summary
from dlldoctor.kb.ruleset import load_rule_set

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus" / "errors"

# Healthy texts on which an error-level rule is known to fire, each reviewed: {case id: (rules, why)}.
KNOWN_FALSE_POSITIVES: dict[str, tuple[tuple[str, ...], str]] = {}


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Report:
    mp = pytest.MonkeyPatch()
    mp.setenv("DLLDOCTOR_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    try:
        return evaluate(load_cases(CORPUS), load_rule_set())
    finally:
        mp.undo()


def test_corpus_size_and_languages(report: Report) -> None:
    langs = dict(report.by_language)
    assert report.overall.cases >= 200
    assert langs["zh-CN"].cases + langs.get("zh-TW", langs["zh-CN"]).cases >= 40
    assert sum(s.cases for lang, s in langs.items() if lang not in ("en", "zh-CN", "zh-TW")) >= 25
    assert len(report.healthy) >= 20


def test_top3_accuracy_at_least_90_percent(report: Report) -> None:
    print("\n" + render_summary(report))
    misses = [
        f"{r.case.id}: expected {'/'.join(sorted(r.case.expected))}, got {', '.join(r.ranked[:3]) or '-'}"
        for r in report.misses
    ]
    assert report.overall.top3_rate >= 0.90, "\n".join(misses)


def test_every_language_reaches_80_percent_top3(report: Report) -> None:
    weak = {lang: round(s.top3_rate, 3) for lang, s in report.by_language if s.top3_rate < 0.80}
    assert weak == {}


def test_no_error_level_rule_fires_on_healthy_texts(report: Report) -> None:
    fired = {r.case.id: r.error_rules for r in report.false_alarms}
    known = {case: rules for case, (rules, _) in KNOWN_FALSE_POSITIVES.items()}
    assert fired == known


def test_published_accuracy_is_up_to_date(report: Report) -> None:
    import yaml

    path = ROOT / "docs" / "accuracy.md"
    measurements = yaml.safe_load((ROOT / "corpus" / "measurements.yaml").read_text(encoding="utf-8"))
    assert path.read_text(encoding="utf-8") == render_markdown(report, measurements), (
        "regenerate with: dlldoctor rules accuracy --out docs/accuracy.md"
    )


def test_a_second_category_written_as_a_string_counts_as_one_category(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(
        "category: broken-release\ncases:\n"
        "  - {id: a1, text: x, also: mixed-install}\n"
        "  - {id: a2, text: y, also: [dll-shadowing, arch-mismatch]}\n",
        encoding="utf-8",
    )
    assert [c.expected for c in load_cases(tmp_path)] == [
        frozenset({"broken-release", "mixed-install"}),
        frozenset({"broken-release", "dll-shadowing", "arch-mismatch"}),
    ]


def test_every_labelled_case_names_taxonomy_categories_only() -> None:
    root = Path(__file__).resolve().parents[1]
    taxonomy = set(
        yaml.safe_load((root / "rules" / "taxonomy.yaml").read_text(encoding="utf-8"))["categories"]
    )
    folders = sorted(p for p in (root / "corpus").iterdir() if p.is_dir() and list(p.glob("*.yaml")))
    assert len(folders) >= 10
    bad = [
        c.id
        for folder in folders
        if folder.name not in ("examples", "pe", "sweep")
        for c in load_cases(folder)
        if not c.expected <= taxonomy
    ]
    assert bad == []


@pytest.mark.parametrize(
    "content",
    [
        "blind:\n- set: x\n  note: 'a quote's end'\n",
        "blind: 5\n",
        "blind:\n- 3\n",
        "blind:\n- set: x\n  before: 7\n",
    ],
)
def test_a_broken_measurements_file_is_a_one_line_error(content: str, tmp_path: Path) -> None:
    from clirun import run_dlldoctor

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "vcredist-missing.yaml").write_text(
        (ROOT / "corpus" / "errors" / "vcredist-missing.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (tmp_path / "measurements.yaml").write_text(content, encoding="utf-8")
    done = run_dlldoctor("rules", "accuracy", "--corpus", str(corpus), "--out", str(tmp_path / "a.md"))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("dlldoctor: error: ")
    assert "measurements.yaml" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "a.md").exists()
