"""Take a batch of resolved public reports into the corpus, one YAML file per report, without reading them.

    python scripts/intake.py --check URL [URL ...]          # "new URL" or "taken URL" for each
    python scripts/intake.py [--drop ID,ID] corpus/heldoutN FOLDER [FOLDER ...]

Each report file holds id, category (a key of rules/taxonomy.yaml), source, and text, and may hold also, lang,
confidence, text_kind (paste, prose or title), loader_error, scope (python or non-python) and note. A report is
dropped when it lacks one of the four, names an unknown category, repeats a source already in the corpus or in the
batch, or is a third from one repository; ``--drop`` leaves out reports by id (those whose text an earlier set
already holds: ``overlaps_with_earlier(N)`` in tests/test_heldout.py names them). What is kept is written one file per category, as the corpus holds it;
only the counts are printed, so that whoever takes the batch in has read none of it.
"""

from __future__ import annotations

import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
PER_REPOSITORY = 2
KINDS = ("paste", "prose", "title")
_SOURCE_LINE = re.compile(r"^\s*-?\s*source:\s*(\S+)")


def source_key(url: str) -> str:
    """A source as it is compared: no scheme, "www.", query, fragment or trailing slash; an issue, pull request or
    discussion by its number alone (its comment anchors and sub-pages dropped)."""
    u = url.strip().strip("'\"").lower()
    u = re.sub(r"^[a-z]+://", "", u)
    u = re.sub(r"^www\.", "", u)
    u = u.split("#")[0].split("?")[0].rstrip("/")
    return re.sub(r"/(issues|pull|discussions)/(\d+).*$", r"/\1/\2", u)


def known_sources(corpus: Path, leave_out: Path | None = None) -> set[str]:
    """Every source named under ``corpus`` (but not under ``leave_out``, the folder being written)."""
    seen = set()
    for path in corpus.rglob("*.yaml"):
        if leave_out is not None and leave_out in path.parents:
            continue
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            m = _SOURCE_LINE.match(line)
            if m:
                seen.add(source_key(m.group(1)))
    return seen


class _Block(str):
    """A text written as a literal block."""


def _block(dumper: yaml.SafeDumper, text: _Block) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style="|")


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Block, _block)


def _item(report: dict[str, Any], category: str, categories: set[str]) -> dict[str, Any]:
    text = str(report["text"]).replace("\r\n", "\n").replace("\t", "    ")
    text = "\n".join(line.rstrip() for line in text.split("\n")).strip("\n") + "\n"
    item: dict[str, Any] = {
        "id": str(report["id"]),
        "lang": str(report.get("lang") or "en"),
        "source": str(report["source"]),
        "confidence": str(report.get("confidence") or "medium"),
        "text_kind": report.get("text_kind") if report.get("text_kind") in KINDS else "paste",
        "loader_error": bool(report.get("loader_error")),
        "scope": str(report.get("scope") or "python"),
        "note": str(report.get("note") or "").strip(),
    }
    also = [a for a in report.get("also") or [] if a in categories and a != category]
    if also:
        item["also"] = also
    item["text"] = _Block(text)
    return item


def take_in(
    out: Path, folders: list[Path], corpus: Path, categories: set[str], drop: frozenset[str] = frozenset()
) -> Counter[str]:
    """Write the kept reports of ``folders`` into ``out``, one file per category; the counts of what was kept and why
    the rest was dropped."""
    counts: Counter[str] = Counter()
    known = known_sources(corpus, leave_out=out)
    seen: set[str] = set()
    per_repository: Counter[str] = Counter()
    kept: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for path in sorted(p for folder in folders for p in folder.glob("*.yaml")):
        counts["written"] += 1
        try:
            report = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (yaml.YAMLError, UnicodeDecodeError):
            counts["unreadable"] += 1
            continue
        if not isinstance(report, dict) or not all(
            report.get(k) for k in ("id", "category", "source", "text")
        ):
            counts["incomplete"] += 1
            continue
        if str(report["id"]) in drop:
            counts["dropped by id"] += 1
            continue
        category = report["category"]
        if category not in categories:
            counts["unknown category"] += 1
            continue
        key = source_key(str(report["source"]))
        if key in known:
            counts["already in the corpus"] += 1
            continue
        if key in seen:
            counts["repeated source"] += 1
            continue
        repository = re.match(r"github\.com/([^/]+/[^/]+)", key)
        if repository:
            if per_repository[repository.group(1)] >= PER_REPOSITORY:
                counts["over the per-repository cap"] += 1
                continue
            per_repository[repository.group(1)] += 1
        seen.add(key)
        kept[category].append(_item(report, category, categories))
        counts["kept"] += 1
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.yaml"):
        old.unlink()
    for category, items in sorted(kept.items()):
        items.sort(key=lambda x: x["id"])
        body = yaml.dump(
            {"category": category, "cases": items},
            Dumper=_Dumper,
            allow_unicode=True,
            sort_keys=False,
            width=120,
        )
        (out / f"{category}.yaml").write_text(body, encoding="utf-8")
    counts["scored"] = sum(len(v) for k, v in kept.items() if k != "other")
    return counts


def main(argv: list[str]) -> int:
    corpus = ROOT / "corpus"
    if argv[:1] == ["--check"]:
        known = known_sources(corpus)
        for url in argv[1:]:
            print(("taken " if source_key(url) in known else "new ") + url)
        return 0
    drop: frozenset[str] = frozenset()
    if argv[:1] == ["--drop"] and len(argv) > 1:
        drop = frozenset(filter(None, argv[1].split(",")))
        argv = argv[2:]
    if len(argv) < 2:
        print("\n".join(__doc__.strip().splitlines()[2:4]), file=sys.stderr)
        return 2
    categories = set(
        yaml.safe_load((ROOT / "rules" / "taxonomy.yaml").read_text(encoding="utf-8"))["categories"]
    )
    counts = take_in(Path(argv[0]), [Path(a) for a in argv[1:]], corpus, categories, drop)
    print(", ".join(f"{k}: {v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
