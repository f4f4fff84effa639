"""A rule's fixes in the words of the process's machine (rules/data/machines.yaml).

Rules name the x64 forms (the winget id, the download link of the x64 redistributable); a scan of a 32-bit
or ARM64 target shows the same fixes with that machine's forms instead.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

from dlldoctor.errors import RuleError
from dlldoctor.kb.model import Fix, Rule, Text

MACHINES = ("x64", "x86", "arm64")


@cache
def load_variants(root: Path | None = None) -> tuple[tuple[tuple[str, str], ...], ...]:
    """Each entry as ((machine, words), ...) in MACHINES order; empty when the rule set has no such file."""
    from dlldoctor.resources import load_data, rules_root

    base = root or rules_root()
    if not (base / "data" / "machines.yaml").is_file():
        return ()
    data = load_data("machines", root)
    items = data.get("variants") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise RuleError("rules/data/machines.yaml: expected a `variants:` list")
    out = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("x64"), str):
            raise RuleError(f"rules/data/machines.yaml: each entry needs the x64 words: {item!r}")
        if not item.get("source"):
            raise RuleError(f"rules/data/machines.yaml: entry {item['x64']!r} has no source")
        out.append(tuple((m, str(item[m])) for m in MACHINES if isinstance(item.get(m), str)))
    return tuple(out)


def _words(text: str, machine: str, variants: tuple[tuple[tuple[str, str], ...], ...]) -> str:
    for entry in variants:
        forms = dict(entry)
        if machine in forms:
            text = text.replace(forms["x64"], forms[machine])
    return text


def rule_for_machine(rule: Rule, machine: str, variants: tuple[tuple[tuple[str, str], ...], ...]) -> Rule:
    """``rule`` with its fixes in ``machine``'s words (the rule itself for x64 or an unknown machine)."""
    if machine == "x64" or machine not in MACHINES or not variants:
        return rule

    def fix(f: Fix) -> Fix:
        return Fix(
            text=Text(_words(f.text.en, machine, variants), _words(f.text.zh, machine, variants)),
            commands=tuple((shell, _words(c, machine, variants)) for shell, c in f.commands),
            url=_words(f.url, machine, variants) if f.url else None,
        )

    fixes = tuple(fix(f) for f in rule.fixes)
    return rule if fixes == rule.fixes else replace(rule, fixes=fixes)
