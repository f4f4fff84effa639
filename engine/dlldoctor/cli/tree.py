"""``dlldoctor tree``: one module's dependency tree, with the reason behind each edge."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from dlldoctor.cli.common import EXIT_OK, EXIT_PROBLEMS, add_format_option, use_colour, write
from dlldoctor.cli.scan_options import add_environment_options, scan_options
from dlldoctor.errors import InputError

if TYPE_CHECKING:
    from dlldoctor.loader.resolution import Node
    from dlldoctor.scan.result import ScanResult

NAME = "tree"
HELP = "print the dependency tree of one module of a target, with where and why each DLL resolves"


def _depth(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", metavar="TARGET", help="a .whl, a folder or a PE file")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--module", metavar="NAME", help="an extension module by import name, e.g. torch._C")
    which.add_argument("--file", metavar="PATH", help="a PE file by its path inside the target")
    parser.add_argument("--depth", type=_depth, metavar="N", help="show N levels of dependencies at most")
    parser.add_argument(
        "--imports", action="store_true", help="list what the file imports (with --file/--module)"
    )
    parser.add_argument(
        "--exports", action="store_true", help="list what the file exports (with --file/--module)"
    )
    add_environment_options(parser)
    add_format_option(parser)
    parser.add_argument("-v", "--verbose", action="store_true", help="also show the system DLLs")
    parser.add_argument("--lang", choices=("en", "zh"), default="en", help="language of the tree's words")


def _matches(args: argparse.Namespace, result: ScanResult[object]) -> list[str]:
    from dlldoctor.scan.target import module_name

    trees = result.trees
    if args.module:
        matches = [rel for rel in trees if module_name(rel) == args.module]
    elif args.file:
        wanted = args.file.replace("\\", "/").lower()
        names = set(trees) | {f.entry.relpath for f in result.files}
        matches = sorted(rel for rel in names if rel.lower() == wanted or rel.lower().endswith("/" + wanted))
    else:
        matches = [rel for rel in trees if rel.lower().endswith(".pyd")] or list(trees)
    if not matches:
        known = ", ".join(sorted(module_name(r) for r in trees if r.endswith(".pyd"))) or "none"
        raise InputError(
            f"{args.module or args.file}: not found in {args.target} (extension modules: {known})"
        )
    return matches


def execute(args: argparse.Namespace) -> int:
    from dlldoctor.loader.resolution import first_failure
    from dlldoctor.scan.target import scan_target

    result = scan_target(args.target, scan_options(args))
    if not result.files:
        raise InputError(f"{args.target}: not a Windows target (no DLL, .pyd or .exe in it)")
    matches = _matches(args, result)
    if args.imports or args.exports:
        return _tables(args, result, matches)
    shown = [(rel, *result.trees[rel]) for rel in matches if rel in result.trees]
    if not shown:
        raise InputError(f"{args.file}: nothing is known to load it, so it has no tree; try --imports")
    failures = [first_failure(tree) for _, _, tree in shown]
    if args.format == "json":
        from dlldoctor.formats import tree_json

        trees: list[tuple[str, str, Node, str | None]] = [
            (rel, str(ctx), tree, fail) for (rel, ctx, tree), fail in zip(shown, failures, strict=True)
        ]
        write(tree_json.render_trees(result.target, trees, args.depth))
    else:
        from dlldoctor.formats import tree_text

        colour = use_colour() and args.format == "text"
        text = "\n".join(
            tree_text.render(
                rel, ctx, tree, verbose=args.verbose, colour=colour, max_depth=args.depth, lang=args.lang
            )
            for rel, ctx, tree in shown
        )
        if args.depth is not None and any(failures):
            from dlldoctor.formats.scan_words import label, statuses

            kinds = statuses({f for f in failures if f}, args.lang)
            text += label(args.lang, "deeper", kinds=kinds, depth=args.depth) + "\n"
        write(f"```text\n{text.rstrip()}\n```" if args.format == "markdown" else text)
    return EXIT_PROBLEMS if any(f is not None for f in failures) else EXIT_OK


def _tables(args: argparse.Namespace, result: ScanResult[object], matches: list[str]) -> int:
    from dlldoctor.formats import tree_json
    from dlldoctor.pe.model import PEImage

    if len(matches) > 1:
        raise InputError(
            f"{args.module or args.file or args.target}: {len(matches)} files match; name one with --file"
        )
    rel = matches[0]
    report = next((f for f in result.files if f.entry.relpath == rel), None)
    if report is None or not isinstance(report.facts, PEImage):
        raise InputError(f"{rel}: not a readable PE file" + (f" ({report.facts})" if report else ""))
    if args.format == "json":
        import json

        data = tree_json.table_dict(rel, report.facts, args.imports, args.exports)
        write(json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True))
    else:
        write(tree_json.table_text(rel, report.facts, args.imports, args.exports, args.lang))
    return EXIT_OK
