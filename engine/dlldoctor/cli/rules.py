"""``dlldoctor rules``: list, show, lint, test, scaffold and catalog the diagnosis rules."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from dlldoctor.cli.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    Parser,
    add_format_option,
    add_rules_option,
    printable_output,
    use_colour,
    write,
)
from dlldoctor.cli.rules_check import accuracy_dict, add_check, examples_dict, json_text
from dlldoctor.errors import InputError

if TYPE_CHECKING:
    from dlldoctor.diagnose.accuracy import Report

NAME = "rules"
HELP = "list, show, lint and test the diagnosis rules (for contributors)"


def configure_parser(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="rules_command", metavar="ACTION", parser_class=Parser)
    sub.required = True

    p = sub.add_parser("list", help="one line per rule: id, category, status, title")
    add_rules_option(p)
    p.add_argument("--category", help="only the rules of this category")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="language of the titles")
    add_format_option(p)
    p.set_defaults(_rules=_list)

    p = sub.add_parser("show", help="one rule in full")
    add_rules_option(p)
    p.add_argument("rule_id", metavar="ID")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="language of the texts")
    add_format_option(p)
    p.set_defaults(_rules=_show)

    p = sub.add_parser(
        "lint", help="check every rule file against the schema and each other; all problems at once"
    )
    add_rules_option(p)
    add_format_option(p)
    p.set_defaults(_rules=_lint)

    p = sub.add_parser("test", help="run every rule on its own examples (match, no_match, todo_match)")
    add_rules_option(p)
    p.add_argument("rule_ids", nargs="*", metavar="ID", help="only these rules (default: all)")
    p.add_argument("-v", "--verbose", action="store_true", help="list passing examples too")
    add_format_option(p)
    p.set_defaults(_rules=_test)

    p = sub.add_parser("new", help="write a valid rule skeleton to rules/<category>/<id>.yaml")
    add_rules_option(p)
    p.add_argument("rule_id", metavar="ID")
    p.add_argument("--category", required=True, help="a category of taxonomy.yaml")
    add_format_option(p)
    p.set_defaults(_rules=_new)

    p = sub.add_parser("catalog", help="write the rule catalog (Markdown) to a folder")
    add_rules_option(p)
    p.add_argument(
        "--out", type=Path, default=Path("docs/rules"), help="folder to write (default: docs/rules)"
    )
    p.add_argument(
        "--check", action="store_true", help="only check that the folder is up to date (exit 1 if not)"
    )
    add_format_option(p)
    p.set_defaults(_rules=_catalog)

    _add_accuracy(sub)
    _add_priors(sub)
    _add_compile(sub)
    add_check(sub)


def _add_accuracy(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("accuracy", help="rank the labelled corpus and report top-1/top-3 accuracy")
    add_rules_option(p)
    p.add_argument("--corpus", type=Path, default=Path("corpus/errors"), help="default: corpus/errors")
    p.add_argument("--out", type=Path, help="also write the Markdown report (docs/accuracy.md) here")
    p.add_argument(
        "--check", action="store_true", help="with --out: only check that the report is up to date"
    )
    p.add_argument("-v", "--verbose", action="store_true", help="list the cases not in the top 3")
    add_format_option(p)
    p.set_defaults(_rules=_accuracy)


def _accuracy(args: argparse.Namespace) -> int:
    from dlldoctor.diagnose.accuracy import evaluate, load_cases
    from dlldoctor.formats.accuracy import render_summary

    rule_set = _load(args)
    report = evaluate(load_cases(args.corpus), rule_set)
    if args.format == "json":
        write(json_text(accuracy_dict(report)))
    elif args.format == "markdown":
        write(_accuracy_page(report, args.corpus))
    else:
        write(render_summary(report))
    if args.verbose and args.format == "text":
        for r in report.misses:
            write(
                f"  miss {r.case.id}: expected {'/'.join(sorted(r.case.expected))}, got {', '.join(r.ranked[:3]) or '-'}"
            )
        for r in report.false_alarms:
            write(f"  false alarm {r.case.id}: {', '.join(r.error_rules)}")
    if args.out is not None:
        content = _accuracy_page(report, args.corpus)
        return _write_or_check(
            args.out,
            content,
            args.check,
            f"dlldoctor rules accuracy --out {args.out}",
            f"wrote {args.out}",
            args.format,
        )
    return 0


def _write_or_check(
    out: Path, content: str, check: bool, regenerate: str, done: str, fmt: str = "text"
) -> int:
    """Write a generated file, or with ``check`` say (exit 1) when the committed one differs from it."""
    if check:
        try:
            current = out.read_text(encoding="utf-8")
        except OSError:
            current = ""
        if current != content:
            write(f"{out}: out of date; regenerate with: {regenerate}", sys.stderr)
            return EXIT_PROBLEMS
        return EXIT_OK
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(content, encoding="utf-8", newline="\n")
    if fmt != "json":  # the JSON answer is the report itself, already written
        write(done, sys.stderr if fmt != "text" else None)
    return EXIT_OK


def _accuracy_page(report: Report, corpus: Path) -> str:
    """docs/accuracy.md's text, with the figures of corpus/measurements.yaml; a file of another shape is an error."""
    from dlldoctor.formats.accuracy import render_markdown

    path = Path(corpus).parent / "measurements.yaml"
    measurements = _measurements(path)
    try:
        return render_markdown(report, measurements)
    except (TypeError, ValueError, AttributeError, KeyError) as e:
        raise InputError(f"{path}: a figure or a list is not of the expected shape ({e})") from e


