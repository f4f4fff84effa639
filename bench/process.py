"""The commands a user runs, as whole new processes, each as a ratio to the floor measured in the same run.

    python bench/process.py [--repeat 5] [--wheels torch] [--anchors] [--json out.json]

For each wheel, interleaved, ``--repeat`` times:

- the floor: a new interpreter that inflates every PE member of the wheel with zipfile (nothing kept);
- cold: ``dlldoctor scan W -q --format json`` with an empty cache folder (a new one each run), output
  written to a file; its peak RSS too;
- warm: the same command with the cache folder a first run filled (its answer remembered);
- facts: the same, with the remembered answers removed before each run (PE facts and rule set cached,
  as for a wheel scanned before with other output settings), no goal;
- cold-here: the cold command with ``DLLDOCTOR_OFFLOAD=0``, every member inflated in the scanning process
  itself (no child process for the biggest one), no goal;

and ``dlldoctor explain TEXT`` (rule cache warm) in seconds. The package's bytecode is compiled first, as
pip does at install (a checkout run with ``PYTHONDONTWRITEBYTECODE`` would compile every module anew in
every process). The peak RSS of a cold scan is its own (``wait4``); one more cold run, untimed, samples the
summed RSS of the scan and the child process that inflates its biggest member. Each figure is printed as min / median / max
of the runs; the ratio uses the minimum of both sides. ``--anchors`` adds ``delvewheel show`` once.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _common as c

FLOOR = """
import sys, zipfile
names = set(sys.argv[2:]) if len(sys.argv) > 2 else None
with zipfile.ZipFile(sys.argv[1]) as archive:
    for info in archive.infolist():
        if info.filename in names:
            with archive.open(info) as stream:
                while stream.read(1 << 20):
                    pass
"""
GOALS = {"cold": 1.2, "warm": 0.2}
EXPLAIN_GOAL = 0.15  # seconds
PEAK_GOAL = 300.0  # MB
TEXT = 'OSError: [WinError 126] The specified module could not be found. Error loading "torch\\lib\\c10.dll"'


def _run(command: list[str], env: dict[str, str], out: Path) -> tuple[float, float]:
    """(wall seconds, peak RSS of the process in MB); output to ``out``, as a user's redirect would."""
    with out.open("wb") as fh:
        start = time.perf_counter()
        proc = subprocess.Popen(command, stdout=fh, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)}: exit {proc.returncode}")
    return wall, usage.ru_maxrss / 1024


def _spread(values: list[float], unit: str = "s") -> str:
    return (
        f"min {min(values):.3f} {unit}, median {statistics.median(values):.3f} {unit}, "
        f"max {max(values):.3f} {unit}"
    )


