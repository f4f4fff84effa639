"""Every benchmark of docs/performance.md, one after another, with a summary of the goals at the end.

    python bench/run_all.py [--repeat 5] [--no-anchors] [--out bench/results.txt]

Needs the wheels of the tests' download cache (fetched on first use) and, for the anchors, pefile and
``pip install delvewheel``. zlib-ng is used when installed (``pip install zlib-ng``); cold.py also
measures the standard zlib in the same run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--no-anchors", action="store_true", help="skip the naive loops and delvewheel (slow)"
    )
    parser.add_argument("--out", type=Path, help="also write the whole output here")
    args = parser.parse_args()
    repeat = ["--repeat", str(args.repeat)]
    steps = [
        ["cold.py", *repeat, *([] if args.no_anchors else ["--anchors"])],
        ["cold.py", "--repeat", str(args.repeat), "--wheels", "nvidia-cuda-runtime-cu12", "--no-goal"],
        ["tree.py", *repeat, "--wheels", "torch,onnxruntime-gpu,nvidia-cublas-cu12"],
        ["warm.py", *repeat, "--wheels", "torch,onnxruntime-gpu,nvidia-cublas-cu12"],
        ["memory.py"],
        ["batch.py", "--repeat", str(max(2, args.repeat // 2))],
        ["explain.py", *repeat],
        ["web.py", *repeat],
        ["process.py", *repeat, *([] if args.no_anchors else ["--anchors"])],
    ]
    output: list[str] = []
    figures: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as folder:
        for n, step in enumerate(steps):
            results = Path(folder) / f"{n}.json"
            command = [sys.executable, str(HERE / step[0]), *step[1:], "--json", str(results)]
            header = f"\n$ python bench/{' '.join(step)}"
            print(header, flush=True)
            output.append(header)
            done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False)
            print(done.stdout, end="", flush=True)
            output.append(done.stdout)
            if results.exists():
                figures.extend(json.loads(results.read_text()))
    summary = ["", "# goals"]
    for figure in figures:
        if figure.get("goal") is not None:
            ok = "MEETS " if figure["ratio"] <= figure["goal"] else "MISSES"  # type: ignore[operator]
            summary.append(f"{ok} {figure['figure']}: {figure['ratio']:.2f}x (goal <= {figure['goal']:.2f}x)")
    print("\n".join(summary))
    if args.out:
        args.out.write_text("".join(output) + "\n".join(summary) + "\n")


if __name__ == "__main__":
    main()
