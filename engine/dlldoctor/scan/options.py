"""The options that shape a scan: the Windows machine the target is imagined on, and the rule set.

A module of its own, importing nothing, so that a command can read its options (and find a remembered
answer) before any of the scanning machinery is imported.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ScanOptions:
    python: str | None = None
    app_dir: str | None = None
    path: tuple[str, ...] = ()
    system_dir: str | None = None
    rules_root: Path | None = None
    known_dlls: frozenset[str] | None = None  # the machine's own KnownDLLs (registry), else the profile's
