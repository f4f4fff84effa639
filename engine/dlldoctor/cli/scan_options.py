"""The environment options shared by ``scan`` and ``tree``."""

from __future__ import annotations

import argparse

from dlldoctor.scan import ScanOptions


def add_environment_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("the Windows machine the target runs on")
    group.add_argument("--python", metavar="X.Y", help="interpreter version (else inferred from the target)")
    group.add_argument("--app-dir", metavar="DIR", help="a copy of the folder holding python.exe")
    group.add_argument(
        "--path", metavar="DIR", action="append", default=[], help="a copied PATH entry; repeat in PATH order"
    )
    group.add_argument(
        "--system-dir", metavar="DIR", help="a copy of System32 (else a built-in Windows 10/11 profile)"
    )
    parser.add_argument("--rules", metavar="DIR", help="use this rule set instead of the built-in one")


def scan_options(args: argparse.Namespace) -> ScanOptions:
    from pathlib import Path

    return ScanOptions(
        python=args.python,
        app_dir=args.app_dir,
        path=tuple(args.path),
        system_dir=args.system_dir,
        rules_root=Path(args.rules) if args.rules else None,
    )
