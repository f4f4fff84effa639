"""``dlldoctor tree``: one module's dependency tree, with the reason behind each edge."""

from __future__ import annotations

import argparse
import sys

from dlldoctor.cli.common import use_colour, write
from dlldoctor.cli.scan_options import add_environment_options, scan_options
from dlldoctor.errors import InputError

NAME = "tree"
HELP = "print the dependency tree of one module of a target, with where and why each DLL resolves"


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", metavar="TARGET", help="a .whl, a folder or a PE file")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--module", metavar="NAME", help="an extension module by import name, e.g. torch._C")
    which.add_argument("--file", metavar="PATH", help="a PE file by its path inside the target")
    add_environment_options(parser)
    parser.add_argument("-v", "--verbose", action="store_true", help="also show the system DLLs")


def execute(args: argparse.Namespace) -> int:
    from dlldoctor.formats import tree_text
    from dlldoctor.scan.target import module_name, scan_target

    result = scan_target(args.target, scan_options(args))
    trees = result.trees
    if args.module:
        matches = [rel for rel in trees if module_name(rel) == args.module]
    elif args.file:
        wanted = args.file.replace("\\", "/").lower()
        matches = [rel for rel in trees if rel.lower() == wanted or rel.lower().endswith("/" + wanted)]
    else:
        matches = [rel for rel in trees if rel.lower().endswith(".pyd")] or list(trees)
    if not matches:
        known = ", ".join(sorted(module_name(r) for r in trees if r.endswith(".pyd"))) or "none"
        raise InputError(
            f"{args.module or args.file}: not found in {args.target} (extension modules: {known})"
        )
    colour = use_colour(sys.stdout)
    for rel in matches:
        context, tree = trees[rel]
        write(tree_text.render(rel, context, tree, verbose=args.verbose, colour=colour))
    return 1 if any(f.severity == "error" for f in result.findings if f.chain[0] in matches) else 0
