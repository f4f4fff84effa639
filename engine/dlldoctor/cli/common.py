"""Options and output helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TextIO

FORMATS = ("text", "json", "markdown")


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
