"""The held-out corpus (corpus/heldout/): accuracy on reports the rules were not written against.

Same machinery as the corpus test (dlldoctor.diagnose.accuracy). Prints top-1/top-3 overall, per category and per
language, the misses, and what the rules say about the cases whose cause lies outside the taxonomy
(`other.yaml`, not scored). Asserts only a modest floor, so today's figure is measured, not pinned.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from dlldoctor.diagnose.accuracy import Case, CaseResult, Report, evaluate, load_cases, run_case
from dlldoctor.kb.ruleset import RuleSet, load_rule_set

ROOT = Path(__file__).resolve().parents[1]
HELDOUT = ROOT / "corpus" / "heldout"
CORPUS = ROOT / "corpus" / "errors"
OUTSIDE = "other"  # the taxonomy key for causes outside the list; no rule can name it, so it is not scored
# `scope:` of reports from native apps (C++, .NET, Go, ...) that hit the same loader errors
NON_PYTHON = "non-python"


@pytest.fixture(scope="module")
def rule_set(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RuleSet]:
    mp = pytest.MonkeyPatch()
    mp.setenv("DLLDOCTOR_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    try:
        yield load_rule_set()
    finally:
        mp.undo()


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return load_cases(HELDOUT)


@pytest.fixture(scope="module")
def report(cases: list[Case], rule_set: RuleSet) -> Report:
    return evaluate([c for c in cases if c.category != OUTSIDE], rule_set)


def _pct(x: float) -> str:
    return f"{100 * x:5.1f} %"


def _raw(folder: Path) -> list[dict[str, object]]:
    items: list[dict[str, object]] = []
    for path in sorted(folder.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        items += [{"category": data["category"], **item} for item in data["cases"]]
    return items


def batch_items(folder: Path) -> dict[str, dict[str, object]]:
    """A labelled folder's cases by id, with every field the collector wrote (scope, text_kind, loader_error)."""
    return {str(item["id"]): item for item in _raw(folder)}


def _squash(text: object) -> str:
    return " ".join(str(text).split())


def overlaps(batch: Path, *others: Path) -> list[str]:
    """Ids of ``batch`` cases whose source, text, or a long part of it, is in one of the ``others``."""
    seen = [item for folder in others for item in _raw(folder)]
    sources = {item.get("source") for item in seen} - {None}
    texts = [_squash(item["text"]) for item in seen]
    found = []
    for item in _raw(batch):
        text = _squash(item["text"])
        if item["source"] in sources or [t for t in texts if t == text or (len(text) >= 40 and text in t)]:
            found.append(str(item["id"]))
    return found


def test_heldout_cases_are_well_formed() -> None:
    taxonomy = yaml.safe_load((ROOT / "rules" / "taxonomy.yaml").read_text(encoding="utf-8"))["categories"]
    items = _raw(HELDOUT)
    ids = [str(item["id"]) for item in items]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for item in items:
        assert item["category"] in taxonomy, item["id"]
        assert str(item.get("source", "")).startswith("http"), (
            f"{item['id']}: every held-out case quotes a report"
        )
        assert str(item.get("note", "")).strip(), f"{item['id']}: the note gives the evidence for the label"
        also = item.get("also") or []
        assert isinstance(also, list)
        assert all(a in taxonomy and a != item["category"] for a in also), item["id"]
        assert item.get("scope") in (None, NON_PYTHON), item["id"]


def test_heldout_shares_no_report_or_text_with_the_corpus() -> None:
    corpus = _raw(CORPUS)
    sources = {item.get("source") for item in corpus} - {None}
    texts = [_squash(item["text"]) for item in corpus]
    for item in _raw(HELDOUT):
        assert item["source"] not in sources, f"{item['id']}: report already in corpus/errors"
        text = _squash(item["text"])
        overlap = [t for t in texts if t == text or text in t or (len(t) >= 40 and t in text)]
        assert not overlap, f"{item['id']}: text overlaps a corpus case"


def test_heldout_size_and_languages(cases: list[Case]) -> None:
    scored = [c for c in cases if c.category != OUTSIDE]
    assert len(scored) >= 80
    assert sum(c.lang != "en" for c in cases) >= 20


def _line(r: CaseResult) -> str:
    return (
        f"  {r.case.id:<30} {r.case.lang:<6} expected {'/'.join(sorted(r.case.expected)):<40} "
        f"got {', '.join(r.ranked[:3]) or '-'}"
    )


def _top_shares(results: list[CaseResult]) -> tuple[float, float]:
    """The shares of ``results`` whose expected cause is first, and among the first three."""
    ranks = [r.rank() for r in results]
    if not ranks:
        return 0.0, 0.0
    top1 = sum(rank == 1 for rank in ranks) / len(ranks)
    top3 = sum(rank is not None and rank <= 3 for rank in ranks) / len(ranks)
    return top1, top3


def _rates(results: list[CaseResult]) -> str:
    top1, top3 = _top_shares(results)
    return f"{len(results):>3}  top-1 {_pct(top1)}  top-3 {_pct(top3)}"


