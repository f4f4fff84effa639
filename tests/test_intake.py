"""scripts/intake.py takes a batch of report files into a corpus folder: what it keeps, what it drops and why, and
that the folder it writes loads as a corpus with each report's fields. Report texts here are real reports' (their
sources beside them)."""

from __future__ import annotations

import importlib
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from dlldoctor.diagnose.accuracy import load_cases

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
CATEGORIES = {"vcredist-missing", "arch-mismatch", "other"}
# https://github.com/TheQwertiest/foo_discord_rich/issues/49
FOOBAR = (
    'Could not load component "foo_discord_rich.fb2k-component": This component was built for a different processor '
    "architecture.\n"
)
FOOBAR_REPORT = {
    "id": "a1",
    "category": "arch-mismatch",
    "source": "https://github.com/TheQwertiest/foo_discord_rich/issues/49",
    "text": FOOBAR,
}
# https://github.com/3ct0s/dystopia-c2/issues/147
WINE = 'wine: failed to open "C:/users/root/AppData/Local/Programs/Python/Python38-32/Scripts/pyinstaller.exe": c0000135\n'


@pytest.fixture(scope="module")
def intake() -> ModuleType:
    sys.path.insert(0, str(SCRIPTS))
    try:
        return importlib.import_module("intake")
    finally:
        sys.path.remove(str(SCRIPTS))


def _report(folder: Path, name: str, **fields: object) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.yaml").write_text(yaml.safe_dump(fields, allow_unicode=True), encoding="utf-8")


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("https://github.com/o/r/issues/12#issuecomment-99", "github.com/o/r/issues/12"),
        ("http://www.GitHub.com/o/r/pull/7/files", "github.com/o/r/pull/7"),
        ("https://stackoverflow.com/questions/123/title/?tab=votes", "stackoverflow.com/questions/123/title"),
    ],
)
def test_a_source_is_compared_without_its_anchors_and_sub_pages(
    intake: ModuleType, url: str, key: str
) -> None:
    assert intake.source_key(url) == key


def test_a_batch_keeps_what_is_new_and_counts_what_it_drops(intake: ModuleType, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    _report(corpus / "old", "x", source="https://github.com/o/taken/issues/1")  # a source the corpus holds
    batch = tmp_path / "batch"
    _report(
        batch,
        "a1",
        **FOOBAR_REPORT,
        text_kind="paste",
        loader_error=True,
        scope="non-python",
        also=["vcredist-missing", "no-such-cause"],
    )
    _report(
        batch,
        "a2",
        id="a2",
        category="vcredist-missing",
        source="https://github.com/3ct0s/dystopia-c2/issues/147",
        text=WINE,
        text_kind="log",
        scope="python",
    )
    _report(
        batch,
        "a3",
        id="a3",
        category="vcredist-missing",
        source="https://github.com/3ct0s/dystopia-c2/issues/148",
        text=WINE,
    )
    _report(
        batch,
        "a4",
        id="a4",
        category="vcredist-missing",
        source="https://github.com/3ct0s/dystopia-c2/issues/149",
        text=WINE,
    )
    _report(
        batch,
        "a5",
        id="a5",
        category="arch-mismatch",
        source="https://github.com/o/taken/issues/1#top",
        text=FOOBAR,
    )
    _report(batch, "a6", id="a6", category="not-a-cause", source="https://example.org/t/1", text=FOOBAR)
    _report(batch, "a7", id="a7", category="arch-mismatch", source="https://example.org/t/2")
    _report(
        batch,
        "a8",
        id="a8",
        category="arch-mismatch",
        source="https://github.com/TheQwertiest/foo_discord_rich/issues/49/",
        text=FOOBAR,
    )
    (batch / "a9.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    out = corpus / "heldoutN"

    counts = intake.take_in(out, [batch], corpus, CATEGORIES)

    assert counts == Counter(
        {
            "written": 9,
            "kept": 3,
            "scored": 3,
            "over the per-repository cap": 1,
            "already in the corpus": 1,
            "unknown category": 1,
            "incomplete": 1,
            "repeated source": 1,
            "unreadable": 1,
        }
    )
    assert sorted(p.name for p in out.glob("*.yaml")) == ["arch-mismatch.yaml", "vcredist-missing.yaml"]
    cases = {c.id: c for c in load_cases(out)}
    assert {i: (c.category, c.text) for i, c in cases.items()} == {
        "a1": ("arch-mismatch", FOOBAR),
        "a2": ("vcredist-missing", WINE),
        "a3": ("vcredist-missing", WINE),
    }
    written = yaml.safe_load((out / "arch-mismatch.yaml").read_text(encoding="utf-8"))["cases"][0]
    assert (written["also"], written["text_kind"], written["scope"]) == (
        ["vcredist-missing"],
        "paste",
        "non-python",
    )
    second = yaml.safe_load((out / "vcredist-missing.yaml").read_text(encoding="utf-8"))["cases"][0]
    assert (second["text_kind"], "also" in second) == ("paste", False)  # an unknown kind is read as a paste


def test_taking_a_batch_in_again_replaces_the_folder_keeps_its_own_sources_and_drops_by_id(
    intake: ModuleType, tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus"
    batch = tmp_path / "batch"
    _report(batch, "a1", **FOOBAR_REPORT)
    out = corpus / "heldoutN"
    first = intake.take_in(out, [batch], corpus, CATEGORIES)
    (out / "stale.yaml").write_text("category: other\ncases: []\n", encoding="utf-8")
    again = intake.take_in(out, [batch], corpus, CATEGORIES)
    assert (first["kept"], again["kept"], sorted(p.name for p in out.glob("*.yaml"))) == (
        1,
        1,
        ["arch-mismatch.yaml"],
    )
    dropped = intake.take_in(out, [batch], corpus, CATEGORIES, frozenset({"a1"}))
    assert (dropped["dropped by id"], dropped["kept"], list(out.glob("*.yaml"))) == (1, 0, [])
