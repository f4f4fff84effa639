"""``dlldoctor explain``: paste an error, get the facts in it and the likely causes with their fixes."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from dlldoctor.bounded import UnsafeFile, read_text_input
from dlldoctor.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    add_format_option,
    add_rules_option,
    add_selection_options,
    add_text_language_option,
    names,
    printable_output,
    use_colour,
    write,
)
from dlldoctor.cli.scan_options import add_environment_options
from dlldoctor.errors import InputError
from dlldoctor.text.paste import check_paste

if TYPE_CHECKING:
    from dlldoctor.diagnose.explain import Explanation
    from dlldoctor.kb.ruleset import RuleSet

NAME = "explain"
HELP = "explain a DLL load error from its text (a traceback, a pop-up, a log): facts, likely causes, fixes"

MAX_INPUT = 64 << 20  # bytes; a paste is never this large, a wrong file might be


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "text",
        nargs="*",
        metavar="TEXT",
        help="the error text; `-` (or nothing, with a pipe) reads standard input",
    )
    parser.add_argument("--file", "-f", type=Path, metavar="F", help="read the error text from a file")
    parser.add_argument(
        "--clipboard",
        action="store_true",
        help="read the error text from the Windows clipboard (PowerShell 5.1 turns piped Chinese into ???)",
    )
    add_text_language_option(parser, "the answer")
    add_format_option(parser)
    add_rules_option(parser)
    add_selection_options(parser)
    parser.add_argument(
        "--target",
        action="append",
        default=[],
        metavar="PATH",
        help="also check each cause on this install (a .whl, a site-packages or environment folder); repeat",
    )
    parser.add_argument(
        "--bundle",
        type=Path,
        metavar="FILE",
        help="diagnose a bundle written by `dlldoctor doctor --report` or the collector, on any OS",
    )
    add_environment_options(parser, with_rules=False)


def decode(data: bytes) -> str:
    """Text of a file or pipe: UTF-8/16, else the legacy code page that reads most like text (GBK, Big5,
    Shift-JIS, cp949, cp1251, cp1252; see :mod:`dlldoctor.text.encoding`)."""
    from dlldoctor.text.encoding import decode_bytes

    return decode_bytes(data)


def read_paste(stream: TextIO, prompt: TextIO, lang: str | None = None) -> bytes:
    """A paste typed or pasted into a terminal: up to the first empty line, or Ctrl-D (Ctrl-Z then Enter
    on Windows). Empty lines before the paste are skipped."""
    from dlldoctor.formats.explain import paste_prompt

    prompt.write(paste_prompt(lang) + "\n")
    prompt.flush()
    lines: list[str] = []
    size = 0
    for line in iter(stream.readline, ""):
        if line.rstrip("\r\n") in ("", "\x1a") and lines:
            break
        if line.strip():
            lines.append(line)
            size += len(line)
        if size > MAX_INPUT:
            break
    return "".join(lines).encode("utf-8", "surrogateescape")


def read_input(args: argparse.Namespace) -> str:
    given = [n for n, v in (("TEXT", args.text), ("--file", args.file), ("--clipboard", args.clipboard)) if v]
    if len(given) > 1:
        raise InputError(f"give the error text one way only, not with {' and '.join(given)}")
    if args.clipboard:
        from dlldoctor.platform.console import clipboard_text

        pasted = clipboard_text()
        if pasted is None:
            raise InputError("--clipboard reads the Windows clipboard, and it holds no text here")
        return pasted
    if args.file is not None:
        try:
            data, longer = read_text_input(args.file, MAX_INPUT)
        except UnsafeFile as e:
            raise InputError(str(e)) from e
        except OSError as e:
            raise InputError(f"cannot read {args.file}: {e.strerror or e}") from e
        if longer:
            data += b"?"  # one byte past the cap: refused below like a longer pipe
    elif args.text == ["-"] or (not args.text and not sys.stdin.isatty()):
        data = sys.stdin.buffer.read(MAX_INPUT + 1)
    elif not args.text:
        data = read_paste(sys.stdin, sys.stderr, args.lang)
    elif args.text:
        # Undecodable bytes in argv arrive as lone surrogates; keep them printable.
        return " ".join(args.text).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    if len(data) > MAX_INPUT:
        raise InputError(f"input larger than {MAX_INPUT >> 20} MB; paste the part around the error")
    return decode(data)


def execute(args: argparse.Namespace) -> int:
    printable_output()
    if args.bundle is not None:
        return explain_bundle(args)
    text = check_paste(read_input(args))

    from dlldoctor.diagnose.explain import explain_text
    from dlldoctor.formats import explain as fmt
    from dlldoctor.kb.selection import configured_rule_set

    rule_set = configured_rule_set(
        args.rules, tuple(args.extra_rules), names(args.select), names(args.ignore)
    )
    ex = explain_text(text, rule_set, lang=args.lang)
    if args.target:
        return _with_targets(args, ex, rule_set, text)
    if args.format == "json":
        write(fmt.render_json(ex, rule_set.families))
    elif args.format == "markdown":
        write(fmt.render_markdown(ex, rule_set.families, text))
    else:
        write(fmt.render_text(ex, rule_set.families, colour=use_colour()))
    return EXIT_PROBLEMS if ex.finds_failure else EXIT_OK


def _with_targets(args: argparse.Namespace, ex: Explanation, rule_set: RuleSet, text: str) -> int:
    """The text's causes, each confirmed, refuted or left open by probes on the scanned targets."""
    from dlldoctor.diagnose.crosscheck import check
    from dlldoctor.formats import explain as fmt
    from dlldoctor.formats import explain_target as target_fmt
    from dlldoctor.scan.result import ScanOptions
    from dlldoctor.scan.target import scan_target

    options = ScanOptions(
        python=args.python, app_dir=args.app_dir, path=tuple(args.path), system_dir=args.system_dir
    )
    results = [scan_target(target, options) for target in args.target]
    checks = check(ex, results, rule_set)
    if args.format == "json":
        write(target_fmt.render_json(ex, rule_set.families, results, checks))
    elif args.format == "markdown":
        write(
            fmt.render_markdown(ex, rule_set.families, text) + "\n\n" + target_fmt.render_markdown(ex, checks)
        )
    else:
        colour = use_colour()
        write(
            fmt.render_text(ex, rule_set.families, colour=colour)
            + "\n\n"
            + target_fmt.render_text(ex, checks, colour)
        )
    return EXIT_PROBLEMS if ex.finds_failure or any(c.verdict == "confirmed" for c in checks) else EXIT_OK


def explain_bundle(args: argparse.Namespace) -> int:
    """A bundle's reproduced errors, live probes and scan, read again: the same verdict on any OS."""
    from dlldoctor.cli.doctor import show
    from dlldoctor.diagnose.bundle import read_bundle

    if args.text or args.file is not None or args.clipboard or args.target:
        raise InputError("--bundle brings its own error text and install: give no text, --file or --target")
    return show(args, read_bundle(args.bundle), api_colour=use_colour(sys.stdout))
