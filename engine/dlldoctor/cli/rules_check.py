"""``dlldoctor rules check FILE...`` (the pre-commit hook) and the JSON answers of the ``rules`` actions.

``check`` finds the rule set each changed file belongs to (the folder above it holding taxonomy.yaml),
lints that whole set, then runs the examples of the changed rules (all rules when reference data changed).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dlldoctor.cli.common import EXIT_OK, EXIT_PROBLEMS, add_format_option, write
from dlldoctor.errors import InputError

if TYPE_CHECKING:
    from dlldoctor.diagnose.accuracy import Report
    from dlldoctor.diagnose.examples import ExampleResult
    from dlldoctor.kb.ruleset import RuleSet


def json_text(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True)


def _score(score: Any) -> dict[str, Any]:
    return {"cases": score.cases, "top1": round(score.top1_rate, 4), "top3": round(score.top3_rate, 4)}


def accuracy_dict(report: Report) -> dict[str, Any]:
    return {
        "version": 1,
        "overall": _score(report.overall),
        "unseen": _score(report.unseen),
        "by_language": {lang: _score(s) for lang, s in report.by_language},
        "by_category": {cat: _score(s) for cat, s in report.by_category},
        "misses": [
            {"case": r.case.id, "expected": sorted(r.case.expected), "got": list(r.ranked[:3])}
            for r in report.misses
        ],
        "false_alarms": [{"case": r.case.id, "rules": list(r.error_rules)} for r in report.false_alarms],
        "healthy": len(report.healthy),
    }


def _state(r: ExampleResult) -> str:
    if r.kind == "todo_match":
        return "todo-fixed" if r.fires else "todo"
    return "ok" if r.passed else "fail"


def examples_dict(rule_set: RuleSet, results: list[ExampleResult]) -> dict[str, Any]:
    from dlldoctor.diagnose.examples import example_line

    items = []
    for r in results:
        rule = rule_set.get(r.rule)
        path = str(Path(rule_set.root) / rule.path) if rule is not None else ""
        items.append(
            {
                "rule": r.rule,
                "kind": r.kind,
                "index": r.index,
                "state": _state(r),
                "fired": list(r.fired),
                "path": path,
                "line": example_line(rule_set, r.rule, r.kind, r.index),
            }
        )
    counted = [i for i in items if i["kind"] != "todo_match"]
    return {
        "version": 1,
        "passed": sum(i["state"] == "ok" for i in counted),
        "failed": sum(i["state"] == "fail" for i in counted),
        "todo": sum(i["kind"] == "todo_match" for i in items),
        "results": items,
    }


def add_check(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "check",
        help="lint the rule set of each changed file and test the changed rules (the pre-commit hook)",
    )
    p.add_argument(
        "files", nargs="*", metavar="FILE", help="changed files of a rule set (others are skipped)"
    )
    add_format_option(p)
    p.set_defaults(_rules=check)


def rule_set_root(path: Path) -> Path | None:
    """The folder above ``path`` that holds taxonomy.yaml (the root of its rule set), if any."""
    for folder in Path(path).resolve().parents:
        if (folder / "taxonomy.yaml").is_file():
            return folder
    return None


def check(args: argparse.Namespace) -> int:
    from dlldoctor.diagnose.examples import run_examples
    from dlldoctor.kb.ruleset import lint_rule_set

    by_root: dict[Path, set[str] | None] = {}
    for name in args.files:
        path = Path(name)
        if path.suffix not in (".yaml", ".yml"):
            continue
        root = rule_set_root(path)
        if root is None:
            continue
        resolved = path.resolve()
        if resolved.parent.parent == root and resolved.parent.name != "data":
            changed = by_root.setdefault(root, set())
            if changed is not None:
                changed.add(resolved.stem)  # a rule file: its id is its name
        else:
            by_root[root] = None  # taxonomy or reference data: every rule's examples
    report: list[dict[str, Any]] = []
    failed = False
    for root, changed in sorted(by_root.items(), key=lambda item: str(item[0])):
        rule_set, problems = lint_rule_set(root)
        entry: dict[str, Any] = {"root": str(root), "problems": [str(p) for p in problems], "examples": []}
        if rule_set is not None:
            only = None if changed is None else {i for i in changed if rule_set.get(i) is not None}
            results = run_examples(rule_set, only) if only is None or only else []
            entry["examples"] = [
                {"rule": r.rule, "kind": r.kind, "index": r.index, "state": _state(r), "fired": list(r.fired)}
                for r in results
            ]
        bad = [e for e in entry["examples"] if e["state"] == "fail"]
        failed = failed or bool(problems) or bool(bad)
        report.append(entry)
    if args.format == "json":
        write(json_text({"version": 1, "ok": not failed, "rule_sets": report}))
        return EXIT_PROBLEMS if failed else EXIT_OK
    if args.format == "markdown":
        raise InputError("rules check: --format text or json")
    for entry in report:
        bad = [e for e in entry["examples"] if e["state"] == "fail"]
        mark = "✗" if entry["problems"] or bad else "✓"
        write(
            f"{mark} {entry['root']}: {len(entry['problems'])} lint problem(s), "
            f"{len(entry['examples']) - len(bad)}/{len(entry['examples'])} examples of the changed rules pass"
        )
        for problem in entry["problems"]:
            write(f"  {problem}")
        for e in bad:
            write(
                f"  FAIL {e['rule']} examples.{e['kind']}[{e['index']}]: fired {', '.join(e['fired']) or 'none'}"
            )
    if not report:
        write("✓ no rule file among the changed files")
    return EXIT_PROBLEMS if failed else EXIT_OK