def _measurements(path: Path) -> object:
    """corpus/measurements.yaml (next to the corpus folder), when there is one."""
    if not path.is_file():
        return None
    import yaml

    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        raise InputError(
            f"{path}{where}: not valid YAML ({getattr(e, 'problem', None) or 'unreadable'})"
        ) from e


def _add_priors(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "priors", help="count how often each cause explains each kind of loader error in the labelled reports"
    )
    add_rules_option(p)
    p.add_argument("--repo", type=Path, default=Path(), help="the checkout holding corpus/ (default: .)")
    p.add_argument("--out", type=Path, help="write the priors here (rules/data/priors.yaml)")
    p.add_argument("--check", action="store_true", help="with --out: only check that the file is up to date")
    add_format_option(p)
    p.set_defaults(_rules=_priors)


def _priors(args: argparse.Namespace) -> int:
    from dlldoctor.diagnose.priors_build import priors_data, render_priors

    data = priors_data(args.repo, _load(args))
    content = render_priors(data)
    if args.format == "json" and args.out is None:
        write(json_text({"version": 1, **data}))
        return EXIT_OK
    if args.out is None:
        write(content)
        return EXIT_OK
    done = f"wrote {args.out} ({data['cases']} loader errors from {', '.join(data['sources'])})"
    return _write_or_check(args.out, content, args.check, f"dlldoctor rules priors --out {args.out}", done)


def _add_compile(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "compile",
        help="write the checked rule set to <rules>/compiled.json (a first run then skips the checks)",
    )
    add_rules_option(p)
    p.add_argument(
        "--check", action="store_true", help="only check that the file is up to date (exit 1 if not)"
    )
    add_format_option(p)
    p.set_defaults(_rules=_compile)


def _compile(args: argparse.Namespace) -> int:
    from dlldoctor.kb.compiled import NAME
    from dlldoctor.kb.ruleset import compiled_text
    from dlldoctor.resources import rules_root

    root = Path(args.rules) if args.rules else rules_root()
    out = root / NAME
    status = _write_or_check(
        out, compiled_text(root), args.check, "dlldoctor rules compile", f"wrote {out}", args.format
    )
    if args.format == "json":
        write(
            json_text({"version": 1, "out": str(out), "up_to_date": status == EXIT_OK, "check": args.check})
        )
    return status


def execute(args: argparse.Namespace) -> int:

    printable_output()
    status: int = args._rules(args)
    return status


