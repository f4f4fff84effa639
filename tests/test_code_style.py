"""The code holds the project's own standards: ruff (lint and format) and mypy --strict on the package."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is not installed (pip install -e '.[test]')")
def test_ruff_lint() -> None:
    done = run("ruff", "check", "engine", "tests", "bench", "corpus")
    assert done.returncode == 0, done.stdout


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is not installed (pip install -e '.[test]')")
def test_ruff_format_of_the_package() -> None:
    done = run("ruff", "format", "--check", "engine")
    assert done.returncode == 0, done.stdout


def test_mypy_strict_on_the_package() -> None:
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[test]')")
    done = run(sys.executable, "-m", "mypy")
    assert done.returncode == 0, done.stdout