def test_heldout_top3_at_least_60_percent(report: Report, cases: list[Case], rule_set: RuleSet) -> None:
    o, u = report.overall, report.unseen
    native = {str(item["id"]) for item in _raw(HELDOUT) if item.get("scope") == NON_PYTHON}
    lines = [
        "",
        f"held-out: {o.cases} scored cases, top-1 {_pct(o.top1_rate)} ({o.top1}), "
        f"top-3 {_pct(o.top3_rate)} ({o.top3})",
        f"  not containing a rule's example: {u.cases} cases, top-1 {_pct(u.top1_rate)}, top-3 {_pct(u.top3_rate)}",
        "by language:",
    ]
    lines += [
        f"  {lang:<6} {s.cases:>3}  top-1 {_pct(s.top1_rate)}  top-3 {_pct(s.top3_rate)}"
        for lang, s in report.by_language
    ]
    lines.append(f"  non-en {_rates([r for r in report.results if r.case.lang != 'en'])}")
    lines.append("by scope:")
    lines.append(f"  python {_rates([r for r in report.results if r.case.id not in native])}")
    lines.append(f"  native {_rates([r for r in report.results if r.case.id in native])}")
    lines.append("by category:")
    lines += [
        f"  {cat:<22} {s.cases:>3}  top-1 {_pct(s.top1_rate)}  top-3 {_pct(s.top3_rate)}"
        for cat, s in report.by_category
    ]
    lines.append("not at rank 1:")
    lines += [_line(r) for r in report.results if r.rank() != 1]
    lines.append(f"outside the taxonomy ({OUTSIDE}, not scored):")
    for case in cases:
        if case.category == OUTSIDE:
            r = run_case(case, rule_set)
            lines.append(f"  {case.id:<30} {case.lang:<6} got {', '.join(r.ranked[:3]) or '-'}")
    print("\n".join(lines))
    assert o.top3_rate >= 0.60, "\n".join(_line(r) for r in report.misses)


def blind_figures(folder: Path, rule_set: RuleSet) -> tuple[Report, int, int]:
    """A blind batch scored: the report, and how many of its loader errors get no diagnosis, of how many."""
    loader_error = {
        case_id: bool(item.get("loader_error", True)) for case_id, item in batch_items(folder).items()
    }
    report = evaluate([c for c in load_cases(folder) if c.category != OUTSIDE], rule_set)
    loaders = [r for r in report.results if loader_error[r.case.id]]
    return report, sum(1 for r in loaders if not r.ranked), len(loaders)


def shown_blind_figures(
    name: str, folder: Path, rule_set: RuleSet, capsys: pytest.CaptureFixture[str]
) -> Report:
    """Score a blind batch and print its figures (aggregates only, never a case): the one line each batch's
    test shows."""
    report, silent, loaders = blind_figures(folder, rule_set)
    o = report.overall
    with capsys.disabled():
        print(
            f"\n{name} blind batch: {o.cases} cases, top-1 {_pct(o.top1_rate)}, top-3 {_pct(o.top3_rate)}, "
            f"no diagnosis {silent} of {loaders} loader errors; {confident(report)}"
        )
    return report


def confident(report: Report, at_least: float = 0.8) -> str:
    """How often a first cause given at least ``at_least`` confidence is right, as a line of figures."""
    sure = [r for r in report.results if r.ranked and r.confidence >= at_least]
    right = sum(1 for r in sure if r.rank() == 1)
    share = f"{100 * right / len(sure):.0f} %" if sure else "-"
    return f"first cause at {at_least:.0%} or more: {right} of {len(sure)} right ({share})"


def batch_folder(number: int) -> Path:
    return ROOT / "corpus" / f"heldout{number}"


def assert_batch_says_what_each_text_is(number: int, at_least: int) -> None:
    """A numbered batch holds at least ``at_least`` cases, each marked as a paste, a title or prose, and both
    Python and non-Python reports."""
    items = batch_items(batch_folder(number))
    assert len(items) >= at_least
    assert {str(i.get("text_kind")) for i in items.values()} <= {"paste", "title", "prose"}
    assert {str(i.get("scope")) for i in items.values()} == {"python", "non-python"}


def overlaps_with_earlier(number: int) -> list[str]:
    """Ids of ``corpus/heldout<number>`` cases shared with the corpus, corpus/heldout, every batch from heldout2 up
    to the one before it, or corpus/reports (see :func:`overlaps`)."""
    earlier = [batch_folder(n) for n in range(2, number)]
    return overlaps(batch_folder(number), CORPUS, HELDOUT, *earlier, ROOT / "corpus" / "reports")


def shown_batch_figures(
    name: str, number: int, rule_set: RuleSet, capsys: pytest.CaptureFixture[str]
) -> Report:
    """A numbered batch's figures printed (:func:`shown_blind_figures`), then those of its Python reports and of its
    texts that quote the error (:func:`shown_subset_figures`)."""
    folder = batch_folder(number)
    report = shown_blind_figures(name, folder, rule_set, capsys)
    shown_subset_figures(report, folder, capsys)
    return report


def shown_subset_figures(report: Report, folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Print a scored batch's figures again for its Python reports (no `scope:`, or `scope: python`) and for its
    texts that quote the error (`text_kind: paste`), aggregates only."""
    items = batch_items(folder)
    python = [r for r in report.results if items[r.case.id].get("scope") in (None, "python")]
    pasted = [r for r in report.results if items[r.case.id].get("text_kind") == "paste"]

    def line(results: list[CaseResult]) -> str:
        top1, top3 = _top_shares(results)
        return f"{len(results)} cases, top-1 {_pct(top1)}, top-3 {_pct(top3)}"

    with capsys.disabled():
        print(f"  of them Python reports: {line(python)}; texts that quote the error: {line(pasted)}")
