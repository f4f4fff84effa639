#!/usr/bin/env python3
"""Build the Wine loader harness and the few extra DLLs its layouts need, with mingw-w64 (x86_64).

    python3 corpus/pe/harness/build.py --out DIR

Writes into DIR:
  harness.exe              src/harness.c: the stand-in for python.exe (see its header comment)
  python311.dll            src/python311.c: the interpreter DLL next to harness.exe (PyModule_Create2)
  delayed_missing.dll      src/late.c: what the fixture delay_user.dll delay-loads, with late_func
  dlf_XXXX.dll             src/dlf.c: chain_b.dll's shape with a load configuration whose
                           DependentLoadFlags is 0xXXXX (0000, 0100, 0200, 0800, 1000)
  uses_<x>.dll             src/importer.c: imports one function from one chosen DLL name (IMPORTERS)

Only x86_64: wine64 runs 64-bit programs only; a 32-bit harness would need wine32 (i386 multiarch).
The 32-bit fixtures of corpus/pe/bin/x86 still take part, as wrong-machine files.

It reuses corpus/pe/build.py (same flags, no C runtime, no timestamps): two builds give identical
bytes. Nothing is committed from here; the Wine test tier builds into its cache, keyed by a digest of
the sources (``source_digest``), and rebuilds when they change.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
FIXTURES = HERE.parent  # corpus/pe

_spec = importlib.util.spec_from_file_location("dlldoctor_pe_fixtures_build", FIXTURES / "build.py")
assert _spec is not None and _spec.loader is not None
fx = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = fx  # dataclasses look their module up while the class is created
_spec.loader.exec_module(fx)

X64 = fx.X64
BuildError = fx.BuildError

# DependentLoadFlags values built as dlf_XXXX.dll.
DLF_VARIANTS = (0x0000, 0x0100, 0x0200, 0x0800, 0x1000)
# uses_<stem>.dll imports <function> from <dll>.
IMPORTERS = {
    "psapi": ("psapi.dll", "c_func"),  # a KnownDLL on Windows; Wine implements psapi.dll itself
    "version": ("version.dll", "c_func"),  # in System32 on every Windows, but not a KnownDLL
    "msvcp140": ("MSVCP140.dll", "c_func"),  # the VC++ runtime python.exe does not load
    "synch": ("api-ms-win-core-synch-l1-2-0.dll", "SleepEx"),  # API set hosted by kernelbase.dll
    "winrt": ("api-ms-win-core-winrt-l1-1-0.dll", "RoInitialize"),  # API set hosted by combase.dll
}

DLF_SIZE = 0x70  # sizeof(struct load_config) in src/dlf.c
DLF_OFFSET = 0x4E  # DependentLoadFlags in IMAGE_LOAD_CONFIG_DIRECTORY64
DLF_MARKER = 0xD1F0
LOAD_CONFIG_DIRECTORY = 10


def source_digest() -> str:
    """What the outputs depend on: this script, the fixture build script and both source folders."""
    digest = hashlib.sha256()
    for path in sorted(
        [HERE / "build.py", FIXTURES / "build.py", *SRC.iterdir(), *(FIXTURES / "src").iterdir()]
    ):
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    for tool in ("gcc", "ld"):
        version = subprocess.run(
            [f"{X64.prefix}{tool}", "--version"], capture_output=True, text=True, check=False
        )
        digest.update(version.stdout.encode())
    return digest.hexdigest()[:16]


def with_dependent_load_flags(data: bytes, flags: int) -> bytes:
    """Point DataDirectory[10] at dlf.c's load configuration and set its DependentLoadFlags.

    The structure is found by its contents: Size 0x70, then zeros, then the marker 0xD1F0 where
    DependentLoadFlags sits. ``flags`` replaces the marker.
    """
    pattern = struct.pack("<I", DLF_SIZE) + bytes(DLF_OFFSET - 4) + struct.pack("<H", DLF_MARKER)
    at = data.find(pattern)
    if at < 0 or data.find(pattern, at + 1) >= 0:
        raise BuildError("dlf.dll: the load configuration structure is not found exactly once")
    headers = fx.read_headers(data)
    patched = bytearray(data)
    struct.pack_into("<H", patched, at + DLF_OFFSET, flags)
    struct.pack_into(
        "<II",
        patched,
        headers.data_directories + 8 * LOAD_CONFIG_DIRECTORY,
        headers.offset_to_rva(at),
        DLF_SIZE,
    )
    return bytes(patched)


def targets() -> tuple[object, ...]:
    t = fx.Target
    items = [
        t("harness.exe", X64, "harness.c", system_libs=("kernel32",), exe=True),
        t("python311.dll", X64, "python311.c", "python311.def"),
        t("delayed_missing.dll", X64, "late.c", "late.def"),
        t("dlf.dll", X64, "dlf.c", "dlf.def", imports=("chain_c",)),
    ]
    for stem, (_dll, function) in IMPORTERS.items():
        items.append(
            t(
                f"uses_{stem}.dll",
                X64,
                "importer.c",
                "importer.def",
                imports=(f"imp_{stem}",),
                defines=(f"IMPORTED={function}",),
            )
        )
    return tuple(items)


def build(out_dir: Path) -> list[Path]:
    missing = [tool for tool in ("gcc", "dlltool") if shutil.which(f"{X64.prefix}{tool}") is None]
    if missing:
        raise BuildError(
            "not on PATH: " + ", ".join(X64.prefix + m for m in missing) + " (install mingw-w64)"
        )
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="dlldoctor-harness-") as tmp:
        work = Path(tmp)
        for folder in (FIXTURES / "src", SRC):
            for f in folder.iterdir():
                if f.is_file():
                    shutil.copy2(f, work / f.name)
        for stem, (dll, function) in IMPORTERS.items():
            (work / f"imp_{stem}.def").write_text(f"LIBRARY {dll}\nEXPORTS\n  {function}\n")
        (work / X64.name).mkdir()
        built: dict[str, bytes] = {}
        for target in targets():
            built[target.out] = fx.build_target(target, work).read_bytes()  # type: ignore[attr-defined]
        dlf = built.pop("dlf.dll")
        for flags in DLF_VARIANTS:
            built[f"dlf_{flags:04x}.dll"] = with_dependent_load_flags(dlf, flags)
        out_dir.mkdir(parents=True, exist_ok=True)
        for name, data in sorted(built.items()):
            path = out_dir / name
            path.write_bytes(data)
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="output directory")
    args = parser.parse_args(argv)
    try:
        written = build(args.out)
    except BuildError as e:
        print(f"build.py: {e}", file=sys.stderr)
        return 1
    for path in written:
        print(f"{path.stat().st_size:7d}  {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
