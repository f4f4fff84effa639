"""Cold and warm scans of an unpacked wheel (a folder, as site-packages holds it) vs a naive lief loop.

    python bench/tree.py [--repeat 5] [--wheels torch]

The wheel is unpacked once into ``~/.cache/dlldoctor-bench/`` (modification times set an hour back, as
an installed tree's are). The naive loop is what a first scanner would write: find the ``.dll``/``.pyd``/``.exe``
files with ``os.walk``, ``lief.PE.parse(path)`` each with default settings, then put the export and
import names into Python sets. The goals: cold scan <= 0.5x the naive loop; warm (cached) scan <= 0.25x the wheel's floor.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
import zipfile
from pathlib import Path

import _common as c

from dlldoctor.cache.pe_facts import Catalog, default_threads
from dlldoctor.cache.pe_store import FactCache
from dlldoctor.scan.result import ScanOptions
from dlldoctor.scan.target import scan_target


def unpacked(path: Path) -> Path:
    dest = c.BENCH_CACHE / "trees" / path.stem
    marker = dest / ".complete"
    if not marker.exists():
        shutil.rmtree(dest, ignore_errors=True)
        with zipfile.ZipFile(path) as archive:
            archive.extractall(dest)
        past = time.time() - 3600
        for root, _dirs, files in os.walk(dest):
            for name in files:
                os.utime(Path(root) / name, (past, past))
        marker.write_text("")
    return dest


def pe_files(tree: Path) -> list[Path]:
    from dlldoctor.install.sources import FolderSource

    return [tree / e.relpath for e in FolderSource(tree).entries()]


def naive_lief(tree: Path) -> None:
    """Find the PE files by name (os.walk), lief-parse each with default settings, take the names."""
    import lief

    for file in naive_files(tree):
        binary = lief.PE.parse(str(file))
        if binary is None:
            continue
        _ = {str(e.name) for e in binary.get_export().entries} if binary.has_exports else set()
        _ = {str(e.name) for lib in binary.imports for e in lib.entries if not e.is_ordinal}


def naive_files(tree: Path) -> list[Path]:
    return [
        Path(root) / name
        for root, _dirs, names in os.walk(tree)
        for name in names
        if name.lower().endswith((".dll", ".pyd", ".exe"))
    ]


def ours(tree: Path, cache_dir: Path | None = None) -> None:
    cache = FactCache.open(cache_dir) if cache_dir is not None else None
    try:
        with Catalog(cache, threads=default_threads()) as catalog:
            scan_target(str(tree), ScanOptions(), catalog)
    finally:
        if cache is not None:
            cache.close()


def bench_wheel(label: str, repeat: int) -> None:
    path = c.wheel(label)
    tree = unpacked(path)
    files = pe_files(tree)
    assert len(files) == len(naive_files(tree)), "the naive loop must parse the same files"
    members = c.pe_members(path)
    print(f"\n## {label} unpacked: {tree} ({len(files)} PE files)", flush=True)
    folder = Path(tempfile.mkdtemp(prefix="dlldoctor-tree-cache-"))
    try:
        ours(tree)
        naive_lief(tree)  # warm-up: imports, OS page cache
        ours(tree, folder)  # fills the cache
        times = c.timed(
            {
                "naive lief": lambda: naive_lief(tree),
                "ours cold": lambda: ours(tree),
                "ours warm": lambda: ours(tree, folder),
                "floor": lambda: c.inflate_floor(path, members),
            },
            repeat,
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    c.report(
        f"cold scan {label} tree vs naive lief loop",
        c.best(times["ours cold"]),
        c.best(times["naive lief"]),
        0.5,
        note=c.spread(times["ours cold"]),
    )
    c.report(
        f"warm scan {label} tree vs the wheel's cold floor",
        c.best(times["ours warm"]),
        c.best(times["floor"]),
        0.25,
        note=c.spread(times["ours warm"]),
    )


def main() -> None:
    args = c.arguments(__doc__ or "")
    print(c.machine_line())
    for label in c.selected(args):
        bench_wheel(label, args.repeat)
    c.save(args.json)


if __name__ == "__main__":
    main()
