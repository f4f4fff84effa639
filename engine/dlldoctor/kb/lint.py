"""Everything `dlldoctor rules lint` checks in one rule file: the schema, then what a schema cannot say."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import PurePath
from typing import Any

from dlldoctor.kb.model import matcher_kind
from dlldoctor.kb.patterns import pattern_cost, pattern_error
from dlldoctor.kb.yamlsrc import Source
from dlldoctor.resources import schema_path
from dlldoctor.vocabulary import MATCHER_KINDS

_MATCH_GROUPS = ("all", "any", "none")


@cache
def rule_schema() -> dict[str, Any]:
    with schema_path("rule").open(encoding="utf-8") as fh:
        schema: dict[str, Any] = json.load(fh)
    return schema


@cache
def _validators() -> tuple[Any, dict[str, Any], dict[str, Any]]:
    import jsonschema

    schema = rule_schema()
    cls = jsonschema.Draft202012Validator
    main = cls(schema)
    matchers = {branch["title"]: cls(branch) for branch in schema["$defs"]["matcher"]["oneOf"]}
    probes = {branch["title"]: cls(branch) for branch in schema["$defs"]["probe"]["oneOf"]}
    return main, matchers, probes


def _has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf" for ch in text)


def _path_text(path: Sequence[str | int]) -> str:
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or "(top level)"


def _message(error: Any) -> str:
    """A schema error in words a contributor can act on."""
    path = list(error.absolute_path)
    where = _path_text(path)
    v = error.validator
    if v == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        if missing == "zh":
            return f"{where}: missing zh text (every title, summary and fix step needs en and zh)"
        return f"{where}: missing required field {missing!r}"
    if v == "additionalProperties":
        return f"{where}: {error.message}"
    if v == "minItems":
        need = error.validator_value
        if path and path[0] == "examples":
            return f"{where}: too few examples: {len(error.instance)} given, at least {need} needed"
        return f"{where}: needs at least {need} item(s)"
    if v == "enum":
        return f"{where}: {error.instance!r} is not one of {', '.join(map(str, error.validator_value))}"
    if v == "pattern" and path and path[-1] in ("id", "category", "replaced_by"):
        return f"{where}: {error.instance!r} must be lower-case words joined by '-'"
    if v == "pattern" and "references" in path:
        return f"{where}: {error.instance!r} is not an http(s) URL"
    if v == "pattern":
        return f"{where}: {error.instance!r} does not have the expected form"
    return f"{where}: {error.message}"


def _schema_errors(data: Any) -> Iterator[tuple[list[str | int], str]]:
    main, matchers, probes = _validators()
    for error in sorted(main.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        path = list(error.absolute_path)
        if error.validator == "oneOf" and _is_matcher_path(path):
            kind = matcher_kind(error.instance)
            if kind is None:
                keys = [k for k in MATCHER_KINDS if isinstance(error.instance, dict) and k in error.instance]
                what = f"has {' and '.join(keys)}" if keys else "has none"
                yield (
                    path,
                    (
                        f"{_path_text(path)}: a matcher needs exactly one kind key "
                        f"({', '.join(MATCHER_KINDS)}); this one {what}"
                    ),
                )
                continue
            for sub in matchers[kind].iter_errors(error.instance):
                sub_path = path + list(sub.absolute_path)
                yield sub_path, _message_at(sub, sub_path)
            continue
        if error.validator == "oneOf" and _is_probe_path(path):
            kind = error.instance.get("probe") if isinstance(error.instance, dict) else None
            if kind not in probes:
                yield path, f"{_path_text(path)}: unknown probe {kind!r} (one of {', '.join(probes)})"
                continue
            for sub in probes[kind].iter_errors(error.instance):
                sub_path = path + list(sub.absolute_path)
                if sub.validator == "not":
                    yield (
                        sub_path,
                        f"{_path_text(sub_path)}: probe {kind!r} takes `dll` or `family`, not both",
                    )
                else:
                    yield sub_path, _message_at(sub, sub_path)
            continue
        yield path, _message(error)


def _message_at(error: Any, path: list[str | int]) -> str:
    class _At:
        def __init__(self, e: Any) -> None:
            self.__dict__.update(
                {k: getattr(e, k) for k in ("validator", "validator_value", "instance", "message")}
            )
            self.absolute_path = path

    return _message(_At(error))


def _is_matcher_path(path: list[str | int]) -> bool:
    return len(path) == 3 and path[0] == "match" and path[1] in _MATCH_GROUPS and isinstance(path[2], int)


def _is_probe_path(path: list[str | int]) -> bool:
    return len(path) == 2 and path[0] == "probes" and isinstance(path[1], int)


def check_rule(src: Source, *, categories: frozenset[str], families: frozenset[str]) -> list[tuple[int, str]]:
    """Every problem of one rule file as (line, message)."""
    data = src.data
    if not isinstance(data, dict):
        return [(1, "a rule file holds one mapping (id, category, status, title, …)")]
    problems = [(src.line(path), message) for path, message in _schema_errors(data)]

    stem = PurePath(src.path).stem
    folder = PurePath(src.path).parent.name
    rule_id = data.get("id")
    if isinstance(rule_id, str) and rule_id != stem:
        problems.append((src.line(["id"]), f"id {rule_id!r} differs from the file name {stem!r}"))
    category = data.get("category")
    if isinstance(category, str):
        if categories and category not in categories:
            problems.append((src.line(["category"]), f"unknown category {category!r} (see taxonomy.yaml)"))
        if category != folder:
            problems.append(
                (src.line(["category"]), f"category {category!r} differs from the folder {folder!r}")
            )

    match = data.get("match")
    for group in _MATCH_GROUPS:
        items = match.get(group) if isinstance(match, dict) else None
        for i, m in enumerate(items if isinstance(items, list) else []):
            kind = matcher_kind(m)
            where: list[str | int] = ["match", group, i]
            if kind in ("dll", "symbol", "module", "text") and isinstance(m[kind], str):
                error = pattern_error(m[kind])
                if error:
                    problems.append((src.line([*where, kind]), error))
            if kind == "family":
                names = m["family"] if isinstance(m["family"], list) else [m["family"]]
                for name in names:
                    if isinstance(name, str) and families and name not in families:
                        problems.append(
                            (
                                src.line([*where, "family"]),
                                f"unknown DLL family {name!r} (see data/families.yaml)",
                            )
                        )
    for i, p in enumerate(data.get("probes") or [] if isinstance(data.get("probes"), list) else []):
        if not isinstance(p, dict):
            continue
        if isinstance(p.get("family"), str) and families and p["family"] not in families:
            problems.append((src.line(["probes", i, "family"]), f"unknown DLL family {p['family']!r}"))
        if isinstance(p.get("symbol"), str):
            error = pattern_error(p["symbol"])
            if error:
                problems.append((src.line(["probes", i, "symbol"]), error))

    for where, text in _zh_texts(data):
        if isinstance(text, str) and text.strip() and not _has_cjk(text):
            problems.append((src.line(where), f"{_path_text(where)}: the zh text has no Chinese in it"))
    for where, _ in _placeholders(data, []):
        problems.append(
            (src.line(where), f"{_path_text(where)}: unfinished skeleton: replace the TODO placeholder")
        )
    if data.get("status") == "deprecated" and "replaced_by" not in data:
        pass  # a retired rule may have no successor
    return sorted(set(problems))


def _placeholders(value: Any, where: list[str | int]) -> Iterator[tuple[list[str | int], str]]:
    """Every string left as `rules new` wrote it (a TODO placeholder), with where it sits."""
    if isinstance(value, str):
        if re.search(r"\bTODO\b", value):
            yield where, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _placeholders(item, [*where, str(key)])
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _placeholders(item, [*where, i])


def pattern_cost_of_rule(data: Any) -> int:
    """RE2 instructions all patterns of one rule compile to (0 for what does not compile)."""
    if not isinstance(data, dict):
        return 0
    total = 0
    match = data.get("match")
    for group in _MATCH_GROUPS:
        items = match.get(group) if isinstance(match, dict) else None
        for m in items if isinstance(items, list) else []:
            kind = matcher_kind(m)
            if kind in ("dll", "symbol", "module", "text") and isinstance(m[kind], str):
                total += pattern_cost(m[kind])
    return total


def _zh_texts(data: dict[str, Any]) -> Iterator[tuple[list[str | int], Any]]:
    for key in ("title", "summary"):
        value = data.get(key)
        if isinstance(value, dict) and "zh" in value:
            yield [key, "zh"], value["zh"]
    fixes = data.get("fixes")
    for i, fix in enumerate(fixes if isinstance(fixes, list) else []):
        if isinstance(fix, dict) and "zh" in fix:
            yield ["fixes", i, "zh"], fix["zh"]
