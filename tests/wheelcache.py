"""Real Windows wheels for the tests, downloaded once from the package index into a cache.

The cache is ``$DLLDOCTOR_TEST_CACHE`` or ``~/.cache/dlldoctor-test-wheels``. Outside CI a wheel that
cannot be downloaded skips the test that needs it, with the reason; in CI (``CI`` set) it fails it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

CACHE = Path(os.environ.get("DLLDOCTOR_TEST_CACHE", Path.home() / ".cache" / "dlldoctor-test-wheels"))

TORCH = "torch==2.13.0"
TORCH_OLD = "torch==2.12.0"
MSVC_OLD = "msvc-runtime==14.34.31931"
MSVC_NEW = "msvc-runtime==14.44.35112"
INTEL_OPENMP = "intel-openmp==2026.2.0"
ONNXRUNTIME_GPU = "onnxruntime-gpu==1.31.1"
CUDA_RUNTIME = "nvidia-cuda-runtime-cu12==12.9.79"


def _matching(spec: str, platform: str) -> list[Path]:
    name, _, version = spec.partition("==")
    stem = name.replace("-", "_").lower()
    tag = {"win_amd64": "win_amd64", "win32": "win32", "win_arm64": "win_arm64"}[platform]
    return sorted(
        p
        for p in CACHE.glob("*.whl")
        if p.name.lower().startswith(f"{stem}-{version}-") and p.name.endswith(f"{tag}.whl")
    )


def wheel(spec: str, platform: str = "win_amd64", python: str = "3.11") -> Path:
    """The path of the cached wheel for ``spec``, downloading it first if needed."""
    found = _matching(spec, platform)
    if found:
        return found[0]
    CACHE.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--platform",
        platform,
        "--python-version",
        python,
        "--disable-pip-version-check",
        "-q",
        "-d",
        str(CACHE),
        spec,
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    found = _matching(spec, platform)
    if done.returncode != 0 or not found:
        reason = f"cannot download {spec} ({platform}): {done.stderr.strip().splitlines()[-1:]}"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return found[0]


def unpack(wheel_path: Path, dest: Path, members: list[str] | None = None) -> Path:
    """Unpack a wheel for a test (dlldoctor itself never does this)."""
    with zipfile.ZipFile(wheel_path) as archive:
        archive.extractall(dest, members=members)
    return dest
