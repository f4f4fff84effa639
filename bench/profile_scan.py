"""Where a scan's time goes: wall time per phase, measured by wrapping the functions that do the work.

    python bench/profile_scan.py TARGET [--threads N] [--cache DIR] [--repeat 3]

TARGET is a wheel, a folder, or one of the bench labels (torch, onnxruntime-gpu, ... ; add ``:tree`` for
the unpacked wheel of ``bench/tree.py``). Phases overlap when reads run on threads: the per-file lines are
the time each reading thread spent, the others are the main thread's. The best (least disturbed) of
``--repeat`` runs is printed.
"""

from __future__ import annotations

import argparse
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import _common as c

from dlldoctor.cache import pe_facts as catalog_module
from dlldoctor.cache.pe_facts import Catalog
from dlldoctor.cache.pe_store import FactCache
from dlldoctor.install import metadata as installfacts
from dlldoctor.pe import lief_backend as pe_lief
from dlldoctor.pe import read as pe
from dlldoctor.scan import process as scan_process
from dlldoctor.scan import target as scan
from dlldoctor.scan.result import ScanOptions
from dlldoctor.scan.target import scan_target

TIMES: dict[str, float] = defaultdict(float)
_LOCK = threading.Lock()


def timed(owner: Any, name: str, label: str) -> None:
    original: Callable[..., Any] = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            with _LOCK:
                TIMES[label] += time.perf_counter() - start

    setattr(owner, name, wrapper)


def install_timers() -> None:
    timed(scan, "open_target", "main: open target (zip central directory)")
    timed(scan, "InstallLayout", "main: layout")
    timed(scan, "read_install_facts", "main: install facts (RECORD, dist-info)")
    timed(scan, "build_environment", "main: environment")
    timed(scan_process.ProcessModel, "run", "main: loader model")
    timed(scan, "_collect", "main: findings")
    timed(catalog_module.Catalog, "facts", "main: waiting for facts")
    timed(pe, "read_compact", "reads: read_compact (inflate/read + keep sections)")  # as read_pe sees it
    timed(pe_lief, "facts", "reads: pe_lief.facts (lief parse + Python conversion)")
    timed(catalog_module, "encode", "reads: encode cache rows")
    timed(installfacts, "read_install_facts", "(install facts, any caller)")


def resolve(target: str) -> str:
    label, _, tree = target.partition(":")
    if label in c.WHEELS:
        path = c.wheel(label)
        if tree:
            from tree import unpacked

            return str(unpacked(path))
        return str(path)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("target")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--cache", type=Path, help="scan through this cache folder (warm if filled)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    target = resolve(args.target)
    scan_target(target, ScanOptions(), Catalog(threads=1))  # imports, page cache
    install_timers()
    best: dict[str, float] | None = None
    best_wall = float("inf")
    for _ in range(args.repeat):
        TIMES.clear()
        cache = FactCache.open(args.cache) if args.cache else None
        start = time.perf_counter()
        with Catalog(cache, threads=args.threads) as catalog:
            scan_target(target, ScanOptions(), catalog)
        wall = time.perf_counter() - start
        if cache is not None:
            cache.close()
        if wall < best_wall:
            best_wall, best = wall, dict(TIMES)
    print(c.machine_line())
    print(f"{target}: wall {best_wall:.3f} s (best of {args.repeat})")
    for label, seconds in sorted((best or {}).items()):
        print(f"  {seconds:7.3f} s  {label}")


if __name__ == "__main__":
    main()
