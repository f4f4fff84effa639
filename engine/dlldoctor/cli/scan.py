"""``dlldoctor scan``: can Windows load every extension module and DLL of these targets?"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from dlldoctor.cli.common import add_format_option, use_colour, write
from dlldoctor.cli.scan_options import (
    add_environment_options,
    add_performance_options,
    run_scans,
    scan_options,
)

if TYPE_CHECKING:
    from dlldoctor.diagnose.verdicts import ProbedRule
    from dlldoctor.scan.result import ScanOptions, ScanResult

NAME = "scan"
HELP = "check that every extension module and DLL of a wheel, folder or file would load on Windows"


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "targets",
        nargs="+",
        metavar="TARGET",
        help="a .whl, a folder (site-packages, an environment root, any folder) or a PE file",
    )
    add_environment_options(parser)
    add_format_option(parser)
    parser.add_argument("-v", "--verbose", action="store_true", help="show more detail")
    parser.add_argument("--lang", choices=("en", "zh"), default="en", help="language of the diagnoses")
    parser.add_argument(
        "--together",
        action="store_true",
        help="scan the wheels as one environment, installed together (a wheel and its dependencies)",
    )
    add_performance_options(parser)


def execute(args: argparse.Namespace) -> int:
    options = scan_options(args)
    colour = args.format == "text" and use_colour(sys.stdout)
    key = _answer_key(args, options, colour)
    if key is not None:
        from dlldoctor.cache.answers import recall

        known = recall(key, _cache_dir(args))
        if known is not None:  # nothing the answer rests on has changed since it was given
            write(known[1])
            return known[0]
    results = run_scans(args, options)  # scanned and diagnosed, on every core
    text = _render(args, results, colour)
    problems = any(r.errors or any(d.rule.severity == "error" for d in r.diagnoses) for r in results)
    status = 1 if problems else 0
    if key is not None:
        from dlldoctor.cache.answers import remember

        remember(key, status, text, _cache_dir(args))
    write(text)
    return status


def _render(args: argparse.Namespace, results: list[ScanResult[ProbedRule]], colour: bool) -> str:
    if args.format == "json":
        from dlldoctor.formats import scan_json

        return scan_json.render(results, lang=args.lang)
    if args.format == "markdown":
        from dlldoctor.formats import scan_markdown

        return scan_markdown.render(results, lang=args.lang)
    from dlldoctor.formats import scan_text

    return scan_text.render(results, colour=colour, verbose=args.verbose, lang=args.lang)


# Options that change how a scan runs, not what it answers; every other option is part of the key.
_NOT_IN_ANSWER = frozenset({"targets", "jobs", "quiet", "cache_dir", "no_cache"})


def _answer_key(args: argparse.Namespace, options: ScanOptions, colour: bool) -> str | None:
    """The key a whole answer is remembered by, or None when it must be scanned anew: no cache wanted,
    or the answer rests on folders given by option, whose contents the key cannot see."""
    if args.no_cache or options.app_dir or options.path or options.system_dir:
        return None
    from dlldoctor.cache.answers import answer_key

    settings = {
        name: value
        for name, value in sorted(vars(args).items())
        if name not in _NOT_IN_ANSWER and not name.startswith("_")
    }
    settings["colour"] = colour
    return answer_key(args.targets, settings, options.rules_root)


def _cache_dir(args: argparse.Namespace) -> Path | None:
    return Path(args.cache_dir) if args.cache_dir else None