def bench_wheel(label: str, repeat: int, anchors: bool) -> None:
    path = c.wheel(label)
    names = [info.filename for info in c.pe_members(path)]
    dlldoctor = [sys.executable, "-m", "dlldoctor", "scan", str(path), "-q", "--format", "json"]
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        warm_cache = tmp / "warm-cache"
        env = {**os.environ, "NO_COLOR": "1"}
        _run(dlldoctor, {**env, "DLLDOCTOR_CACHE_DIR": str(warm_cache)}, tmp / "out")  # fill the cache
        times: dict[str, list[float]] = {"floor": [], "cold": [], "warm": [], "facts": [], "cold-here": []}
        peaks: list[float] = []
        for n in range(repeat):
            times["floor"].append(_run([sys.executable, "-c", FLOOR, str(path), *names], env, tmp / "out")[0])
            cold_cache = tmp / f"cold-{n}"
            wall, peak = _run(dlldoctor, {**env, "DLLDOCTOR_CACHE_DIR": str(cold_cache)}, tmp / "out")
            shutil.rmtree(cold_cache, ignore_errors=True)
            times["cold"].append(wall)
            peaks.append(peak)
            times["warm"].append(
                _run(dlldoctor, {**env, "DLLDOCTOR_CACHE_DIR": str(warm_cache)}, tmp / "out")[0]
            )
            for answer in warm_cache.glob("answer-*"):
                answer.unlink()
            times["facts"].append(
                _run(dlldoctor, {**env, "DLLDOCTOR_CACHE_DIR": str(warm_cache)}, tmp / "out")[0]
            )
            here = {**env, "DLLDOCTOR_CACHE_DIR": str(cold_cache), "DLLDOCTOR_OFFLOAD": "0"}
            times["cold-here"].append(_run(dlldoctor, here, tmp / "out")[0])
            shutil.rmtree(cold_cache, ignore_errors=True)
        together = _tree_peak(dlldoctor, {**env, "DLLDOCTOR_CACHE_DIR": str(tmp / "sampled")})
    print(f"## {label} ({len(names)} PE members)")
    for name, values in times.items():
        print(f"  {name:5} {_spread(values)}")
    floor = min(times["floor"])
    for name, goal in GOALS.items():
        c.report(f"{label} whole {name} scan vs the zipfile floor", min(times[name]), floor, goal)
    print(f"  peak RSS of the cold scan: {_spread(peaks, 'MB')}  (goal <= {PEAK_GOAL:.0f} MB)")
    if together:
        print(f"  peak RSS of the cold scan and its child process together (sampled): {together:.0f} MB")
        c.RESULTS.append(
            {"figure": f"{label} peak RSS with child", "values": [together], "goal_mb": PEAK_GOAL}
        )
    c.RESULTS.append({"figure": f"{label} peak RSS", "values": peaks, "goal_mb": PEAK_GOAL})
    if anchors:
        seconds, note = c_delvewheel(path)
        c.anchor(f"delvewheel show {label}", seconds, note)


def _tree_peak(command: list[str], env: dict[str, str]) -> float:
    """Peak of the summed RSS (MB) of a command and its child processes, sampled every 2 ms from /proc (an
    untimed extra run: the sampling takes CPU); 0 where /proc is missing."""
    if not Path("/proc/self/task").exists():
        return 0.0

    def tree(pid: int) -> list[int]:
        found = [pid]
        try:
            for task in Path(f"/proc/{pid}/task").iterdir():
                children = (task / "children").read_text().split()
                found += [p for child in children for p in tree(int(child))]
        except OSError:
            pass
        return found

    def rss(pid: int) -> int:
        try:
            return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except OSError:
            return 0

    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, sum(rss(p) for p in tree(proc.pid)))
        time.sleep(0.002)
    return peak / 2**20


def compile_bytecode() -> None:
    import compileall

    import dlldoctor

    compileall.compile_dir(str(Path(dlldoctor.__file__).parent), quiet=1)


def c_delvewheel(path: Path) -> tuple[float, str]:
    import importlib.util

    if importlib.util.find_spec("delvewheel") is None:
        return float("nan"), "delvewheel is not installed (pip install delvewheel)"
    from cold import delvewheel_show

    return delvewheel_show(path)


def bench_explain(repeat: int) -> None:
    env = {**os.environ, "NO_COLOR": "1"}
    command = [sys.executable, "-m", "dlldoctor", "explain", TEXT]
    with tempfile.TemporaryDirectory() as folder:
        env["DLLDOCTOR_CACHE_DIR"] = str(Path(folder) / "cache")
        _run(command, env, Path(folder) / "out")  # the rule cache
        values = [_run(command, env, Path(folder) / "out")[0] for _ in range(repeat)]
        bare = [_run([sys.executable, "-c", "pass"], env, Path(folder) / "out")[0] for _ in range(repeat)]
    print(f"## explain in a new process: {_spread(values)}; python -c pass: {_spread(bare)}")
    ok = "MEETS" if min(values) <= EXPLAIN_GOAL else "MISSES"
    print(f"explain whole process: {min(values):.3f} s  {ok} goal <= {EXPLAIN_GOAL:.2f} s")
    c.RESULTS.append({"figure": "explain whole process", "values": values, "goal_s": EXPLAIN_GOAL})


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--wheels", default="torch")
    parser.add_argument("--anchors", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    print(c.machine_line())
    compile_bytecode()
    for label in [w for w in args.wheels.split(",") if w]:
        bench_wheel(label, args.repeat, args.anchors)
    bench_explain(args.repeat)
    c.save(args.json)


if __name__ == "__main__":
    main()
