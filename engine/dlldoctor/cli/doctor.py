"""``dlldoctor doctor``: on the Windows machine where an import fails, find out why, for certain."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dlldoctor.cli.common import EXIT_USAGE, add_format_option, add_rules_option, use_colour, write
from dlldoctor.errors import InputError

if TYPE_CHECKING:
    from dlldoctor.platform.interface import WindowsApi

NAME = "doctor"
HELP = "on the Windows machine where an import fails: reproduce it, probe the real DLLs, name the cause"

ELSEWHERE = (
    "this is not Windows: run `dlldoctor doctor` on the Windows machine where the import fails (or, "
    "without dlldoctor there, `dlldoctor collector > collect.py` and `python collect.py --report "
    "bundle.json` with its Python), then `dlldoctor explain --bundle bundle.json` here"
)


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("modules", nargs="*", metavar="MODULE", help="the imports to check (default: torch)")
    parser.add_argument(
        "--python", metavar="PATH", help="the interpreter to check (default: the one running dlldoctor)"
    )
    parser.add_argument("--report", type=Path, metavar="FILE", help="also write the bundle to FILE (JSON)")
    parser.add_argument(
        "--no-redact", action="store_true", help="keep the user name and home folder in the output"
    )
    parser.add_argument("--lang", choices=("en", "zh"), default="en", help="language of the diagnosis")
    add_format_option(parser)
    add_rules_option(parser)


def execute(args: argparse.Namespace) -> int:
    from dlldoctor.platform.interface import live_api

    api = live_api()
    if api is None:
        print(f"dlldoctor doctor: error: {ELSEWHERE}", file=sys.stderr)
        return EXIT_USAGE
    return run(args, api)


def run(args: argparse.Namespace, api: WindowsApi) -> int:
    """The whole flow on one machine (the live one, or the tests' fake Windows)."""
    from dlldoctor.diagnose.doctor import diagnose_bundle, run_doctor
    from dlldoctor.formats.doctor import diagnosis_dict
    from dlldoctor.kb.ruleset import load_rule_set
    from dlldoctor.platform.collect import redact

    python = args.python or sys.executable
    if args.python and not Path(python).is_file():
        raise InputError(f"--python {python}: no such interpreter")
    rule_set = load_rule_set(args.rules)
    bundle = run_doctor(api, python, args.modules or ["torch"], args.rules)
    bundle["diagnosis"] = diagnosis_dict(diagnose_bundle(bundle, rule_set, args.lang)[0])
    bundle["redacted"] = not args.no_redact
    if bundle["redacted"]:
        bundle = redact(bundle, api.environ())  # type: ignore[assignment]
    if args.report is not None:
        _write_report(args.report, bundle)
    return show(args, bundle, api_colour=use_colour(sys.stdout))


def show(args: argparse.Namespace, bundle: dict[str, Any], *, api_colour: bool = False) -> int:
    """Print a bundle's diagnosis in the chosen format; exit 1 when something is wrong."""
    from dlldoctor.diagnose.doctor import diagnose_bundle
    from dlldoctor.formats import doctor as fmt
    from dlldoctor.kb.ruleset import load_rule_set

    rule_set = load_rule_set(args.rules)
    lang = getattr(args, "lang", None) or "en"
    conclusion, explanation = diagnose_bundle(bundle, rule_set, lang)
    bundle = {**bundle, "diagnosis": fmt.diagnosis_dict(conclusion)}  # worked out again, never from the file
    if args.format == "json":
        write(fmt.render_json(bundle))
    elif args.format == "markdown":
        write(fmt.render_markdown(conclusion, explanation, bundle, rule_set, lang))
    else:
        write(fmt.render_text(conclusion, explanation, bundle, rule_set, colour=api_colour, lang=lang))
    return 1 if conclusion.failing or (conclusion.rule_id and conclusion.severity == "error") else 0


def _write_report(path: Path, bundle: dict[str, Any]) -> None:
    from dlldoctor.formats.doctor import render_json

    try:
        path.write_text(render_json(bundle) + "\n", encoding="utf-8")
    except OSError as e:
        raise InputError(f"--report {path}: cannot write: {e.strerror or e}") from e
