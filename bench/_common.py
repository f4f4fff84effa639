"""What every benchmark shares: the wheels, interleaved timing, subprocess peak memory, the report lines.

Timing takes the minimum of ``--repeat`` runs, and the figure and its baseline are measured alternately
in the same process, so that load from other work on the machine hits both alike. The minimum is the
figure least disturbed by that load; the median is printed beside it.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # wheelcache: the tests' download cache of real wheels

# (label, spec): the torch wheel of the goals, onnxruntime-gpu, and nvidia wheels (cublas is the big one:
# cublasLt64_12.dll is 669 MB; cuda-runtime is the small one).
WHEELS = {
    "torch": "torch==2.13.0",
    "onnxruntime-gpu": "onnxruntime-gpu==1.31.1",
    "nvidia-cublas-cu12": "nvidia-cublas-cu12==12.9.2.10",
    "nvidia-cuda-runtime-cu12": "nvidia-cuda-runtime-cu12==12.9.79",
}
BENCH_CACHE = Path(os.environ.get("DLLDOCTOR_BENCH_DIR", Path.home() / ".cache" / "dlldoctor-bench"))
RESULTS: list[dict[str, object]] = []


def wheel(label: str) -> Path:
    import wheelcache

    return wheelcache.wheel(WHEELS[label])


def arguments(description: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--repeat", type=int, default=5, help="timed runs of each figure (the minimum counts)"
    )
    parser.add_argument("--wheels", default=",".join(WHEELS), help="comma-separated: " + ", ".join(WHEELS))
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    return parser.parse_args()


def selected(args: argparse.Namespace) -> list[str]:
    return [w for w in args.wheels.split(",") if w]


def pe_members(path: Path) -> list[zipfile.ZipInfo]:
    """The members dlldoctor scans (same selection as the inventory)."""
    from dlldoctor.install.sources import WheelSource

    source = WheelSource(path)
    try:
        names = {e.relpath for e in source.entries()}
        return [info for info in source.zip.infolist() if info.filename in names]
    finally:
        source.close()


def inflate_floor(path: Path, members: list[zipfile.ZipInfo]) -> None:
    """The floor: inflate every PE member with zipfile, front to back, keeping nothing."""
    with zipfile.ZipFile(path) as archive:
        for info in members:
            with archive.open(info) as stream:
                while stream.read(1 << 20):
                    pass


def timed(funcs: dict[str, Callable[[], object]], repeat: int) -> dict[str, list[float]]:
    """Run every function ``repeat`` times, interleaved; return each one's wall times in seconds."""
    times: dict[str, list[float]] = {name: [] for name in funcs}
    for _ in range(repeat):
        for name, func in funcs.items():
            gc.collect()
            start = time.perf_counter()
            func()
            times[name].append(time.perf_counter() - start)
    return times


def best(values: list[float]) -> float:
    return min(values)


def spread(values: list[float]) -> str:
    return f"min {min(values):.3f} s, median {statistics.median(values):.3f} s, n={len(values)}"


def report(
    figure: str, ours: float, baseline: float, goal: float | None, unit: str = "s", note: str = ""
) -> None:
    """One line: the figure, its baseline, the ratio and whether it meets the goal (ratio <= goal)."""
    ratio = ours / baseline if baseline else float("inf")
    verdict = ""
    if goal is not None:
        verdict = f"  {'MEETS' if ratio <= goal else 'MISSES'} goal <= {goal:.2f}x"
    line = f"{figure}: ours {ours:.3f} {unit}, baseline {baseline:.3f} {unit}, ratio {ratio:.2f}x{verdict}"
    print(line + (f"  ({note})" if note else ""), flush=True)
    RESULTS.append(
        {
            "figure": figure,
            "ours": ours,
            "baseline": baseline,
            "ratio": ratio,
            "goal": goal,
            "unit": unit,
            "note": note,
        }
    )


def anchor(name: str, value: float, note: str = "", unit: str = "s") -> None:
    print(f"  anchor {name}: {value:.3f} {unit}" + (f"  ({note})" if note else ""), flush=True)
    RESULTS.append({"anchor": name, "value": value, "unit": unit, "note": note})


def save(path: Path | None) -> None:
    if path is not None:
        path.write_text(json.dumps(RESULTS, indent=2) + "\n")


def run_python(code: str, env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Run ``code`` in a new interpreter: (wall seconds, that child's CPU seconds, its stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **(env or {})},
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def run_command(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the command and its children, exit status)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
        env={**os.environ, **(env or {})},
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode


PEAK_RSS_SNIPPET = """
import resource, sys
def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
"""


def machine_line() -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    from dlldoctor.install.zipmember import INFLATER_NAME

    return (
        f"# {os.cpu_count()} cores, Python {sys.version.split()[0]}, inflater {INFLATER_NAME}, "
        f"load average {load:.2f} at start"
    )
