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
    """Colour only on a terminal that shows ANSI codes (a Windows console once VT processing is on), and
    never when NO_COLOR is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR") or not stream.isatty():
        return False
    from dlldoctor.platform.console import virtual_terminal

    return virtual_terminal(stream)


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
    On Windows, output redirected to a file or a pipe is UTF-8 (a console is written in UTF-16 by Python
    itself, whatever its code page): ``dlldoctor explain … > out.txt`` keeps Chinese whole.
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None:
            continue
        redirected = sys.platform == "win32" and not stream.isatty()
        reconfigure(**({"encoding": "utf-8"} if redirected else {}), errors="replace")
