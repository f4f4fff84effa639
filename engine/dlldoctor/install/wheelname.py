"""What a wheel's file name says: its platform, hence the process it is for, and the Python it needs.

Read with ``packaging`` (the tags PyPA tools write), not a hand pattern: ``cp311-abi3`` means CPython 3.11
or newer, ``py3-none-win_amd64`` a 64-bit process of any Python 3.
"""

from __future__ import annotations

from dataclasses import dataclass

PLATFORM_MACHINES = {"win32": "x86", "win_amd64": "x64", "win_arm64": "arm64"}


@dataclass(frozen=True)
class WheelName:
    project: str
    platforms: frozenset[str]
    pythons: tuple[tuple[int, int], ...]  # the cpXY interpreters its tags name, lowest first
    abi3: bool  # the stable ABI: the lowest of ``pythons`` and every later CPython

    @property
    def windows(self) -> bool:
        return bool(self.platforms & set(PLATFORM_MACHINES)) or self.platforms == {"any"}

    @property
    def machine(self) -> str | None:
        machines = sorted({PLATFORM_MACHINES[p] for p in self.platforms if p in PLATFORM_MACHINES})
        return machines[0] if len(machines) == 1 else None


def parse_wheel_name(filename: str) -> WheelName | None:
    """The tags of a wheel file name, or None when the name is not a valid wheel name."""
    from packaging.utils import InvalidWheelFilename, parse_wheel_filename

    try:
        project, _version, _build, tags = parse_wheel_filename(filename)
    except (InvalidWheelFilename, ValueError):
        return None
    pythons = set()
    for tag in tags:
        if tag.interpreter.startswith("cp3") and tag.interpreter[3:].isdigit():
            pythons.add((3, int(tag.interpreter[3:])))
    return WheelName(
        project=str(project),
        platforms=frozenset(tag.platform for tag in tags),
        pythons=tuple(sorted(pythons)),
        abi3=any(tag.abi == "abi3" for tag in tags),
    )
