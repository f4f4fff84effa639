"""The command line as a user runs it: a new ``python -m dlldoctor`` process, its output captured."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_dlldoctor(
    *args: str,
    env: dict[str, str] | None = None,
    stdin: str | None = None,
    cwd: Path | None = None,
    encoding: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """``env`` is laid over this process's environment; the exit status is the caller's to check."""
    return subprocess.run(
        [sys.executable, "-m", "dlldoctor", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding=encoding,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        check=False,
    )
