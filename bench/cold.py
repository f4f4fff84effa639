"""Cold scan of a wheel vs the floor (inflating its PE members with zipfile), with the anchors.

    python bench/cold.py [--repeat 5] [--wheels torch,onnxruntime-gpu,nvidia-cublas-cu12] [--anchors]

Figures per wheel, each against the floor measured in the same run:
- ``scan_target`` with no cache on all cores (the goal: <= 1.3x),
- the same with an empty cache (first run: the facts are written too),
- one thread; and the standard zlib inflater instead of zlib-ng (when zlib-ng is installed).
With ``--anchors``: a naive lief loop (zipfile.read + lief.PE.parse with default settings, then the
export and import names into Python sets), a naive pefile loop (pefile.PE(data=...) with default
settings, which keeps only the first 8,192 exports), and ``delvewheel show`` on the same wheel.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib
from pathlib import Path

import _common as c

from dlldoctor.cache.pe_facts import Catalog, default_threads
from dlldoctor.cache.pe_store import FactCache
from dlldoctor.install import zipmember
from dlldoctor.scan.result import ScanOptions
from dlldoctor.scan.target import scan_target

OPTIONS = ScanOptions()


def ours(path: Path, threads: int, cache_dir: Path | None = None) -> None:
    cache = FactCache.open(cache_dir) if cache_dir is not None else None
    try:
        with Catalog(cache, threads=threads) as catalog:
            scan_target(str(path), OPTIONS, catalog)
    finally:
        if cache is not None:
            cache.close()


def ours_with_empty_cache(path: Path, threads: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="dlldoctor-cold-cache-"))
    try:
        ours(path, threads, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def ours_with_stdlib_zlib(path: Path, threads: int) -> None:
    saved = zipmember.INFLATER
    zipmember.INFLATER = zlib
    try:
        ours(path, threads)
    finally:
        zipmember.INFLATER = saved


def naive_lief(path: Path, members: list[zipfile.ZipInfo]) -> tuple[int, int]:
    import lief

    exports = imports = 0
    with zipfile.ZipFile(path) as archive:
        for info in members:
            binary = lief.PE.parse(archive.read(info))
            if binary is None:
                continue
            names = {str(e.name) for e in binary.get_export().entries} if binary.has_exports else set()
            used = {str(e.name) for lib in binary.imports for e in lib.entries if not e.is_ordinal}
            exports += len(names)
            imports += len(used)
    return exports, imports


def naive_pefile(path: Path, members: list[zipfile.ZipInfo]) -> int:
    import pefile

    exports = 0
    with zipfile.ZipFile(path) as archive:
        for info in members:
            try:
                pe = pefile.PE(data=archive.read(info))
            except pefile.PEFormatError:
                continue
            directory = getattr(pe, "DIRECTORY_ENTRY_EXPORT", None)
            exports += len(directory.symbols) if directory is not None else 0
            pe.close()
    return exports


def delvewheel_show(path: Path) -> tuple[float, str]:
    command = [sys.executable, "-m", "delvewheel", "show", str(path)]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return elapsed, f"exit {done.returncode}: {last[:160]}"
    not_found = done.stdout.count("Not Found")
    return elapsed, f"exit 0, {not_found} 'Not Found' lines"


def bench_wheel(label: str, repeat: int, anchors: bool, goal: float | None = 1.3) -> None:
    path = c.wheel(label)
    members = c.pe_members(path)
    size = sum(i.file_size for i in members)
    threads = default_threads()
    print(f"\n## {label}: {path.name}, {len(members)} PE members, {size / 1e6:.0f} MB inflated", flush=True)
    ours(path, threads)  # warm-up: imports lief, fills the OS page cache
    funcs = {
        "floor": lambda: c.inflate_floor(path, members),
        "ours": lambda: ours(path, threads),
        "ours+cache write": lambda: ours_with_empty_cache(path, threads),
        "ours 1 thread": lambda: ours(path, 1),
    }
    if zipmember.INFLATER is not zlib:
        funcs["ours stdlib zlib"] = lambda: ours_with_stdlib_zlib(path, threads)
    times = c.timed(funcs, repeat)
    floor = c.best(times["floor"])
    print(f"  floor: {c.spread(times['floor'])}")
    c.report(
        f"cold scan {label} ({threads} threads, no cache)",
        c.best(times["ours"]),
        floor,
        goal,
        note=c.spread(times["ours"]),
    )
    c.report(
        f"cold scan {label} (empty cache, facts written)",
        c.best(times["ours+cache write"]),
        floor,
        goal,
        note=c.spread(times["ours+cache write"]),
    )
    c.report(
        f"cold scan {label} (1 thread)",
        c.best(times["ours 1 thread"]),
        floor,
        None,
        note=c.spread(times["ours 1 thread"]),
    )
    if "ours stdlib zlib" in times:
        c.report(
            f"cold scan {label} (stdlib zlib, {threads} threads)",
            c.best(times["ours stdlib zlib"]),
            floor,
            goal,
            note=c.spread(times["ours stdlib zlib"]),
        )
    cli = [sys.executable, "-m", "dlldoctor", "scan", str(path), "--no-cache", "-q", "--format", "json"]
    here, wheel_path = str(Path(__file__).parent), str(path)
    floor_code = (
        f"import sys\nsys.path.insert(0, {here!r})\nimport _common\n"
        f"_common.inflate_floor(_common.Path({wheel_path!r}), _common.pe_members(_common.Path({wheel_path!r})))\n"
    )
    processes = c.timed(
        {
            "floor process": lambda: c.run_python(floor_code),
            "cli": lambda: c.run_command(cli),
        },
        max(2, repeat // 2),
    )
    c.report(
        f"cold `dlldoctor scan {label}` in a new process (imports, scan, diagnosis, report)",
        c.best(processes["cli"]),
        c.best(processes["floor process"]),
        None,
        note="baseline: a new interpreter that inflates the same members",
    )
    if anchors:
        start = time.perf_counter()
        exports, imports = naive_lief(path, members)
        c.anchor(
            "naive lief loop",
            time.perf_counter() - start,
            f"zipfile.read + lief.PE.parse default config; {exports} exports, {imports} imported names",
        )
        start = time.perf_counter()
        pefile_exports = naive_pefile(path, members)
        c.anchor(
            "naive pefile loop",
            time.perf_counter() - start,
            f"pefile.PE(data=...) defaults; {pefile_exports} exports read (lief: {exports}; pefile stops "
            f"at max_symbol_exports=8192 per DLL)",
        )
        seconds, how = delvewheel_show(path)
        c.anchor("delvewheel show", seconds, how)


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--wheels", default="torch,onnxruntime-gpu,nvidia-cublas-cu12")
    parser.add_argument("--anchors", action="store_true", help="also run the naive loops and delvewheel")
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--no-goal", action="store_true", help="report ratios without the 1.3x goal (tiny wheels)"
    )
    args = parser.parse_args()
    print(c.machine_line())
    for label in args.wheels.split(","):
        bench_wheel(label, args.repeat, args.anchors, None if args.no_goal else 1.3)
    c.save(args.json)


if __name__ == "__main__":
    main()
