"""Warm scan (every PE file's facts in the cache) vs the cold floor of the same wheel.

    python bench/warm.py [--repeat 5] [--wheels torch,onnxruntime-gpu,nvidia-cublas-cu12]

The cache lives in a temporary folder filled by one cold scan. Figures: ``scan_target`` in-process
through the cache (the goal: <= 0.25x the floor), and the whole ``dlldoctor scan`` command in a new
process (interpreter start, imports, the scan, the diagnosis and the report) for comparison.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import _common as c
from cold import ours

from dlldoctor.cache.pe_facts import default_threads
from dlldoctor.cache.pe_store import FactCache


def bench_wheel(label: str, repeat: int) -> None:
    path = c.wheel(label)
    members = c.pe_members(path)
    threads = default_threads()
    folder = Path(tempfile.mkdtemp(prefix="dlldoctor-warm-cache-"))
    try:
        ours(path, threads, folder)  # cold: fills the cache
        with FactCache.open(folder) as cache:  # type: ignore[union-attr]
            hits = cache.get_many([])
        del hits
        print(f"\n## {label}: {path.name}", flush=True)
        command = [
            sys.executable,
            "-m",
            "dlldoctor",
            "scan",
            str(path),
            "--cache-dir",
            str(folder),
            "-q",
            "--format",
            "json",
        ]
        cli: list[float] = []
        times = c.timed(
            {
                "floor": lambda: c.inflate_floor(path, members),
                "warm": lambda: ours(path, threads, folder),
                "warm cli": lambda: cli.append(c.run_command(command)[0]),
            },
            repeat,
        )
        floor = c.best(times["floor"])
        print(f"  floor: {c.spread(times['floor'])}")
        c.report(
            f"warm scan {label} (in-process)",
            c.best(times["warm"]),
            floor,
            0.25,
            note=c.spread(times["warm"]),
        )
        c.report(
            f"warm `dlldoctor scan` {label} (new process, with diagnosis)",
            min(cli),
            floor,
            None,
            note=c.spread(cli),
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    args = c.arguments(__doc__ or "")
    print(c.machine_line())
    for label in c.selected(args):
        bench_wheel(label, args.repeat)
    c.save(args.json)


if __name__ == "__main__":
    main()
