"""``dlldoctor scan``: can Windows load every extension module and DLL of these targets?"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from dlldoctor.cli.common import (
    CI_FORMATS,
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    FORMATS,
    add_format_option,
    add_selection_options,
    use_colour,
    write,
)
from dlldoctor.cli.scan_options import (
    add_environment_options,
    add_performance_options,
    run_scans,
    scan_options,
)
from dlldoctor.errors import InputError

if TYPE_CHECKING:
    from dlldoctor.diagnose.verdicts import ProbedRule
    from dlldoctor.scan.result import ScanOptions, ScanResult

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
    add_selection_options(parser)
    add_format_option(parser, FORMATS + CI_FORMATS)
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="show more detail (hints, and the table of files)"
    )
    parser.add_argument("--files", action="store_true", help="list every PE file, also when all is well")
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


def render(results: list[ScanResult[ProbedRule]], args: argparse.Namespace) -> str:
    if args.format in ("json", "markdown", "sarif", "github"):
        import importlib

        module = importlib.import_module(f"dlldoctor.formats.scan_{args.format}")
        text: str = module.render(results, lang=args.lang)
        return text
    from dlldoctor.formats import scan_text

    return scan_text.render(
        results,
        colour=use_colour(),
        verbose=args.verbose,
        lang=args.lang,
        files=args.files or args.verbose,
    )


def status(results: list[ScanResult[ProbedRule]]) -> int:
    """2 when a target holds no PE file (not a Windows target), else 1 when anything is wrong, else 0."""
    if any(not r.files for r in results):
        return EXIT_USAGE
    problems = any(r.errors or any(d.rule.severity == "error" for d in r.diagnoses) for r in results)
    return EXIT_PROBLEMS if problems else EXIT_OK


def expand(targets: list[str]) -> list[str]:
    """Glob patterns the shell left alone (cmd.exe, cibuildwheel's commands on Windows) are expanded here."""
    out: list[str] = []
    for target in targets:
        if any(ch in target for ch in "*?[") and not Path(target).exists():
            path = Path(target)
            anchor = Path(path.anchor) if path.is_absolute() else Path()
            matches = sorted(str(p) for p in anchor.glob(str(path.relative_to(anchor))))
            if not matches:
                raise InputError(f"{target}: no file matches")
            out += matches
        else:
            out.append(target)
    return out


def execute(args: argparse.Namespace) -> int:
    if args.bundle is not None:
        return _bundle(args)
    if not args.targets:
        raise InputError("no target: give a .whl, a folder or a PE file (or --bundle FILE)")
    args.targets = expand(args.targets)
    options = scan_options(args)
    key = _answer_key(args, options)
    if key is not None:
        from dlldoctor.cache.answers import recall

        known = recall(key, _cache_dir(args))
        if known is not None:  # nothing the answer rests on has changed since it was given
            write(known[1])
            return known[0]
    results = run_scans(args, options)  # scanned and diagnosed, on every core
    text = render(results, args)
    code = status(results)
    if key is not None and code != EXIT_USAGE:  # a target that is not one is said on stderr: not kept
        from dlldoctor.cache.answers import remember

        remember(key, code, text, _cache_dir(args))
    write(text)
    for result in results:
        if not result.files:
            from dlldoctor.formats.error_words import error_line

            said = f"{result.target}: not a Windows target (no DLL, .pyd or .exe in it); nothing was checked"
            write(error_line(said, args.lang), sys.stderr)
    return code


# Options that change how a scan runs, not what it answers; every other option is part of the key.
_NOT_IN_ANSWER = frozenset({"targets", "jobs", "quiet", "cache_dir", "no_cache", "output", "bundle"})


def _answer_key(args: argparse.Namespace, options: ScanOptions) -> str | None:
    """The key a whole answer is remembered by, or None when it must be scanned anew: no cache wanted,
    or the answer rests on folders given by option (other machines' folders, extra rules), whose
    contents the key cannot see."""
    if args.no_cache or options.app_dir or options.path or options.system_dir or args.extra_rules:
        return None
    from dlldoctor.cache.answers import answer_key

    settings = {
        name: value
        for name, value in sorted(vars(args).items())
        if name not in _NOT_IN_ANSWER and not name.startswith("_")
    }
    settings["colour"] = args.format == "text" and use_colour()
    return answer_key(args.targets, settings, options.rules_root)


def _cache_dir(args: argparse.Namespace) -> Path | None:
    return Path(args.cache_dir) if args.cache_dir else None


def _bundle(args: argparse.Namespace) -> int:
    """A bundle's findings and the scan's diagnoses, then the one verdict (the same as ``explain --bundle``)."""
    from dlldoctor.cli.doctor import show
    from dlldoctor.diagnose.bundle import read_bundle

    if args.targets:
        raise InputError("--bundle holds its own install: give no TARGET")
    bundle = read_bundle(args.bundle)
    scan = bundle.get("scan")
    if args.format == "text":
        from dlldoctor.formats import scan_words
        from dlldoctor.formats.doctor_words import word
        from dlldoctor.formats.scan_sentences import say_finding

        lang = args.lang
        if not scan:
            write(word("bundle-no-scan", lang))
        else:
            write(word("bundle-scan-of", lang, target=scan.get("target")))
            for finding in scan.get("findings") or []:
                kind = scan_words.kind(str(finding.get("kind")), lang)
                write(f"  ✗ {kind}  {say_finding(str(finding.get('message')), lang)}")
            colon = word("colon", lang)
            for diagnosis in scan.get("diagnoses") or []:
                severity = scan_words.severity(str(diagnosis.get("severity")), lang)
                write(f"  {severity}{colon}{diagnosis.get('category')} ({diagnosis.get('rule_id')})")
            write("")
    args.rules = Path(args.rules) if args.rules else None
    return show(args, bundle, api_colour=use_colour(sys.stdout))
