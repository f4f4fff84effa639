"""Coverage-guided fuzzing of the PE and text paths (tests/fuzz/target.py), and its crashers replayed.

The replay needs nothing but the engine: every file in tests/fuzz/crashers/ once made the target fail
(a crash, or gigabytes allocated for a size the file claims) and must now pass through it. The fuzz run itself needs atheris (skipped without it) and runs a fixed number
of executions from a fixed seed, so it does the same work every time; the long run (1,000,000
executions) is a command in docs/performance.md, not a test.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FUZZ = ROOT / "tests" / "fuzz"
CRASHERS = sorted((FUZZ / "crashers").glob("*"))
CI_RUNS = 20_000
SEEDS = [FUZZ / "seeds", *(ROOT / "corpus" / "pe" / "bin" / arch for arch in ("x64", "x86", "corrupt"))]

sys.path.insert(0, str(FUZZ))
from target import one_input  # noqa: E402

# Memory one kept input may take while it is read (traced Python allocations); each crasher is a few KB.
CRASHER_PEAK = 64 << 20


@pytest.mark.parametrize("path", CRASHERS, ids=[p.name for p in CRASHERS])
def test_a_kept_crasher_passes_through(path: Path) -> None:
    """Neither an exception nor an allocation out of proportion (a fuzz run stops at 2 GB of memory too)."""
    import tracemalloc

    tracemalloc.start()
    try:
        one_input(path.read_bytes())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < CRASHER_PEAK, f"{path.name}: {peak >> 20} MB"


@pytest.mark.skipif(
    importlib.util.find_spec("atheris") is None and not os.environ.get("CI"),
    reason="atheris is not installed (the test extra installs it on Linux; CI fails without it)",
)
def test_a_fixed_fuzz_run_finds_no_crash(tmp_path: Path) -> None:
    work = tmp_path / "corpus"
    work.mkdir()
    run = subprocess.run(
        [
            sys.executable,
            str(FUZZ / "target.py"),
            f"-runs={CI_RUNS}",
            "-seed=1",
            "-max_len=65536",
            f"-artifact_prefix={tmp_path}/",
            str(work),
            *map(str, SEEDS),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=1200,
        check=False,
    )
    crashes = sorted(p.name for p in tmp_path.glob("crash-*"))
    assert (run.returncode, crashes) == (0, []), run.stderr[-3000:]
    assert f"Done {CI_RUNS} runs" in run.stderr
