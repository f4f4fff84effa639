"""``dlldoctor collector``: print the standard-library-only collector, for a machine without dlldoctor."""

from __future__ import annotations

import argparse
import hashlib
import sys
from importlib import resources
from pathlib import Path

from dlldoctor.cli.common import add_format_option, write
from dlldoctor.cli.rules_check import json_text
from dlldoctor.errors import InputError

NAME = "collector"
HELP = "print a one-file collector (Python >= 3.8, standard library only) that writes a bundle on Windows"


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        type=Path,
        metavar="FILE",
        help="write it to FILE (in PowerShell 5.1, `>` writes UTF-16, which Python cannot run)",
    )
    add_format_option(parser, ("text", "json"))
    parser.epilog = (
        "On Windows: dlldoctor collector --out collect.py, then py collect.py torch --report bundle.json "
        "with the Python that fails; read the bundle anywhere with dlldoctor explain --bundle bundle.json"
    )


def source() -> str:
    return resources.files("dlldoctor.platform").joinpath("collect.py").read_text(encoding="utf-8")


def execute(args: argparse.Namespace) -> int:
    if args.format == "json":  # for programs that ship it: the file, its name and its digest
        text = source()
        digest = hashlib.sha256(text.encode("ascii")).hexdigest()
        write(json_text({"version": 1, "name": "collect.py", "sha256": digest, "source": text}))
        return 0
    if args.out is None:
        write(source())
        return 0
    try:
        args.out.write_bytes(source().encode("ascii"))
    except OSError as e:
        raise InputError(f"--out {args.out}: cannot write: {e.strerror or e}") from e
    print(f"collector written to {args.out}: run it with the Python whose import fails", file=sys.stderr)
    return 0
