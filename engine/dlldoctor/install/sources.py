"""Find the PE files of a target: a folder, a wheel read in place, or a single file.

PE files are recognised by their ``MZ`` magic, not their name. Files whose names say they must be PE
files (``.dll``, ``.pyd``, ``.exe``) are kept even when the magic is wrong, so that a zeroed or
truncated DLL shows up as corrupt instead of vanishing. Nothing is ever written or extracted: wheel
members are streamed from the zip file one at a time.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import stat
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, cast

from dlldoctor.bounded import read_regular
from dlldoctor.errors import InputError
from dlldoctor.install.wheelname import parse_wheel_name

PE_SUFFIXES = (".dll", ".pyd", ".exe", ".sys", ".drv", ".ocx", ".cpl", ".node")
# Formats that are never PE files: skipping them keeps a walk of a big site-packages cheap.
NOT_PE_SUFFIXES = frozenset(
    [
        ".py",
        ".pyc",
        ".pyi",
        ".pyx",
        ".pxd",
        ".pth",
        ".h",
        ".hpp",
        ".hxx",
        ".cuh",
        ".inl",
        ".c",
        ".cc",
        ".cpp",
        ".cu",
        ".txt",
        ".md",
        ".rst",
        ".json",
        ".yaml",
        ".yml",
        ".toml",
        ".cfg",
        ".ini",
        ".html",
        ".htm",
        ".js",
        ".css",
        ".csv",
        ".typed",
        ".xml",
        ".svg",
        ".png",
        ".jpg",
        ".jpeg",
        ".gif",
        ".ttf",
        ".pem",
        ".lib",
        ".a",
        ".cmake",
        ".proto",
        ".ipynb",
        ".npz",
        ".npy",
        ".pkl",
        ".pt",
        ".onnx",
        ".safetensors",
        ".sh",
        ".bat",
        ".ps1",
        ".in",
        ".license",
        ".rec",
    ]
)
_CHUNK = 1 << 20


@dataclass(frozen=True)
class Entry:
    """One candidate PE file of a target."""

    relpath: str  # posix path inside the target: "torch/lib/c10.dll"
    location: str  # what the user reads: "torch-2.13.0-...whl!torch/lib/c10.dll" or a real path
    size: int
    origin: Source = field(compare=False, repr=False)

    @property
    def name(self) -> str:
        return posixpath.basename(self.relpath)

    @property
    def folder(self) -> str:
        return posixpath.dirname(self.relpath)

    def open(self) -> BinaryIO:
        return self.origin.open(self)

    def sha256(self) -> str:
        digest = hashlib.sha256()
        with self.open() as stream:
            while chunk := stream.read(_CHUNK):
                digest.update(chunk)
        return digest.hexdigest()


class Source:
    """Where a target's files come from; subclasses open entries and list the other files."""

    label: str

    def entries(self) -> Iterator[Entry]:
        raise NotImplementedError

    def open(self, entry: Entry) -> BinaryIO:
        raise NotImplementedError

    def names(self) -> frozenset[str]:
        """Every file path in the target (posix, relative), PE or not."""
        raise NotImplementedError

    def read_text(self, relpath: str, cap: int) -> str | None:
        """A metadata file as text; None when it is missing, unreadable, not a regular file inside the
        target, or larger than ``cap`` bytes (metadata only adds facts: it is then left out)."""
        raise NotImplementedError

    def close(self) -> None:
        """Release file handles."""


def _suffix(name: str) -> str:
    return posixpath.splitext(name)[1].lower()


def _maybe_pe(name: str) -> bool:
    return _suffix(name) not in NOT_PE_SUFFIXES


