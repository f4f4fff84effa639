"""The README's two set-up commands are the ones CI runs and they point at real things."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Set up", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section, flags=re.S)


def test_exactly_two_setup_commands() -> None:
    commands = setup_commands()
    assert len(commands) == 2
    assert all("\n" not in c for c in commands)


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert setup_commands()[1] in ci


def test_example_command_targets_the_bundled_example() -> None:
    install = setup_commands()[0]
    match = re.search(r"dlldoctor scan (\S+)", install)
    assert match and (ROOT / match.group(1)).is_dir()


def test_help_in_readme_is_the_real_one() -> None:
    import os
    import subprocess
    import sys

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = text.split("$ dlldoctor --help\n", 1)[1].split("\n```", 1)[0]
    real = subprocess.run(
        [sys.executable, "-m", "dlldoctor", "--help"],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "100"},
        check=True,
    ).stdout.rstrip()
    assert shown == real.replace("__main__.py", "dlldoctor")
