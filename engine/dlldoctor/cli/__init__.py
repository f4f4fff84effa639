"""Command-line entry point: one module per subcommand, each with ``configure_parser`` and ``execute``."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from dlldoctor import __version__
from dlldoctor.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    Parser,
    add_output_options,
    close_output,
    language_asked,
    open_output,
    printable_output,
)
from dlldoctor.errors import DllDoctorError

# Subcommand modules in the order ``--help`` lists them. Each defines NAME, HELP,
# configure_parser(parser) and execute(args) -> exit status; none imports heavy libraries at import time.
COMMANDS = ("scan", "tree", "explain", "doctor", "collector", "search", "serve", "triage", "rules")


def _command_modules() -> list[ModuleType]:
    modules = []
    for name in COMMANDS:
        try:
            modules.append(importlib.import_module(f"dlldoctor.cli.{name}"))
        except ModuleNotFoundError as e:
            if e.name != f"dlldoctor.cli.{name}":
                raise
    return modules


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="dlldoctor",
        description="Find out why a Windows DLL does not load in a Python process, and how to fix it.",
    )
    parser.add_argument("--version", action="version", version=f"dlldoctor {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    for module in _command_modules():
        command = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.configure_parser(command)
        command.set_defaults(_execute=module.execute)
        for leaf in _leaves(command):
            add_output_options(leaf)
    return parser


def _leaves(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """The parsers that run something: a command, or each action of a command with actions (rules)."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        return [parser]
    return [leaf for sub in subs for child in sub.choices.values() for leaf in _leaves(child)]


def main(argv: Sequence[str] | None = None) -> int:
    printable_output()
    parser = build_parser()
    Parser.lang = language_asked(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    try:
        open_output(args)
        status: int = args._execute(args)
    except DllDoctorError as e:
        if getattr(args, "lang", None) == "zh":
            from dlldoctor.formats.error_words import error_line

            print(error_line(str(e), "zh"), file=sys.stderr)
        else:
            print(f"dlldoctor: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("dlldoctor: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); nothing left to say.
        sys.stderr.close()
        return status if "status" in locals() else EXIT_OK
    finally:
        close_output()
    return status


def run() -> NoReturn:
    """The command as a process (the console script, ``python -m dlldoctor``): :func:`main`, then exit
    without tearing the interpreter down. A scan leaves millions of small objects (a big DLL's export
    names, its tables) whose one-by-one release at interpreter exit took a tenth of a second; everything
    that must happen at exit happens first: other threads are waited for, exit handlers run, output is
    flushed."""
    import atexit
    import contextlib
    import os
    import threading

    status = main()
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        # a closed pipe (`| head`) or a closed stream: nothing left to say
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(status)
