"""Markdown for a GitHub issue: at most 65,536 characters for a dozen targets, each cause once with its
evidence once, the folded parts cut (and named) when they would not fit."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from dlldoctor.formats import scan_markdown
from dlldoctor.scan.result import ScanOptions

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "corpus" / "examples" / "site-packages"


def _results(pe_bin: Path) -> list:  # type: ignore[type-arg]
    from dlldoctor.diagnose.verdicts import DiagnoseWithRules
    from dlldoctor.scan.target import scan_target

    results = [
        scan_target(str(t), ScanOptions(python="3.11")) for t in (EXAMPLE, pe_bin / "x64", pe_bin / "corrupt")
    ]
    DiagnoseWithRules()(results)
    return results


def test_twelve_targets_fit_an_issue_and_say_what_was_left_out(pe_bin: Path) -> None:
    base = _results(pe_bin)
    many = []
    for n in range(12):
        source = base[n % len(base)]
        files = source.files * 60  # a big wheel's table of files
        many.append(
            dataclasses.replace(source, target=f"dist/pkg{n}-1.0-cp311-cp311-win_amd64.whl", files=files)
        )
    text = scan_markdown.render(many)
    assert len(text) <= scan_markdown.GITHUB_LIMIT
    assert text.startswith("### dlldoctor scan: 12 target(s), ")
    assert "_Left out to fit an issue: Files of <code>dist/pkg" in text
    assert "<details><summary>Findings (" in text and "<details><summary>Assumptions</summary>" in text
    # Each cause once, whatever the number of targets it applies to, and its evidence once.
    causes = text.split("#### Causes", 1)[1].split("<details>", 1)[0]
    titles = [line for line in causes.splitlines() if line[:1].isdigit()]
    assert len(titles) == len({t.split("— [`", 1)[1].split("`", 1)[0] for t in titles})
    assert titles
    evidence = next(d for r in base for d in r.diagnoses).evidence[0]
    assert causes.count(evidence) == 1
    assert "`dist/pkg1-1.0-cp311-cp311-win_amd64.whl`, `dist/pkg4-1.0-cp311-cp311-win_amd64.whl`" in causes


def test_small_report_keeps_everything(pe_bin: Path) -> None:
    text = scan_markdown.render(_results(pe_bin)[1:])
    assert "Left out" not in text
    assert f"| `{pe_bin / 'x64'}` | ✗ " in text
    assert "<details><summary>Files of <code>" in text
    assert "https://github.com/dlldoctor/dlldoctor/blob/main/docs/rules/" in text
