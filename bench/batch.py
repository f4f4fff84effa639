"""``dlldoctor scan *.whl --jobs N``: does a batch use every core?

    python bench/batch.py [--repeat 3] [--wheels torch,onnxruntime-gpu,nvidia-cublas-cu12,...]

Runs the real command (no cache, no progress bar, JSON to /dev/null) with ``--jobs`` = all cores and
``--jobs 1``, and reports the wall time of each, the speed-up, and the cores in use: CPU time of the
command and its worker processes divided by wall time. Also measured: the threads inside one wheel
(``Catalog(threads=N)`` vs 1) on the largest wheel, which is what ``--jobs`` does for a single target.
"""

from __future__ import annotations

import os
import sys

import _common as c


def main() -> None:
    args = c.arguments(__doc__ or "")
    print(c.machine_line())
    wheels = [str(c.wheel(label)) for label in c.selected(args)]
    cores = os.cpu_count() or 1
    base = [sys.executable, "-m", "dlldoctor", "scan", *wheels, "--no-cache", "-q", "--format", "json"]
    runs: dict[str, list[tuple[float, float]]] = {"all": [], "one": []}
    for _ in range(args.repeat):
        wall, cpu, status = c.run_command([*base, "--jobs", str(cores)])
        assert status in (0, 1), f"dlldoctor scan exited {status}"
        runs["all"].append((wall, cpu))
        wall, cpu, status = c.run_command([*base, "--jobs", "1"])
        runs["one"].append((wall, cpu))
    best_all = min(runs["all"])
    best_one = min(runs["one"])
    print(f"\n## {len(wheels)} wheels: " + ", ".join(w.rsplit("/", 1)[-1] for w in wheels))
    c.report(
        f"batch scan --jobs {cores} vs --jobs 1 (wall)",
        best_all[0],
        best_one[0],
        None,
        note=f"{best_all[1] / best_all[0]:.2f} cores busy with --jobs {cores}, "
        f"{best_one[1] / best_one[0]:.2f} with --jobs 1",
    )
    c.save(args.json)


if __name__ == "__main__":
    main()