class FolderSource(Source):
    def __init__(self, root: Path, recursive: bool = True) -> None:
        self.root = root
        self.recursive = recursive
        self.label = str(root)
        self._names: list[str] = []
        self.outside_links: list[str] = []  # PE-looking links that point out of the target: never read

    def entries(self) -> Iterator[Entry]:
        for dirpath, dirnames, filenames in os.walk(self.root, onerror=None, followlinks=False):
            if not self.recursive:
                dirnames.clear()
            dirnames.sort()
            rel_dir = os.path.relpath(dirpath, self.root)
            prefix = "" if rel_dir == "." else Path(rel_dir).as_posix() + "/"
            for filename in sorted(filenames):
                relpath = prefix + filename
                self._names.append(relpath)
                if not _maybe_pe(relpath):
                    continue  # headers, sources, images: never PE, so not even stat'ed (24k files in torch)
                entry = self._entry(Path(dirpath) / filename, relpath)
                if entry is not None:
                    yield entry

    def _entry(self, path: Path, relpath: str) -> Entry | None:
        try:
            if path.is_symlink() and not path.resolve().is_relative_to(self.root.resolve()):
                self.outside_links.append(relpath)
                return None
            info = path.stat()
        except (OSError, RuntimeError):  # RuntimeError: a link loop
            return None
        if not stat.S_ISREG(info.st_mode):
            return None
        if _suffix(relpath) not in PE_SUFFIXES and not (
            _maybe_pe(relpath) and info.st_size >= 64 and _starts_with_mz(path)
        ):
            return None
        return Entry(relpath, str(path), info.st_size, self)

    def open(self, entry: Entry) -> BinaryIO:
        return cast(BinaryIO, (self.root / entry.relpath).open("rb"))

    def names(self) -> frozenset[str]:
        return frozenset(self._names)

    def read_text(self, relpath: str, cap: int) -> str | None:
        try:
            data = read_regular(self.root / relpath, cap, root=self.root)
        except OSError:  # UnsafeFile too: a FIFO, /dev/zero, a symlink out of the target, too big
            return None
        return data.decode("utf-8", "replace")


def _starts_with_mz(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            return fh.read(2) == b"MZ"
    except OSError:
        return False


class WheelSource(Source):
    def __init__(self, path: Path) -> None:
        self.path = path
        self.label = path.name
        try:
            self.zip = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError, ValueError) as e:
            raise InputError(f"{path}: not a readable wheel (zip) file: {e}") from e
        self._infos = {info.filename: info for info in self.zip.infolist() if not info.is_dir()}

    def entries(self) -> Iterator[Entry]:
        for name in sorted(self._infos):
            info = self._infos[name]
            if _suffix(name) not in PE_SUFFIXES and not (
                _maybe_pe(name) and info.file_size >= 64 and self._starts_with_mz(info)
            ):
                continue
            yield Entry(name, f"{self.label}!{name}", info.file_size, self)

    def _starts_with_mz(self, info: zipfile.ZipInfo) -> bool:
        try:
            with self.zip.open(info) as fh:
                return fh.read(2) == b"MZ"
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, RuntimeError):
            # Unreadable members are kept when their name says PE, and reported as corrupt.
            return False

    def open(self, entry: Entry) -> BinaryIO:
        try:
            return cast(BinaryIO, self.zip.open(self._infos[entry.relpath]))
        except (zipfile.BadZipFile, ValueError, NotImplementedError, RuntimeError) as e:
            # An encrypted member, an unsupported compression method, a damaged local header: a
            # finding about this member, not a reason to stop the whole scan.
            raise OSError(f"cannot read the zip member: {e}") from e

    def names(self) -> frozenset[str]:
        return frozenset(self._infos)

    def read_text(self, relpath: str, cap: int) -> str | None:
        info = self._infos.get(relpath)
        if info is None or info.file_size > cap:
            return None
        try:
            with self.zip.open(info) as fh:
                data = fh.read(cap + 1)  # the header's size may lie: never inflate past the cap
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, RuntimeError):
            return None
        return None if len(data) > cap else data.decode("utf-8", "replace")

    def close(self) -> None:
        self.zip.close()


