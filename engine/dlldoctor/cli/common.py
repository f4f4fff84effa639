"""Options and output helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

FORMATS = ("text", "json", "markdown")
# Formats for CI systems: only `scan` makes them (a gate over wheels).
CI_FORMATS = ("sarif", "github")
COLOR_CHOICES = ("auto", "always", "never")

# The exit status of every command (README, "Exit status").
EXIT_OK = 0  # healthy: nothing wrong was found
EXIT_PROBLEMS = 1  # problems diagnosed (or, for `--check`, a generated file out of date)
EXIT_USAGE = 2  # bad usage, unreadable input, not a Windows target, an invalid rule set


class Parser(argparse.ArgumentParser):
    # The language a usage error is said in: taken from the command line before it is parsed.
    lang = "en"

    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse prints the whole usage block; one line is what the rest of the CLI promises.
        from dlldoctor.formats.error_words import usage_error_line

        self.exit(EXIT_USAGE, usage_error_line(self.prog, message, Parser.lang) + "\n")


def language_asked(argv: Sequence[str]) -> str:
    """``zh`` when the command line asks for it (``--lang zh`` or ``--lang=zh``), else ``en``."""
    words = list(argv)
    asked = any(w == "--lang=zh" for w in words) or any(
        a == "--lang" and b == "zh" for a, b in itertools.pairwise(words)
    )
    return "zh" if asked else "en"


def add_format_option(parser: argparse.ArgumentParser, formats: tuple[str, ...] = FORMATS) -> None:
    extra = ""
    if "sarif" in formats:
        extra = ", sarif for code scanning (SARIF 2.1.0), github for workflow annotations"
    parser.add_argument(
        "--format",
        choices=formats,
        default="text",
        help="text for people (default), json for programs (versioned), markdown for a GitHub issue" + extra,
    )


def add_output_options(parser: argparse.ArgumentParser) -> None:
    """-o/--output and --color: every command has them (added by the command table, not by each module)."""
    known = {option for action in parser._actions for option in action.option_strings}
    if "--output" not in known:
        parser.add_argument(
            "-o", "--output", metavar="FILE", type=Path, help="write the answer to FILE instead of stdout"
        )
    if "--color" not in known:
        parser.add_argument(
            "--color",
            choices=COLOR_CHOICES,
            default="auto",
            help="colour the text output: auto (a terminal, unless NO_COLOR; FORCE_COLOR forces it), "
            "always, never",
        )


class _State:
    """Where answers go and whether they are coloured; set once per run by :func:`open_output`."""

    stream: TextIO | None = None  # None: sys.stdout
    choice: str = "auto"
    to_file: bool = False


_STATE = _State()


def open_output(args: argparse.Namespace) -> TextIO | None:
    """Point :func:`write` at ``-o FILE`` when given, and remember ``--color``. Returns the opened file."""
    from dlldoctor.errors import InputError

    _STATE.choice = getattr(args, "color", "auto") or "auto"
    _STATE.stream, _STATE.to_file = None, False
    output = getattr(args, "output", None)
    if output is None or str(output) == "-":
        return None
    try:
        handle = Path(output).open("w", encoding="utf-8", newline="\n")  # noqa: SIM115 (closed by main)
    except OSError as e:
        raise InputError(f"cannot write {output}: {e.strerror or e}") from e
    _STATE.stream, _STATE.to_file = handle, True
    return handle


def close_output() -> None:
    if _STATE.to_file and _STATE.stream is not None:
        _STATE.stream.close()
    _STATE.stream, _STATE.to_file = None, False


def output_stream() -> TextIO:
    return _STATE.stream or sys.stdout


def use_colour(stream: TextIO | None = None) -> bool:
    """--color always/never decide; auto: never into a file, never with NO_COLOR (https://no-color.org),
    always with FORCE_COLOR, else only on a terminal."""
    if _STATE.choice != "auto":
        return _STATE.choice == "always"
    if stream is None:
        if _STATE.to_file:
            return False
        stream = sys.stdout
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    if not (isatty and isatty()):
        return False
    from dlldoctor.platform.console import virtual_terminal  # a Windows console shows ANSI once VT is on

    return virtual_terminal(stream)


def write(text: str, stream: TextIO | None = None) -> None:
    target = stream or output_stream()
    text = text if text.endswith("\n") else text + "\n"
    if "\x1b[" in text and target is sys.stdout:
        _write_terminal(text, target)
        return
    target.write(text)


def _write_terminal(text: str, stream: TextIO) -> None:
    """Coloured text through rich's console, which turns on VT mode on Windows (or uses the legacy
    console API there); imported only when colour is on, so uncoloured runs never load it."""
    from rich.console import Console
    from rich.text import Text

    console = Console(
        file=stream, force_terminal=True, highlight=False, soft_wrap=True, emoji=False, markup=False
    )
    console.print(Text.from_ansi(text.rstrip("\n")))


def add_text_language_option(parser: argparse.ArgumentParser, what: str) -> None:
    """--lang en|zh for an answer to a text: by default in the text's own language."""
    parser.add_argument(
        "--lang",
        choices=("en", "zh"),
        help=f"language of {what} (default: Chinese for Chinese text, English otherwise)",
    )


def add_rules_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        metavar="DIR",
        type=Path,
        default=None,
        help="use the rule set in DIR (a folder with taxonomy.yaml, data/ and one folder per category) "
        "instead of the built-in one",
    )


def add_selection_options(parser: argparse.ArgumentParser) -> None:
    """--select/--ignore RULE|CATEGORY and --extra-rules DIR (on top of the built-in or --rules set)."""
    parser.add_argument(
        "--select",
        metavar="RULE|CATEGORY",
        action="append",
        default=[],
        help="only these rules or categories (comma-separated or repeated)",
    )
    parser.add_argument(
        "--ignore",
        metavar="RULE|CATEGORY",
        action="append",
        default=[],
        help="leave out these rules or categories (comma-separated or repeated)",
    )
    parser.add_argument(
        "--extra-rules",
        metavar="DIR",
        action="append",
        default=[],
        type=Path,
        help="add the rules in DIR (one folder per category, or rule files) to the rule set; repeat",
    )


def names(values: list[str]) -> tuple[str, ...]:
    """Comma-separated or repeated option values, in order, without blanks."""
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


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
