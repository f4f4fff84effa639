#!/usr/bin/env python3
"""Build dlldoctor's PE test fixtures from corpus/pe/src with mingw-w64.

    python3 corpus/pe/build.py [--out DIR]     (default: corpus/pe/bin)

Needs x86_64-w64-mingw32-{gcc,dlltool,windres} and i686-w64-mingw32-{gcc,dlltool}
on PATH (Debian: gcc-mingw-w64-x86-64 gcc-mingw-w64-i686). Standard library only.

Every DLL and EXE is linked without the C runtime (-nostdlib -nostartfiles, a
DllMain or start() entry point), so its import table holds only what its source
asks for. Exports always come from a .def file next to the source. Import
libraries for DLLs that do not exist (does_not_exist.dll, python311.dll, ...)
or that must lie about their target (chain_c.dll with an extra name, by
ordinal) are made with dlltool from the src/imp_*.def files.

The build is reproducible: no timestamps (--no-insert-timestamp), no build id,
no compiler ident string, no paths (sources are compiled from a scratch copy by
relative name, then stripped). The corrupt variants in bin/corrupt/ are byte
patches of bin/x64/chain_c.dll, made here in Python.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
DEFAULT_OUT = HERE / "bin"


@dataclass(frozen=True)
class Arch:
    name: str  # directory under bin/: x64 or x86
    prefix: str  # mingw-w64 tool prefix
    dll_entry: str  # linker symbol of DllMain (stdcall is decorated on i686)
    exe_entry: str  # linker symbol of start()


X64 = Arch("x64", "x86_64-w64-mingw32-", "DllMain", "start")
X86 = Arch("x86", "i686-w64-mingw32-", "_DllMain@12", "_start")

CFLAGS = (
    "-O2",
    "-std=c99",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-fno-ident",  # no "GCC: (GNU) 12-win32" string in .rdata
    "-fno-asynchronous-unwind-tables",  # no .pdata/.xdata: smaller files
    "-fno-stack-protector",
    "-fno-builtin",  # keep memcpy a real import in ucrt_user.dll
)
LDFLAGS = (
    "-s",  # no symbol table
    "-nostdlib",
    "-nostartfiles",
    "-Wl,--no-insert-timestamp",
    "-Wl,--build-id=none",
)


@dataclass(frozen=True)
class Target:
    out: str  # path under the output directory
    arch: Arch
    source: str  # the .c file in src/
    exports: str | None = None  # the .def file in src/ that declares exports
    imports: tuple[str, ...] = ()  # .def stems turned into import libraries
    delay_imports: tuple[str, ...] = ()  # .def stems turned into delay-load libraries
    system_libs: tuple[str, ...] = ()  # mingw-w64 libraries, e.g. "kernel32"
    defines: tuple[str, ...] = ()
    resource: str | None = None  # an .rc file in src/
    exe: bool = False


def _chain(arch: Arch, app: str) -> tuple[Target, ...]:
    d = arch.name
    return (
        Target(f"{d}/chain_c.dll", arch, "chain_c.c", "chain_c.def", system_libs=("kernel32",)),
        Target(f"{d}/chain_b.dll", arch, "chain_b.c", "chain_b.def", imports=("chain_c",)),
        Target(f"{d}/chain_a.dll", arch, "chain_a.c", "chain_a.def", imports=("chain_b",)),
        Target(f"{d}/{app}", arch, "app.c", imports=("chain_a",), system_libs=("kernel32",), exe=True),
    )


TARGETS: tuple[Target, ...] = (
    *_chain(X64, "app.exe"),
    Target(
        "x64/needs_missing.dll", X64, "needs_missing.c", "needs_missing.def", imports=("imp_does_not_exist",)
    ),
    Target(
        "x64/needs_symbol.dll", X64, "needs_symbol.c", "needs_symbol.def", imports=("imp_chain_c_symbol",)
    ),
    Target(
        "x64/needs_ordinal.dll", X64, "needs_ordinal.c", "needs_ordinal.def", imports=("imp_chain_c_ordinal",)
    ),
    Target("x64/forwarder.dll", X64, "forwarder.c", "forwarder.def"),
    Target(
        "x64/uses_forwarder.dll", X64, "uses_forwarder.c", "uses_forwarder.def", imports=("imp_forwarder",)
    ),
    # delayimp.c (linked in for every delay_imports target) needs KERNEL32.dll.
    Target(
        "x64/delay_user.dll",
        X64,
        "delay_user.c",
        "delay_user.def",
        imports=("chain_c",),
        delay_imports=("imp_delayed_missing",),
        system_libs=("kernel32",),
    ),
    Target(
        "x64/pymod.cp311-win_amd64.pyd",
        X64,
        "pymod.c",
        "pymod.def",
        imports=("imp_python311", "chain_a"),
        defines=("PYMOD_INIT=PyInit_pymod",),
    ),
    Target(
        "x64/pymod312.cp312-win_amd64.pyd",
        X64,
        "pymod.c",
        "pymod312.def",
        imports=("imp_python312", "chain_a"),
        defines=("PYMOD_INIT=PyInit_pymod312",),
    ),
    Target(
        "x64/ucrt_user.dll",
        X64,
        "ucrt_user.c",
        "ucrt_user.def",
        imports=("imp_api-ms-win-crt-runtime-l1-1-0", "imp_vcruntime140"),
    ),
    Target("x64/versioned.dll", X64, "versioned.c", "versioned.def", resource="versioned.rc"),
    *_chain(X86, "app32.exe"),
)

# Plain copies: (output, source output).
COPIES = (("x64/noext_pe", "x64/chain_c.dll"),)

# What a Git LFS pointer for a ~1 MB DLL looks like when LFS was not installed
# at clone time. The oid is a fixed, made-up digest.
LFS_OID = hashlib.sha256(b"dlldoctor fixture: a DLL stored in Git LFS").hexdigest()
LFS_POINTER = f"version https://git-lfs.github.com/spec/v1\noid sha256:{LFS_OID}\nsize 1094656\n"


class BuildError(Exception):
    pass


def run(cmd: list[str], cwd: Path) -> None:
    env = dict(os.environ, LC_ALL="C", SOURCE_DATE_EPOCH="0")
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
    if proc.stdout or proc.stderr:  # a warning: show it, the fixtures may not be what they claim
        print(f"build.py: {' '.join(cmd)}\n{proc.stdout}{proc.stderr}", file=sys.stderr)


def import_library(arch: Arch, stem: str, work: Path, delay: bool) -> str:
    """Make lib<stem>.a (or lib<stem>.delay.a) from src/<stem>.def; return its relative path."""
    lib = f"{arch.name}/lib{stem}{'.delay' if delay else ''}.a"
    if not (work / lib).exists():
        option = "--output-delaylib" if delay else "--output-lib"
        cmd = [f"{arch.prefix}dlltool", "--input-def", f"{stem}.def", option, lib]
        if delay:
            # dlltool wants the DLL name spelled out for a delay library.
            cmd += ["--dllname", dll_name_of(work / f"{stem}.def")]
        run(cmd, work)
    return lib


def dll_name_of(def_file: Path) -> str:
    for line in def_file.read_text().splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "LIBRARY":
            return words[1]
    raise BuildError(f"{def_file.name}: no LIBRARY line")


def build_target(t: Target, work: Path) -> Path:
    a = t.arch
    out = work / "out" / t.out
    out.parent.mkdir(parents=True, exist_ok=True)
    rel_out = os.path.relpath(out, work)
    inputs = [t.source]
    if t.delay_imports:
        inputs.append("delayimp.c")
    if t.exports:
        inputs.append(t.exports)
    if t.resource:
        res = f"{a.name}/{Path(t.resource).stem}.res.o"
        run([f"{a.prefix}windres", "-O", "coff", "-i", t.resource, "-o", res], work)
        inputs.append(res)
    libs = [import_library(a, s, work, delay=False) for s in t.imports]
    libs += [import_library(a, s, work, delay=True) for s in t.delay_imports]
    cmd = [f"{a.prefix}gcc", *CFLAGS, *LDFLAGS, *(f"-D{d}" for d in t.defines)]
    if t.exe:
        cmd += ["-mconsole", f"-Wl,-e,{a.exe_entry}"]
    else:
        cmd += ["-shared", f"-Wl,-e,{a.dll_entry}"]
    cmd += ["-o", rel_out, *inputs, *libs, *(f"-l{lib}" for lib in t.system_libs)]
    run(cmd, work)
    if t.delay_imports:
        names = [dll_name_of(work / f"{stem}.def") for stem in t.delay_imports]
        out.write_bytes(set_delay_import_directory(out.read_bytes(), names))
    return out


# --- PE header surgery (stdlib only) -------------------------------------------------


@dataclass(frozen=True)
class Headers:
    lfanew: int
    data_directories: int  # file offset of DataDirectory[0]
    section_table: int  # file offset of the first IMAGE_SECTION_HEADER
    nsections: int
    size_of_headers: int
    sections: tuple[tuple[int, int, int, int], ...]  # (rva, virtual size, file offset, raw size)

    def offset_to_rva(self, offset: int) -> int:
        for va, _vsize, raw, rawsize in self.sections:
            if raw <= offset < raw + rawsize:
                return va + offset - raw
        raise BuildError(f"file offset {offset:#x} is in no section")


def read_headers(data: bytes) -> Headers:
    if data[:2] != b"MZ":
        raise BuildError("not a PE file (no MZ)")
    (lfanew,) = struct.unpack_from("<I", data, 0x3C)
    if data[lfanew : lfanew + 4] != b"PE\0\0":
        raise BuildError("not a PE file (no PE signature)")
    (nsections,) = struct.unpack_from("<H", data, lfanew + 6)
    (opt_size,) = struct.unpack_from("<H", data, lfanew + 20)
    opt = lfanew + 24
    (magic,) = struct.unpack_from("<H", data, opt)
    data_directories = opt + {0x10B: 96, 0x20B: 112}[magic]
    (size_of_headers,) = struct.unpack_from("<I", data, opt + 60)  # same offset in PE32 and PE32+
    table = opt + opt_size
    sections = []
    for i in range(nsections):
        # IMAGE_SECTION_HEADER after the 8-byte name: VirtualSize, VirtualAddress,
        # SizeOfRawData, PointerToRawData.
        vsize, va, rawsize, raw = struct.unpack_from("<IIII", data, table + 40 * i + 8)
        sections.append((va, vsize, raw, rawsize))
    return Headers(lfanew, data_directories, table, nsections, size_of_headers, tuple(sections))


def set_delay_import_directory(data: bytes, dll_names: list[str]) -> bytes:
    """Point DataDirectory[13] (Delay Import) at the descriptors dlltool emitted.

    Each descriptor is 32 bytes: attributes 1 (RVA based), then the RVA of the DLL
    name. They are contiguous and followed by the null descriptor from delayimp.c.
    """
    h = read_headers(data)
    name_rvas = set()
    for name in dll_names:
        at = data.find(name.encode("ascii") + b"\0")
        if at < 0 or data.find(name.encode("ascii") + b"\0", at + 1) >= 0:
            raise BuildError(f"delay-load DLL name {name!r} not found exactly once")
        name_rvas.add(h.offset_to_rva(at))
    found = [
        off
        for off in range(h.size_of_headers, len(data) - 32, 4)
        if struct.unpack_from("<II", data, off) in {(1, rva) for rva in name_rvas}
    ]
    if not found or found != list(range(found[0], found[0] + 32 * len(dll_names), 32)):
        raise BuildError(f"delay-load descriptors not found as one array: {found}")
    end = found[0] + 32 * len(found)
    if data[end : end + 32] != bytes(32):
        raise BuildError("delay-load descriptor array has no null terminator")
    patched = bytearray(data)
    struct.pack_into(
        "<II", patched, h.data_directories + 13 * 8, h.offset_to_rva(found[0]), 32 * (len(found) + 1)
    )
    return bytes(patched)


# --- corrupt variants ----------------------------------------------------------------


def corrupt_variants(good: bytes) -> dict[str, bytes]:
    h = read_headers(good)
    bad_mz = b"\0\0" + good[2:]
    bad_sig = good[: h.lfanew] + b"PX\0\0" + good[h.lfanew + 4 :]
    # Cut 20 bytes into the middle section header (of 40 bytes each).
    cut = h.section_table + 40 * (h.nsections // 2) + 20
    half = len(good) // 2
    if half < h.size_of_headers:
        raise BuildError("chain_c.dll: half the file would not keep the headers intact")
    return {
        "corrupt/bad_mz.dll": bad_mz,
        "corrupt/bad_pe_sig.dll": bad_sig,
        "corrupt/truncated_sections.dll": good[:cut],
        "corrupt/truncated_body.dll": good[:half],
        "corrupt/zero.dll": b"",
        "corrupt/lfs_pointer.dll": LFS_POINTER.encode("ascii"),
        "corrupt/text.dll": b"not a dll\n",
    }


# --- driver --------------------------------------------------------------------------


def required_tools() -> list[str]:
    tools = {f"{t.arch.prefix}{tool}" for t in TARGETS for tool in ("gcc", "dlltool")}
    tools |= {f"{t.arch.prefix}windres" for t in TARGETS if t.resource}
    return sorted(tools)


def build(out_dir: Path) -> list[Path]:
    missing = [tool for tool in required_tools() if shutil.which(tool) is None]
    if missing:
        raise BuildError("not on PATH: " + ", ".join(missing) + " (install mingw-w64)")
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="dlldoctor-pe-") as tmp:
        work = Path(tmp)
        # Compile from a scratch copy by relative names so no path of this checkout
        # can end up in an output.
        for f in SRC.iterdir():
            if f.is_file():
                shutil.copy2(f, work / f.name)
        for arch in (X64, X86):
            (work / arch.name).mkdir()
        built: dict[str, bytes] = {}
        for t in TARGETS:
            built[t.out] = build_target(t, work).read_bytes()
        for dst, src in COPIES:
            built[dst] = built[src]
        built.update(corrupt_variants(built["x64/chain_c.dll"]))
        for rel, data in sorted(built.items()):
            path = out_dir / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help="output directory (default: corpus/pe/bin next to this script)",
    )
    args = parser.parse_args(argv)
    try:
        written = build(args.out)
    except BuildError as e:
        print(f"build.py: {e}", file=sys.stderr)
        return 1
    for path in written:
        print(f"{path.stat().st_size:7d}  {os.path.relpath(path, args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