def _load(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from dlldoctor.kb.ruleset import load_rule_set

    return load_rule_set(args.rules)


def _list(args: argparse.Namespace) -> int:
    rule_set = _load(args)
    rules = [r for r in rule_set.rules if not args.category or r.category == args.category]
    if args.category and args.category not in dict(rule_set.categories):
        raise InputError(f"unknown category {args.category!r}")
    if args.format == "json":
        import json

        items = [
            {
                "id": r.id,
                "category": r.category,
                "status": r.status,
                "severity": r.severity,
                "title": r.title.get(args.lang),
                "path": r.path,
            }
            for r in rules
        ]
        write(json.dumps({"version": 1, "rules": items}, ensure_ascii=False, indent=2, sort_keys=True))
        return 0
    from dlldoctor.formats.rule_text import word

    lang = args.lang
    if args.format == "markdown":
        lines = [word("list_head", lang), "|---|---|---|---|"]
        lines += [
            f"| `{r.id}` | {r.category} | {word(r.status, lang)} | {r.title.get(lang)} |" for r in rules
        ]
        write("\n".join(lines))
        return 0
    width = max((len(r.id) for r in rules), default=10)
    cwidth = max((len(r.category) for r in rules), default=10)
    for r in rules:
        status = word(r.status, lang)
        status += " " * (12 - len(status) - sum(ord(ch) > 0x2E80 for ch in status))  # wide: 2 columns
        write(f"{r.id:<{width}}  {r.category:<{cwidth}}  {status}  {r.title.get(lang)}")
    write(word("count", lang, n=len(rules)))
    return 0


def _show(args: argparse.Namespace) -> int:
    from dlldoctor.formats import rule_text

    rule_set = _load(args)
    rule = rule_set.get(args.rule_id)
    if rule is None:
        from dlldoctor.kb.search import suggest

        hint = suggest(args.rule_id, rule_set)
        raise InputError(f"no rule {args.rule_id!r}" + (f"; did you mean {hint}?" if hint else ""))
    if args.format == "json":
        write(rule_text.rule_json(rule))
    elif args.format == "markdown":
        write(rule_text.rule_markdown(rule, args.lang))
    else:
        write(rule_text.rule_text(rule, args.lang, colour=use_colour(sys.stdout)))
    return 0


def _lint(args: argparse.Namespace) -> int:
    from dlldoctor.kb.ruleset import lint_rule_set
    from dlldoctor.resources import rules_root

    root = args.rules or rules_root()
    rule_set, problems = lint_rule_set(root)
    if args.format == "json":
        items = [{"path": p.path, "line": p.line, "message": p.message} for p in problems]
        count = len(rule_set.rules) if rule_set is not None else None
        write(
            json_text(
                {"version": 1, "root": str(root), "ok": not problems, "rules": count, "problems": items}
            )
        )
        return EXIT_PROBLEMS if problems else EXIT_OK
    if problems:
        write(f"✗ {len(problems)} problem(s) in {root}")
        for problem in problems:
            write(str(problem))
        return EXIT_PROBLEMS
    assert rule_set is not None
    write(f"✓ {len(rule_set.rules)} rules OK ({root})")
    return EXIT_OK


def _test(args: argparse.Namespace) -> int:
    from dlldoctor.diagnose.examples import example_line, run_examples

    rule_set = _load(args)
    unknown = [i for i in args.rule_ids if rule_set.get(i) is None]
    if unknown:
        raise InputError(f"no rule {', '.join(map(repr, unknown))}")
    results = run_examples(rule_set, set(args.rule_ids) or None)
    failed = [r for r in results if not r.passed]
    todo = [r for r in results if r.kind == "todo_match"]
    if args.format == "json":
        write(json_text(examples_dict(rule_set, results)))
        return EXIT_PROBLEMS if failed else EXIT_OK
    total = len([r for r in results if r.kind != "todo_match"])
    verdict = "✗" if failed else "✓"
    write(
        f"{verdict} {total - len(failed)}/{total} examples pass, {len(failed)} fail, {len(todo)} todo "
        f"({sum(r.todo_fixed for r in todo)} of them now fire), {len(rule_set.active_rules())} rules"
    )
    for r in results:
        if r.passed and not args.verbose and r.kind != "todo_match":
            continue
        rule = rule_set.get(r.rule)
        assert rule is not None
        where = f"{Path(rule_set.root) / rule.path}:{example_line(rule_set, r.rule, r.kind, r.index)}"
        first = r.text.strip().splitlines()[0] if r.text.strip() else ""
        first = first if len(first) <= 90 else first[:89] + "…"
        fired = ", ".join(r.fired) or "none"
        if r.kind == "todo_match":
            state = "TODO fixed (move it to match)" if r.fires else "TODO"
        else:
            state = "ok" if r.passed else "FAIL"
        expectation = {
            "match": "should fire",
            "no_match": "should not fire",
            "todo_match": "not expected yet",
        }
        write(f"{where}: {state}: {r.rule} {expectation[r.kind]} on examples.{r.kind}[{r.index}]: {first}")
        if not r.passed or args.verbose:
            write(f"    rules that fire: {fired}")
    return EXIT_PROBLEMS if failed else EXIT_OK


def _new(args: argparse.Namespace) -> int:
    from dlldoctor.kb.scaffold import write_skeleton
    from dlldoctor.resources import rules_root

    path = write_skeleton(args.rules or rules_root(), args.rule_id, args.category, explicit=bool(args.rules))
    if args.format == "json":
        write(json_text({"version": 1, "rule": args.rule_id, "category": args.category, "path": str(path)}))
        return EXIT_OK
    write(
        f"wrote {path}; fill it in, then run `dlldoctor rules lint` and `dlldoctor rules test {args.rule_id}`"
    )
    return EXIT_OK


def _catalog(args: argparse.Namespace) -> int:
    from dlldoctor.formats.rule_catalog import check_catalog, write_catalog

    rule_set = _load(args)
    if args.check:
        stale = check_catalog(rule_set, args.out)
        if args.format == "json":
            write(json_text({"version": 1, "out": str(args.out), "up_to_date": not stale, "stale": stale}))
            return EXIT_PROBLEMS if stale else EXIT_OK
        for name in stale:
            write(f"{args.out / name}: out of date")
        if stale:
            write("regenerate with: dlldoctor rules catalog --out " + str(args.out), sys.stderr)
            return EXIT_PROBLEMS
        write(f"{args.out} is up to date")
        return EXIT_OK
    written = write_catalog(rule_set, args.out)
    if args.format == "json":
        names = sorted(str(Path(p).name) for p in written)
        write(json_text({"version": 1, "out": str(args.out), "written": names}))
        return EXIT_OK
    write(f"wrote {len(written)} files to {args.out}")
    return EXIT_OK