class FileSource(FolderSource):
    """A single file. Its siblings are searchable ("same folder") but are not scanned themselves."""

    def __init__(self, path: Path) -> None:
        super().__init__(path.parent, recursive=False)
        self.file = path
        self.label = str(path)

    def entries(self) -> Iterator[Entry]:
        self._names = [self.file.name]
        info = self.file.stat()
        yield Entry(self.file.name, str(self.file), info.st_size, self)

    def siblings(self) -> list[Entry]:
        return [e for e in FolderSource.entries(self) if e.relpath != self.file.name]


class CombinedSource(Source):
    """Several wheels installed into one site-packages (``scan --together``): one namespace of files."""

    def __init__(self, parts: list[Source]) -> None:
        self.parts = parts
        self.label = " + ".join(part.label for part in parts)
        self.is_wheel = all(isinstance(part, WheelSource) for part in parts)

    def entries(self) -> Iterator[Entry]:
        seen: set[str] = set()
        for part in self.parts:
            for entry in part.entries():
                if (
                    entry.relpath.lower() not in seen
                ):  # the first wheel wins, as pip's last write would differ
                    seen.add(entry.relpath.lower())
                    yield entry

    def open(self, entry: Entry) -> BinaryIO:
        return entry.origin.open(entry)

    def names(self) -> frozenset[str]:
        return frozenset().union(*(part.names() for part in self.parts))

    def read_text(self, relpath: str, cap: int) -> str | None:
        for part in self.parts:
            text = part.read_text(relpath, cap)
            if text is not None:
                return text
        return None

    def close(self) -> None:
        for part in self.parts:
            part.close()


def open_targets(targets: tuple[str, ...]) -> Source:
    """Several wheels as one installed environment; every target must be a wheel."""
    parts: list[Source] = []
    try:
        for target in targets:
            part = open_target(target)
            parts.append(part)
            if not isinstance(part, WheelSource):
                raise InputError(f"{target}: --together combines wheels (.whl files) only")
    except BaseException:
        for part in parts:
            part.close()
        raise
    return CombinedSource(parts)


def open_target(target: str) -> Source:
    """Open a target path as a source, or raise ``InputError`` saying why it cannot be read."""
    path = Path(target)
    if not path.exists():
        raise InputError(f"{target}: no such file or folder")
    if path.is_dir():
        if not os.access(path, os.R_OK | os.X_OK):
            raise InputError(f"{target}: folder is not readable")
        return FolderSource(path)
    if not path.is_file():
        raise InputError(f"{target}: not a regular file or folder")
    if not os.access(path, os.R_OK):
        raise InputError(f"{target}: file is not readable")
    if path.suffix.lower() == ".whl":
        tags = parse_wheel_name(path.name)
        if tags is not None and not tags.windows:
            platforms = ", ".join(sorted(tags.platforms))
            raise InputError(
                f"{target}: a wheel for {platforms}, not Windows: dlldoctor checks win32, win_amd64 and "
                "win_arm64 wheels (and py3-none-any ones)"
            )
    if path.suffix.lower() in (".whl", ".zip"):
        return WheelSource(path)
    return FileSource(path)


def wheel_install_folder(relpath: str) -> str:
    """Where a wheel member lands relative to the env root's site-packages, or ``<prefix>/...`` for data.

    ``pkg-1.0.data/data/x.dll`` installs into the environment root (next to python.exe), ``.../scripts/``
    into ``Scripts``; purelib/platlib into site-packages.
    """
    parts = relpath.split("/")
    if len(parts) >= 3 and parts[0].endswith(".data"):
        kind, rest = parts[1], "/".join(parts[2:])
        if kind == "data" and rest.lower().startswith("lib/site-packages/"):
            return posixpath.dirname(rest[len("lib/site-packages/") :])  # <prefix>\Lib\site-packages
        if kind == "data":
            return posixpath.join("<prefix>", posixpath.dirname(rest)).rstrip("/")
        if kind == "scripts":
            return "<prefix>/Scripts"
        return posixpath.dirname(rest)
    return posixpath.dirname(relpath)
