"""Peak memory of a cold scan of each wheel, in a fresh process, vs the goal of 400 MB.

    python bench/memory.py [--wheels torch,onnxruntime-gpu,nvidia-cublas-cu12,nvidia-cuda-runtime-cu12]

Peak resident set size from ``resource.getrusage`` in a child process that does nothing else. The
baseline is the same interpreter after importing dlldoctor and lief (what any scan costs before it
reads a byte); the anchor is the naive approach (``zipfile.read`` of the largest member, then
``lief.PE.parse`` with default settings), which holds the whole DLL at least twice.
"""

from __future__ import annotations

import json

import _common as c

from dlldoctor.cache.pe_facts import default_threads

GOAL_MB = 400.0

SCAN = (
    c.PEAK_RSS_SNIPPET
    + """
from dlldoctor.cache.pe_facts import Catalog
from dlldoctor.scan.result import ScanOptions
from dlldoctor.scan.target import scan_target
scan_target(sys.argv[1] if len(sys.argv) > 1 else {path!r}, ScanOptions(), Catalog(threads={threads}))
print(peak_mb())
"""
)
IMPORTS = (
    c.PEAK_RSS_SNIPPET
    + """
import lief, dlldoctor.scan.target, dlldoctor.pe.lief_backend
print(peak_mb())
"""
)
NAIVE = (
    c.PEAK_RSS_SNIPPET
    + """
import zipfile, lief
with zipfile.ZipFile({path!r}) as archive:
    info = max((i for i in archive.infolist() if i.filename.lower().endswith(('.dll', '.pyd', '.exe'))),
               key=lambda i: i.file_size)
    binary = lief.PE.parse(archive.read(info))
print(json.dumps([peak_mb(), info.filename, info.file_size]))
"""
)


def main() -> None:
    args = c.arguments(__doc__ or "")
    print(c.machine_line())
    _, _, out = c.run_python(IMPORTS)
    base = float(out)
    print(f"  baseline: interpreter + dlldoctor + lief imported: {base:.0f} MB")
    for label in c.selected(args):
        path = c.wheel(label)
        biggest = max(i.file_size for i in c.pe_members(path))
        print(f"\n## {label}: {path.name} (largest PE member {biggest / 1e6:.0f} MB)", flush=True)
        for threads in sorted({default_threads(), 1}, reverse=True):
            _, _, out = c.run_python(SCAN.format(path=str(path), threads=threads))
            peak = float(out)
            c.report(
                f"peak memory, cold scan of {label} ({threads} threads)",
                peak,
                GOAL_MB,
                1.0,
                unit="MB",
                note=f"{peak - base:.0f} MB above the imports alone",
            )
        _, _, out = c.run_python("import json\n" + NAIVE.format(path=str(path)))
        peak, name, size = json.loads(out)
        c.anchor(f"naive zipfile.read + lief.PE.parse of {name} ({size / 1e6:.0f} MB), peak", peak, unit="MB")
    c.save(args.json)


if __name__ == "__main__":
    main()
