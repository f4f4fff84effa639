"""The Windows machine a target would run on: interpreter, python.exe folder, PATH, System32.

Every fact dlldoctor does not see but has to assume is recorded as a sentence in
``Environment.assumptions``; the report prints them all.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dlldoctor.errors import InputError
from dlldoctor.install.sources import Entry, FolderSource
from dlldoctor.install.wheelname import PLATFORM_MACHINES, parse_wheel_name
from dlldoctor.loader.sysprofile import SystemProfile

_CP_TAG = re.compile(r"\.cp(3)(\d{1,2})[-_]", re.IGNORECASE)
_WHEEL_TAG = re.compile(r"-cp(3)(\d{1,2})-[^-]+-(win32|win_amd64|win_arm64)", re.IGNORECASE)
_PYTHON_DLL = re.compile(r"^python(3)(\d{1,2})(_d)?\.dll$", re.IGNORECASE)


@dataclass(frozen=True)
class Folder:
    """A folder the loader can search: its PE files by lower-case name."""

    label: str
    files: Mapping[str, Entry] = field(default_factory=dict)

    def get(self, name: str) -> Entry | None:
        return self.files.get(name.lower())


def folder_of(entries: Iterable[Entry], label: str) -> Folder:
    files: dict[str, Entry] = {}
    for entry in entries:
        files.setdefault(entry.name.lower(), entry)
    return Folder(label, files)


def copied_folder(path: str, role: str) -> Folder:
    """A copy of a Windows folder (System32, a PATH entry, the python.exe folder), read flat."""
    root = Path(path)
    if not root.is_dir():
        raise InputError(f"{path}: {role} folder does not exist")
    source = FolderSource(root, recursive=False)
    return folder_of(source.entries(), str(root))


@dataclass(frozen=True)
class Environment:
    python: tuple[int, int] | None
    machine: str
    env_type: str  # system, venv, conda, store, embedded, unknown
    app_dir: Folder | None
    path_dirs: tuple[Folder, ...]
    system_dir: Folder | None
    profile: SystemProfile
    assumptions: tuple[str, ...] = ()

    @property
    def python_dll(self) -> str | None:
        return f"python{self.python[0]}{self.python[1]}.dll" if self.python else None

    @property
    def modern_loader(self) -> bool:
        """Python 3.8 and later: PATH is not searched for an extension module's dependencies."""
        return self.python is None or self.python >= (3, 8)


def parse_python_version(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d)\.(\d{1,2})", text.strip())
    if not match:
        raise InputError(f"--python {text}: expected a version like 3.11")
    return int(match.group(1)), int(match.group(2))


def infer_python(
    names: Iterable[str], imported_dlls: Iterable[str]
) -> tuple[tuple[int, int] | None, str | None]:
    """Python version from cpXY tags and pythonXY.dll imports: (version, how it was found)."""
    votes: Counter[tuple[int, int]] = Counter()
    for name in names:
        tags = parse_wheel_name(name) if name.lower().endswith(".whl") else None
        if tags is not None and tags.abi3:
            continue  # cp38-abi3: CPython 3.8 or any later one, not 3.8 itself
        for pattern in (_CP_TAG, _WHEEL_TAG):
            match = pattern.search(name)
            if match:
                votes[(int(match.group(1)), int(match.group(2)))] += 1
    for dll in imported_dlls:
        match = _PYTHON_DLL.match(dll)
        if match:
            votes[(int(match.group(1)), int(match.group(2)))] += 1
    if not votes:
        return None, None
    # Most votes first; a tie goes to the newer version, whatever order the names came in (a set's).
    (version, count), *others = sorted(votes.items(), key=lambda vc: (-vc[1], -vc[0][0], -vc[0][1]))
    how = f"inferred from cpXY tags and pythonXY.dll imports ({count} votes"
    how += f"; also seen: {', '.join(f'{a}.{b}' for (a, b), _ in others)})" if others else ")"
    return version, how


def infer_machine(names: Iterable[str], pyd_machines: Iterable[str]) -> tuple[str, str]:
    names = list(names)
    for name in names:
        tags = parse_wheel_name(name) if name.lower().endswith(".whl") else None
        if tags is not None and tags.machine is not None:
            platform = next(p for p in sorted(tags.platforms) if p in PLATFORM_MACHINES)
            return tags.machine, f"from the platform tag {platform}"
        if tags is not None and tags.platforms == {"any"}:
            return "x64", "assumed 64-bit (x64) Python: the wheel is for any platform"
    for name in names:
        match = _WHEEL_TAG.search(name)
        if match:
            return PLATFORM_MACHINES[match.group(3).lower()], f"from the platform tag {match.group(3)}"
    counted = Counter(pyd_machines).most_common(1)
    if counted:
        return counted[0][0], "from the machine type of the target's modules"
    return "x64", "assumed 64-bit (x64) Python, the common case"
