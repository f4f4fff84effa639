"""The environment options shared by ``scan`` and ``tree``."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from dlldoctor.diagnose.verdicts import DiagnoseWithRules, ProbedRule
    from dlldoctor.scan.batch import CacheChoice
    from dlldoctor.scan.result import ScanOptions, ScanResult


def add_environment_options(parser: argparse.ArgumentParser, with_rules: bool = True) -> None:
    group = parser.add_argument_group("the Windows machine the target runs on")
    group.add_argument("--python", metavar="X.Y", help="interpreter version (else inferred from the target)")
    group.add_argument("--app-dir", metavar="DIR", help="a copy of the folder holding python.exe")
    group.add_argument(
        "--path", metavar="DIR", action="append", default=[], help="a copied PATH entry; repeat in PATH order"
    )
    group.add_argument(
        "--system-dir", metavar="DIR", help="a copy of System32 (else a built-in Windows 10/11 profile)"
    )
    if with_rules:
        parser.add_argument("--rules", metavar="DIR", help="use this rule set instead of the built-in one")


def scan_options(args: argparse.Namespace) -> ScanOptions:
    from pathlib import Path

    from dlldoctor.scan.options import ScanOptions

    return ScanOptions(
        python=args.python,
        app_dir=args.app_dir,
        path=tuple(args.path),
        system_dir=args.system_dir,
        rules_root=Path(args.rules) if args.rules else None,
    )


def add_performance_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("speed")
    group.add_argument(
        "-j",
        "--jobs",
        type=_positive,
        metavar="N",
        help="cores to use: targets scan in parallel processes, a wheel's members on threads "
        "(default: all cores)",
    )
    group.add_argument("-q", "--quiet", action="store_true", help="no progress bar on stderr")
    where = group.add_mutually_exclusive_group()
    where.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="folder of the cache of PE facts (default: $DLLDOCTOR_CACHE_DIR, else the user cache folder)",
    )
    where.add_argument(
        "--no-cache",
        action="store_true",
        help="neither read nor write the cache (PE facts, remembered answers)",
    )


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def cache_choice(args: argparse.Namespace) -> CacheChoice:
    from pathlib import Path

    from dlldoctor.scan.batch import CacheChoice

    if getattr(args, "no_cache", False):
        return CacheChoice(enabled=False)
    cache_dir = getattr(args, "cache_dir", None)
    return CacheChoice(enabled=True, directory=Path(cache_dir) if cache_dir else None)


def diagnosis_step(args: argparse.Namespace, rules_root: Path | None, use_cache: bool) -> DiagnoseWithRules:
    """The rules step with --extra-rules/--select/--ignore, checked here once so that a wrong name or a
    broken extra rule is one error line before anything is scanned."""
    from dlldoctor.cli.common import names
    from dlldoctor.diagnose.verdicts import DiagnoseWithRules
    from dlldoctor.kb.selection import configured_rule_set

    extra = tuple(getattr(args, "extra_rules", []) or ())
    select, ignore = names(getattr(args, "select", [])), names(getattr(args, "ignore", []))
    if extra or select or ignore:
        configured_rule_set(rules_root, extra, select, ignore, use_cache=use_cache)
    return DiagnoseWithRules(rules_root, use_cache=use_cache, extra=extra, select=select, ignore=ignore)


def run_scans(args: argparse.Namespace, options: ScanOptions) -> list[ScanResult[ProbedRule]]:
    """Scan and diagnose every target on ``--jobs`` cores through the cache, with a progress bar when wanted.

    Each target is diagnosed where it was scanned, so a batch diagnoses in parallel too.
    """
    jobs = getattr(args, "jobs", None)
    targets = [tuple(args.targets)] if getattr(args, "together", False) else list(args.targets)
    one_wheel = len(targets) == 1 and isinstance(targets[0], str) and targets[0].lower().endswith(".whl")
    if one_wheel and (jobs or os.cpu_count() or 1) > 1:  # a second core: its biggest member inflates there
        from pathlib import Path

        from dlldoctor.cache.offload import read_ahead

        read_ahead(Path(str(targets[0])))
    from dlldoctor.cli.progress import TerminalProgress, wants_display
    from dlldoctor.scan.batch import scan_all

    cache = cache_choice(args)
    diagnose = diagnosis_step(args, options.rules_root, cache.enabled)
    if len(targets) == 1 or jobs == 1:  # worker processes load their own
        from dlldoctor.kb.ruleset import load_in_background

        load_in_background(options.rules_root, use_cache=cache.enabled)
    if not wants_display(sys.stderr, getattr(args, "quiet", False)):
        return scan_all(targets, options, jobs, cache, diagnose=diagnose)
    with TerminalProgress("reading PE files") as bar:
        return scan_all(targets, options, jobs, cache, bar, diagnose=diagnose)
