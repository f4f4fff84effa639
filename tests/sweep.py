"""The real-wheel sweep (corpus/sweep/): which wheels and stacks, the CI sample, and getting them.

CI runs a fixed sample: the anchor wheels (the layouts that once broke the reader or raised false alarms)
and every ``STRIDE``-th other wheel by rank. ``DLLDOCTOR_SWEEP=full`` runs every wheel and every stack:

    DLLDOCTOR_SWEEP=full python -m pytest tests/test_pe_differential.py tests/test_sweep.py

Wheels are downloaded into the test wheel cache (see wheelcache.py); stacks are installed there with uv,
exactly as pip would install them on 64-bit Windows, from the pinned versions in stacks.yaml.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from wheelcache import CACHE

ROOT = Path(__file__).resolve().parents[1]
SWEEP = ROOT / "corpus" / "sweep"
STRIDE = 8
FULL = os.environ.get("DLLDOCTOR_SWEEP") == "full"
# Wheels whose layouts broke the compact reader or raised false alarms once: always in the sample.
ANCHORS = frozenset(
    {
        "scipy", "pyarrow", "av", "rasterio", "fiona", "netcdf4", "tables", "pyproj", "numpy", "pandas",
        "scikit-learn", "pyqt5", "pyqt5-qt5", "pywin32", "sounddevice", "debugpy", "setuptools", "psutil",
        "opencv-python", "torchvision", "duckdb", "pyodbc",
    }
)  # fmt: skip


@dataclass(frozen=True)
class SweepWheel:
    spec: str
    file: str
    rank: int | None
    expected: tuple[str, ...]  # documented real errors: "kind dll" pairs the scan must report

    @property
    def name(self) -> str:
        return self.spec.partition("==")[0].lower()


def wheels() -> list[SweepWheel]:
    data = yaml.safe_load((SWEEP / "wheels.yaml").read_text(encoding="utf-8"))
    return [
        SweepWheel(w["spec"], w["file"], w.get("rank"), tuple(w.get("expected_errors") or ()))
        for w in data["wheels"]
        if w.get("pe", 1)
    ]


def sample() -> list[SweepWheel]:
    every = wheels()
    if FULL:
        return every
    others = [w for w in every if w.name not in ANCHORS]
    return [w for w in every if w.name in ANCHORS] + others[::STRIDE]


def fetch(wheel: SweepWheel) -> Path:
    """The cached wheel file, downloading it first (a failed download skips, or fails in CI)."""
    path = CACHE / wheel.file
    if path.is_file():
        return path
    CACHE.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--platform", "win_amd64",
        "--python-version", "3.11", "--disable-pip-version-check", "-q", "-d", str(CACHE), wheel.spec,
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if not path.is_file():
        reason = f"cannot download {wheel.spec}: {done.stderr.strip().splitlines()[-1:]}"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return path
