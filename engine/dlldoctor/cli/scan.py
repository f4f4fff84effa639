"""``dlldoctor scan``: can Windows load every extension module and DLL of these targets?"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dlldoctor.cli.common import add_format_option, use_colour, write
from dlldoctor.cli.scan_options import (
    add_environment_options,
    add_performance_options,
    run_scans,
    scan_options,
)
from dlldoctor.errors import InputError

NAME = "scan"
HELP = "check that every extension module and DLL of a wheel, folder or file would load on Windows"


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "targets",
        nargs="*",
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
    parser.add_argument(
        "--bundle",
        type=Path,
        metavar="FILE",
        help="show the scan a bundle holds (from `dlldoctor doctor --report`), with its diagnosis",
    )


def execute(args: argparse.Namespace) -> int:
    if args.bundle is not None:
        return _bundle(args)
    if not args.targets:
        raise InputError("no target: give a .whl, a folder or a PE file (or --bundle FILE)")
    options = scan_options(args)
    results = run_scans(args, options)  # scanned and diagnosed, on every core
    if args.format == "json":
        from dlldoctor.formats import scan_json

        write(scan_json.render(results, lang=args.lang))
    elif args.format == "markdown":
        from dlldoctor.formats import scan_markdown

        write(scan_markdown.render(results, lang=args.lang))
    else:
        from dlldoctor.formats import scan_text

        write(scan_text.render(results, colour=use_colour(sys.stdout), verbose=args.verbose, lang=args.lang))
    problems = any(r.errors or any(d.rule.severity == "error" for d in r.diagnoses) for r in results)
    return 1 if problems else 0


def _bundle(args: argparse.Namespace) -> int:
    """A bundle's findings and the scan's diagnoses, then the one verdict (the same as ``explain --bundle``)."""
    from dlldoctor.cli.doctor import show
    from dlldoctor.diagnose.bundle import read_bundle

    if args.targets:
        raise InputError("--bundle holds its own install: give no TARGET")
    bundle = read_bundle(args.bundle)
    scan = bundle.get("scan")
    if args.format == "text":
        if not scan:
            write("The bundle holds no scan (the collector writes none); its diagnosis rests on the probes.")
        else:
            write(f"scan of {scan.get('target')} on the machine:")
            for finding in scan.get("findings") or []:
                write(f"  ✗ {finding.get('kind')}  {finding.get('message')}")
            for diagnosis in scan.get("diagnoses") or []:
                write(
                    f"  {diagnosis.get('severity')}: {diagnosis.get('category')} ({diagnosis.get('rule_id')})"
                )
            write("")
    args.rules = Path(args.rules) if args.rules else None
    return show(args, bundle, api_colour=use_colour(sys.stdout))
