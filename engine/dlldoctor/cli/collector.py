"""``dlldoctor collector``: print the standard-library-only collector, for a machine without dlldoctor."""

from __future__ import annotations

import argparse
import sys
from importlib import resources

NAME = "collector"
HELP = "print a one-file collector (Python >= 3.8, standard library only) that writes a bundle on Windows"


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "On Windows: dlldoctor collector > collect.py, then py collect.py torch --report bundle.json "
        "with the Python that fails; read the bundle anywhere with dlldoctor explain --bundle bundle.json"
    )


def source() -> str:
    return resources.files("dlldoctor.platform").joinpath("collect.py").read_text(encoding="utf-8")


def execute(args: argparse.Namespace) -> int:
    sys.stdout.write(source())
    return 0
