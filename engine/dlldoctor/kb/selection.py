"""A rule set as a user configured it: extra rule folders on top (``--extra-rules``), then only the
selected rules or categories (``--select``), without the ignored ones (``--ignore``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from dlldoctor.errors import InputError, RuleError
from dlldoctor.kb.model import Rule, rule_from_data
from dlldoctor.kb.ruleset import RuleSet, load_rule_set


def extra_rules(base: RuleSet, folder: Path) -> tuple[list[Rule], list[str]]:
    """The valid rules under ``folder`` (any depth, *.yaml), checked against ``base``'s categories and
    families, and every problem (a broken file, an id the base set already has)."""
    from dlldoctor.kb.lint import check_rule
    from dlldoctor.kb.yamlsrc import SourceError, read_source

    if not folder.is_dir():
        return [], [f"{folder}: not a folder of rules"]
    categories = frozenset(c for c, _ in base.categories)
    known = {r.id for r in base.rules}
    rules: list[Rule] = []
    problems: list[str] = []
    for path in sorted(p for p in folder.rglob("*.yaml") if p.is_file()):
        try:
            src = read_source(path, folder)
        except SourceError as e:
            problems.append(str(e.problem))
            continue
        found = check_rule(src, categories=categories, families=base.families.ids())
        problems += [f"{path}:{line}: {message}" if line else f"{path}: {message}" for line, message in found]
        if found:
            continue
        rule = rule_from_data(src.data, path.relative_to(folder).as_posix())
        if rule.id in known:
            problems.append(f"{path}: rule id {rule.id!r} is already in the rule set")
            continue
        known.add(rule.id)
        rules.append(rule)
    return rules, problems


def with_extra_rules(base: RuleSet, folders: tuple[Path, ...]) -> RuleSet:
    added: list[Rule] = []
    problems: list[str] = []
    for folder in folders:
        rules, found = extra_rules(replace(base, rules=base.rules + tuple(added)), Path(folder))
        added += rules
        problems += found
    if problems:
        shown = "\n  ".join(problems[:20])
        raise RuleError(f"--extra-rules: {len(problems)} problem(s):\n  {shown}")
    if not added:
        return base
    return replace(base, rules=tuple(sorted(base.rules + tuple(added), key=lambda r: r.id)))


def selected(rule_set: RuleSet, select: tuple[str, ...], ignore: tuple[str, ...]) -> RuleSet:
    """Only the rules whose id or category is in ``select`` (all when empty), minus ``ignore``."""
    if not select and not ignore:
        return rule_set
    ids = {r.id for r in rule_set.rules}
    categories = {c for c, _ in rule_set.categories}
    unknown = [n for n in (*select, *ignore) if n not in ids and n not in categories]
    if unknown:
        raise InputError(
            f"--select/--ignore: no rule or category {', '.join(map(repr, unknown))} "
            "(see `dlldoctor rules list`)"
        )

    def named(rule: Rule, names: tuple[str, ...]) -> bool:
        return rule.id in names or rule.category in names

    rules = tuple(r for r in rule_set.rules if (not select or named(r, select)) and not named(r, ignore))
    return replace(rule_set, rules=rules)


def configured_rule_set(
    root: Path | None = None,
    extra: tuple[Path, ...] = (),
    select: tuple[str, ...] = (),
    ignore: tuple[str, ...] = (),
    *,
    use_cache: bool = True,
) -> RuleSet:
    rule_set = load_rule_set(root, use_cache=use_cache)
    if extra:
        rule_set = with_extra_rules(rule_set, extra)
    return selected(rule_set, select, ignore)
