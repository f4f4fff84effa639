"""Helpers for tests/test_hostile_inputs.py: run the CLI in a fenced child process and build bad inputs.

Everything here is black-box: the CLI is started as ``python -m dlldoctor`` and nothing of the engine is
imported, so these helpers keep working however the engine's modules are arranged.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "rules"
PE_BIN = ROOT / "corpus" / "pe" / "bin"

GIB = 1 << 30
MIB = 1 << 20

# The fence around every child process.
#
# Memory: RLIMIT_AS (address space) of 1 GiB, set in the child before it execs Python. A plain
# `dlldoctor --version`, a scan (which imports lief) and `--jobs 2` all run under it (they need a few
# hundred MiB of address space; peak RSS is ~100 MB), so the limit measures dlldoctor rather than the
# interpreter. RLIMIT_AS is chosen over RLIMIT_DATA because it also counts mmap'ed memory (big reads,
# RE2 and lief allocations go through mmap), and over watching ru_maxrss afterwards because it stops a
# runaway allocation at once instead of letting it take the CI machine's RAM first. Worker processes of
# `--jobs` inherit it, each with its own 1 GiB; dlldoctor caps its reader threads at 4 per process, so
# the thread stacks and malloc arenas that count against the limit do not grow with the core count.
# The peak RSS of the child is still recorded (os.wait4) for the failure messages.
MEMORY_LIMIT = GIB
TIMEOUT = 30.0  # seconds, per CLI run
_HEAD = 4 * MIB  # bytes of stdout/stderr kept for assertions (the sizes are always known exactly)


@dataclass
class Run:
    """What one CLI run did."""

    args: tuple[str, ...]
    returncode: int | None  # None: killed at the timeout; negative: killed by that signal
    timed_out: bool
    seconds: float
    stdout: str  # the first _HEAD bytes, decoded with replacement
    stderr: str
    stdout_size: int
    stderr_size: int
    stderr_has_traceback: bool  # searched in the whole stderr, not only the kept head
    peak_rss_mb: float

    def summary(self) -> str:
        """A few lines that say what went wrong, for assertion messages."""
        if self.timed_out:
            outcome = f"did not end in {TIMEOUT:.0f} s (killed)"
        elif self.returncode is not None and self.returncode < 0:
            outcome = f"killed by signal {signal.Signals(-self.returncode).name}"
        else:
            outcome = f"exit {self.returncode}"
        tail = [line for line in self.stderr.strip().splitlines() if line.strip()][-3:]
        return (
            f"`dlldoctor {' '.join(self.args)[:300]}`: {outcome} after {self.seconds:.1f} s, "
            f"peak RSS {self.peak_rss_mb:.0f} MB, stdout {self.stdout_size} B, stderr {self.stderr_size} B"
            + ("\n  stderr ends: " + "\n  ".join(tail) if tail else "")
        )


def cli_env(tmp_path: Path, **extra: str | None) -> dict[str, str]:
    """The child's environment: a private cache, plain UTF-8 output, no colour.

    dlldoctor keeps its PE-fact and rule caches in ``$DLLDOCTOR_CACHE_DIR``, else in platformdirs'
    user cache folder (``$XDG_CACHE_HOME``/``~/.cache`` on Linux, ``~/Library/Caches`` on macOS). The
    variable is pointed into ``tmp_path``, and so are XDG_CACHE_HOME and HOME in case it is ever ignored.
    ``extra`` values of None remove a variable.
    """
    env = dict(os.environ)
    for name in ("DLLDOCTOR_NO_CACHE", "PYTHONIOENCODING", "PYTHONUTF8", "FORCE_COLOR"):
        env.pop(name, None)
    env.update(
        DLLDOCTOR_CACHE_DIR=str(tmp_path / "cache"),
        XDG_CACHE_HOME=str(tmp_path / "xdg-cache"),
        HOME=str(tmp_path / "home"),
        PYTHONIOENCODING="utf-8",  # strict, as on a UTF-8 terminal; a test sets cp1252 where it means to
        NO_COLOR="1",
        COLUMNS="120",
    )
    for name, value in extra.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def _fence() -> None:
    import resource

    # macOS refuses (or ignores) RLIMIT_AS; there the peak-RSS check in check() is the fence.
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # an abort() must not write a core file


def _scan_for_traceback(path: Path) -> bool:
    marker = b"Traceback (most recent call last)"
    carry = b""
    with path.open("rb") as fh:
        while chunk := fh.read(MIB):
            if marker in carry + chunk:
                return True
            carry = chunk[-len(marker) :]
    return False


def _head(path: Path) -> str:
    with path.open("rb") as fh:
        return fh.read(_HEAD).decode("utf-8", "replace")


def run_cli(
    args: Sequence[str | os.PathLike[str] | bytes],
    tmp_path: Path,
    *,
    env: dict[str, str] | None = None,
    during: Callable[[int], None] | None = None,
    timeout: float = TIMEOUT,
) -> Run:
    """Run ``python -m dlldoctor ARGS`` fenced by MEMORY_LIMIT and ``timeout``.

    The child gets its own session, so at the timeout the whole group (worker processes too) is killed.
    stdout and stderr go to files, so a child that prints gigabytes costs disk, not the test's memory.
    ``during(pid)`` runs on a thread while the child runs (to poke at it from outside).
    """
    out_dir = tmp_path / "runs"
    out_dir.mkdir(exist_ok=True)
    stamp = f"{time.monotonic_ns()}"
    out_path, err_path = out_dir / f"{stamp}.out", out_dir / f"{stamp}.err"
    argv = [
        sys.executable,
        "-m",
        "dlldoctor",
        *(os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in args),
    ]
    start = time.monotonic()
    with out_path.open("wb") as out, err_path.open("wb") as err:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            env=env if env is not None else cli_env(tmp_path),
            preexec_fn=_fence,
            start_new_session=True,
        )
    poker = None
    if during is not None:
        poker = threading.Thread(target=during, args=(proc.pid,), daemon=True)
        poker.start()
    status, usage, timed_out = None, None, False
    deadline = start + timeout
    while True:
        pid, raw, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            status = os.waitstatus_to_exitcode(raw)
            break
        if time.monotonic() > deadline:
            timed_out = True
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            _, raw, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.02)
    proc.returncode = status if status is not None else -signal.SIGKILL  # reaped here, not by Popen
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)  # workers left behind by a parent that died
    if poker is not None:
        poker.join(timeout=5)
    seconds = time.monotonic() - start
    return Run(
        args=tuple(os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in args),
        returncode=None if timed_out else status,
        timed_out=timed_out,
        seconds=seconds,
        stdout=_head(out_path),
        stderr=_head(err_path),
        stdout_size=out_path.stat().st_size,
        stderr_size=err_path.stat().st_size,
        stderr_has_traceback=_scan_for_traceback(err_path),
        # ru_maxrss is in KiB on Linux, in bytes on macOS
        peak_rss_mb=(usage.ru_maxrss / (MIB if sys.platform == "darwin" else 1024))
        if usage is not None
        else 0.0,
    )


def check(
    run: Run,
    codes: Iterable[int] = (0, 1, 2),
    *,
    one_line: bool = False,
    quiet_stderr: bool = False,
    max_output: int | None = None,
) -> Run:
    """The promises every run keeps on hostile input; returns the run for further checks.

    Ends within the timeout and the memory fence, exits 0, 1 or 2 (narrowed by ``codes``), and prints no
    traceback. ``one_line``: stderr is exactly one line (the CLI's "dlldoctor: error: ..."). ``quiet_stderr``:
    at most one line (a warning) next to a report. ``max_output``: stdout + stderr stay under this many bytes.
    """
    codes = tuple(codes)
    assert not run.timed_out, run.summary()
    assert run.returncode in (0, 1, 2), run.summary()
    assert not run.stderr_has_traceback, run.summary()
    assert run.peak_rss_mb <= MEMORY_LIMIT / MIB, "over the memory limit: " + run.summary()
    assert run.returncode in codes, f"expected exit {' or '.join(map(str, codes))}: " + run.summary()
    if max_output is not None:
        assert run.stdout_size + run.stderr_size < max_output, "output too long: " + run.summary()
    if one_line:
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and run.stderr_size < 4096, "stderr is not one line: " + run.summary()
    if quiet_stderr:
        assert len(run.stderr.strip().splitlines()) <= 1, "stderr has more than a line: " + run.summary()
    return run


# ---- PE files ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SectionHeader:
    name: str
    at: int  # offset of the 40-byte header in the file


def optional_header_offset(data: bytes) -> int:
    (pe_at,) = struct.unpack_from("<I", data, 0x3C)
    assert data[pe_at : pe_at + 4] == b"PE\0\0"
    return pe_at + 24


def section_headers(data: bytes) -> list[SectionHeader]:
    (pe_at,) = struct.unpack_from("<I", data, 0x3C)
    count, opt_size = (
        struct.unpack_from("<H", data, pe_at + 6)[0],
        struct.unpack_from("<H", data, pe_at + 20)[0],
    )
    first = pe_at + 24 + opt_size
    return [
        SectionHeader(data[first + 40 * i : first + 40 * i + 8].rstrip(b"\0").decode(), first + 40 * i)
        for i in range(count)
    ]


def patch_section(
    data: bytes,
    name: str,
    *,
    virtual_size: int | None = None,
    raw_size: int | None = None,
    raw_offset: int | None = None,
) -> bytes:
    """Rewrite fields of section ``name``'s header (VirtualSize, SizeOfRawData, PointerToRawData)."""
    out = bytearray(data)
    (header,) = [s for s in section_headers(data) if s.name == name]
    for value, field in ((virtual_size, 8), (raw_size, 16), (raw_offset, 20)):
        if value is not None:
            struct.pack_into("<I", out, header.at + field, value)
    return bytes(out)


def patch_size_of_headers(data: bytes, value: int) -> bytes:
    out = bytearray(data)
    struct.pack_into("<I", out, optional_header_offset(data) + 60, value)
    return bytes(out)


def _pack(*fields: tuple[str, int]) -> bytes:
    """Little-endian fields, each as (struct code, value)."""
    return struct.pack("<" + "".join(code for code, _ in fields), *(value for _, value in fields))


def _align(value: int, to: int) -> int:
    return -(-value // to) * to


def minimal_dll(name: str, imports: str | None = None, function: str = "f") -> bytes:
    """A tiny PE32+ (x64) DLL named ``name`` that exports ``function`` and imports it from ``imports``.

    One section (.rdata, RVA 0x1000, file offset 0x200) holds the export directory, the import
    descriptor with its lookup and address tables, and a one-byte "function" (a RET) that the export
    points at. 1 KB per file: enough for a loader model, nothing to run.
    """
    file_align, section_align, rva0 = 0x200, 0x1000, 0x1000
    body = bytearray()

    def put(blob: bytes, align: int = 4) -> int:
        body.extend(b"\0" * (_align(len(body), align) - len(body)))
        at = len(body)
        body.extend(blob)
        return rva0 + at

    code_rva = put(b"\xc3", 16)
    # export directory: the 40-byte header first, its tables after it (addresses filled in below)
    export_at = len(body)
    body.extend(b"\0" * 40)
    dll_name_rva = put(name.encode() + b"\0")
    func_name_rva = put(function.encode() + b"\0")
    eat_rva = put(struct.pack("<I", code_rva))
    names_rva = put(struct.pack("<I", func_name_rva))
    ordinals_rva = put(struct.pack("<H", 0))
    struct.pack_into(
        "<IIHHIIIIIII", body, export_at, 0, 0, 0, 0, dll_name_rva, 1, 1, 1, eat_rva, names_rva, ordinals_rva
    )
    export_dir = (rva0 + export_at, len(body) - export_at)
    import_dir = iat_dir = (0, 0)
    if imports is not None:
        hint_name_rva = put(struct.pack("<H", 0) + function.encode() + b"\0", 2)
        lib_rva = put(imports.encode() + b"\0")
        ilt_rva = put(struct.pack("<QQ", hint_name_rva, 0), 8)
        iat_rva = put(struct.pack("<QQ", hint_name_rva, 0), 8)
        desc_rva = put(struct.pack("<IIIII", ilt_rva, 0, 0, lib_rva, iat_rva) + b"\0" * 20)
        import_dir, iat_dir = (desc_rva, 40), (iat_rva, 16)
    virtual_size = len(body)
    raw_size = _align(virtual_size, file_align)
    body.extend(b"\0" * (raw_size - virtual_size))

    directories = [(0, 0)] * 16
    directories[0], directories[1], directories[12] = export_dir, import_dir, iat_dir
    optional = _pack(
        ("H", 0x20B),  # Magic: PE32+
        ("B", 14),  # MajorLinkerVersion
        ("B", 0),  # MinorLinkerVersion
        ("I", 0),  # SizeOfCode
        ("I", raw_size),  # SizeOfInitializedData
        ("I", 0),  # SizeOfUninitializedData
        ("I", 0),  # AddressOfEntryPoint: none
        ("I", rva0),  # BaseOfCode
        ("Q", 0x180000000),  # ImageBase
        ("I", section_align),  # SectionAlignment
        ("I", file_align),  # FileAlignment
        ("H", 6),  # MajorOperatingSystemVersion
        ("H", 0),  # MinorOperatingSystemVersion
        ("H", 0),  # MajorImageVersion
        ("H", 0),  # MinorImageVersion
        ("H", 6),  # MajorSubsystemVersion
        ("H", 0),  # MinorSubsystemVersion
        ("I", 0),  # Win32VersionValue
        ("I", rva0 + _align(virtual_size, section_align)),  # SizeOfImage
        ("I", file_align),  # SizeOfHeaders
        ("I", 0),  # CheckSum
        ("H", 3),  # Subsystem: console
        ("H", 0x0160),  # DllCharacteristics: high-entropy VA, dynamic base, NX compatible
        ("Q", 0x100000),  # SizeOfStackReserve
        ("Q", 0x1000),  # SizeOfStackCommit
        ("Q", 0x100000),  # SizeOfHeapReserve
        ("Q", 0x1000),  # SizeOfHeapCommit
        ("I", 0),  # LoaderFlags
        ("I", 16),  # NumberOfRvaAndSizes
    ) + b"".join(struct.pack("<II", *d) for d in directories)
    assert len(optional) == 240
    # machine x64, one section, no symbols; characteristics: executable, large-address aware, DLL
    coff = struct.pack("<HHIIIHH", 0x8664, 1, 0, 0, 0, len(optional), 0x2022)
    section = struct.pack(
        "<8sIIIIIIHHI", b".rdata", virtual_size, rva0, raw_size, file_align, 0, 0, 0, 0, 0x40000040
    )
    dos = bytearray(64)
    dos[0:2] = b"MZ"
    struct.pack_into("<I", dos, 0x3C, 64)
    headers = bytes(dos) + b"PE\0\0" + coff + optional + section
    assert len(headers) <= file_align
    return headers + b"\0" * (file_align - len(headers)) + bytes(body)


def write_chain(folder: Path, count: int, stem: str = "a") -> list[str]:
    """``stem0.dll`` imports ``stem1.dll`` imports ... ``stem{count-1}.dll`` (which imports nothing)."""
    folder.mkdir(parents=True, exist_ok=True)
    names = [f"{stem}{i}.dll" for i in range(count)]
    for i, name in enumerate(names):
        following = names[i + 1] if i + 1 < count else None
        (folder / name).write_bytes(minimal_dll(name, following))
    return names


# ---- zip files with big members that stay small on disk -------------------------------------------------


@dataclass(frozen=True)
class Repeat:
    """``block`` written ``count`` times: compressed once, so gigabytes cost a few MB of zip."""

    block: bytes
    count: int


Segment = bytes | Repeat


def _deflate_segments(segments: Sequence[Segment]) -> tuple[list[bytes | tuple[bytes, int]], int, int]:
    """Raw deflate of the segments, a full flush after each piece, so a repeated block compresses once.

    After Z_FULL_FLUSH the compressor starts over with an empty window, byte-aligned: compressing the same
    block again gives the same bytes, which can then simply be written ``count`` times.
    """
    deflater = zlib.compressobj(6, zlib.DEFLATED, -15)
    pieces: list[bytes | tuple[bytes, int]] = []
    crc = size = 0
    for segment in segments:
        if isinstance(segment, Repeat):
            once = deflater.compress(segment.block) + deflater.flush(zlib.Z_FULL_FLUSH)
            again = deflater.compress(segment.block) + deflater.flush(zlib.Z_FULL_FLUSH)
            assert once == again, "a fully flushed block must compress the same way twice"
            pieces.append((once, segment.count))
            for _ in range(segment.count):
                crc = zlib.crc32(segment.block, crc)
            size += len(segment.block) * segment.count
        else:
            pieces.append(deflater.compress(segment) + deflater.flush(zlib.Z_FULL_FLUSH))
            crc = zlib.crc32(segment, crc)
            size += len(segment)
    pieces.append(deflater.flush(zlib.Z_FINISH))
    return pieces, crc, size


def write_zip(
    path: Path,
    members: Sequence[tuple[str, Segment | Sequence[Segment]]],
    *,
    claim_size: dict[str, int] | None = None,
) -> Path:
    """A deflated zip of ``members``; ``claim_size`` makes the headers state another uncompressed size.

    Written by hand (no zip64: every member stays under 4 GiB) because zipfile would compress each
    gigabyte again. The result is an ordinary zip that zipfile and unzip read.
    """
    claim_size = claim_size or {}
    central = bytearray()
    dos_time, dos_date = 0, (2024 - 1980) << 9 | 1 << 5 | 1
    with path.open("wb") as fh:
        for name, content in members:
            segments = [content] if isinstance(content, (bytes, Repeat)) else list(content)
            pieces, crc, size = _deflate_segments(segments)
            compressed = sum(len(p) if isinstance(p, bytes) else len(p[0]) * p[1] for p in pieces)
            size = claim_size.get(name, size)
            assert size < 1 << 32 and compressed < 1 << 32
            encoded = name.encode()
            offset = fh.tell()
            fh.write(
                _pack(
                    ("I", 0x04034B50),  # local file header signature
                    ("H", 20),  # version needed to extract
                    ("H", 0),  # flags
                    ("H", 8),  # method: deflate
                    ("H", dos_time),
                    ("H", dos_date),
                    ("I", crc),
                    ("I", compressed),  # compressed size
                    ("I", size),  # uncompressed size
                    ("H", len(encoded)),  # name length
                    ("H", 0),  # extra field length
                )
            )
            fh.write(encoded)
            for piece in pieces:
                if isinstance(piece, bytes):
                    fh.write(piece)
                else:
                    block, count = piece
                    for _ in range(count):
                        fh.write(block)
            central += (
                _pack(
                    ("I", 0x02014B50),  # central directory header signature
                    ("H", 20),  # version made by
                    ("H", 20),  # version needed to extract
                    ("H", 0),  # flags
                    ("H", 8),  # method: deflate
                    ("H", dos_time),
                    ("H", dos_date),
                    ("I", crc),
                    ("I", compressed),  # compressed size
                    ("I", size),  # uncompressed size
                    ("H", len(encoded)),  # name length
                    ("H", 0),  # extra field length
                    ("H", 0),  # comment length
                    ("H", 0),  # disk number
                    ("H", 0),  # internal attributes
                    ("I", 0o100644 << 16),  # external attributes: a regular file, rw-r--r--
                    ("I", offset),  # where the local header is
                )
                + encoded
            )
        start = fh.tell()
        fh.write(central)
        fh.write(
            _pack(
                ("I", 0x06054B50),  # end of central directory signature
                ("H", 0),  # this disk
                ("H", 0),  # disk of the central directory
                ("H", len(members)),  # entries on this disk
                ("H", len(members)),  # entries in all
                ("I", len(central)),  # size of the central directory
                ("I", start),  # where it starts
                ("H", 0),  # comment length
            )
        )
    return path


def dist_info(name: str, version: str = "1.0", record: bytes | None = None) -> list[tuple[str, bytes]]:
    folder = f"{name}-{version}.dist-info"
    wheel = (
        b"Wheel-Version: 1.0\nGenerator: hostile-tests\nRoot-Is-Purelib: false\nTag: cp311-cp311-win_amd64\n"
    )
    metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    items = [(f"{folder}/METADATA", metadata), (f"{folder}/WHEEL", wheel)]
    if record is not None:
        items.append((f"{folder}/RECORD", record))
    return items


# ---- rule sets -----------------------------------------------------------------------------------------


def copy_rules(dest: Path) -> Path:
    """A private copy of the built-in rule set, to damage."""
    shutil.copytree(RULES, dest, symlinks=True)
    return dest


def fixture(name: str, arch: str = "x64") -> bytes:
    return (PE_BIN / arch / name).read_bytes()
