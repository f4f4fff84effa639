"""Helpers for tests that lay out the committed PE fixtures (corpus/pe/bin)."""

from __future__ import annotations

import shutil
from pathlib import Path


def copy_fixtures(pe_bin: Path, dest: Path, *names: str, arch: str = "x64") -> Path:
    """Copy named PE fixtures of one architecture into ``dest`` (created)."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy(pe_bin / arch / name, dest / name)
    return dest
