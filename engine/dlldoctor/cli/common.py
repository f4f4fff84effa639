"""Options and output helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TextIO

FORMATS = ("text", "json", "markdown")

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse prints the whole usage block; one line is what the rest of the CLI promises.
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def add_format_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text for people (default), json for programs (versioned), markdown for a GitHub issue",
    )


def use_colour(stream: TextIO = sys.stdout) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    return stream.isatty()


def write(text: str, stream: TextIO | None = None) -> None:
    (stream or sys.stdout).write(text if text.endswith("\n") else text + "\n")


def add_rules_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        metavar="DIR",
        type=Path,
        default=None,
        help="use the rule set in DIR (a folder with taxonomy.yaml, data/ and one folder per category) "
        "instead of the built-in one",
    )


def printable_output() -> None:
    """Answers hold Chinese and paths in any script; neither may turn into a crash on output.

    A legacy code page (cp1252, what a redirected Windows console gets) cannot encode Chinese, and no
    encoding takes the lone surrogates that stand for a file name's undecodable bytes: both are replaced.
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")
