"""DLL families (rules/data/families.yaml): which group a DLL name belongs to, and the version in its name."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import re2

from dlldoctor.kb.patterns import compile_pattern

# delvewheel renames the DLLs it vendors to ``name-<hash>.dll``; the family is that of ``name.dll``.
_MANGLED = re2.compile(r"^(.+?)-[0-9a-f]{8,40}(\.dll)$")


@dataclass(frozen=True)
class VersionRule:
    pattern: str
    component: str


@dataclass(frozen=True)
class Family:
    id: str
    title_en: str
    title_zh: str
    missing: str | None
    names: tuple[str, ...]
    versions: tuple[VersionRule, ...] = ()


@dataclass(frozen=True)
class FamilyHit:
    """A DLL name's membership in one family, with the component version read from the name."""

    family: str
    component: str | None = None
    version: str | None = None


def base_name(name: str) -> str:
    """Lower-case base name of a DLL path, with a delvewheel hash suffix removed."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1].strip().lower()
    if not base.isascii():  # undecodable bytes of a file name (lone surrogates) cannot reach RE2
        base = base.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    m = _MANGLED.match(base)
    return m.group(1) + m.group(2) if m else base


@dataclass(frozen=True)
class Families:
    families: tuple[Family, ...]

    @cached_property
    def _compiled(self) -> list[tuple[Family, Any]]:
        # One pattern per family: compiling each name pattern apart costs more than classifying.
        return [(f, compile_pattern("|".join(f"(?:{p})" for p in f.names))) for f in self.families]

    def ids(self) -> frozenset[str]:
        return frozenset(f.id for f in self.families)

    def get(self, family_id: str) -> Family | None:
        return next((f for f in self.families if f.id == family_id), None)

    def classify(self, name: str) -> tuple[FamilyHit, ...]:
        """Every family ``name`` belongs to, in file order."""
        base = base_name(name)
        hits = []
        for family, names in self._compiled:
            if not names.fullmatch(base):
                continue
            component = version = None
            for rule in family.versions:
                comp = rule.component
                m = compile_pattern(rule.pattern).fullmatch(base)
                if m:
                    groups = m.groupdict()
                    major, minor = groups.get("major"), groups.get("minor")
                    if major is not None:
                        component = comp
                        version = str(int(major)) + (f".{int(minor)}" if minor is not None else "")
                        break
            hits.append(FamilyHit(family.id, component, version))
        return tuple(hits)


def families_from_data(data: Any) -> Families:
    """Build :class:`Families` from the parsed YAML (already checked by :func:`check_families`)."""
    out = []
    for item in data.get("families", []) if isinstance(data, dict) else []:
        title = item.get("title") or {}
        out.append(
            Family(
                id=str(item["id"]),
                title_en=str(title.get("en", item["id"])),
                title_zh=str(title.get("zh", title.get("en", item["id"]))),
                missing=item.get("missing"),
                names=tuple(str(p) for p in item.get("names", [])),
                versions=tuple(
                    VersionRule(str(v["pattern"]), str(v.get("component", "library")))
                    for v in item.get("version", []) or []
                ),
            )
        )
    return Families(tuple(out))


def check_families(data: Any, categories: frozenset[str]) -> list[tuple[list[str | int], str]]:
    """Problems in families.yaml as (path in the document, message)."""
    problems: list[tuple[list[str | int], str]] = []
    if not isinstance(data, dict) or not isinstance(data.get("families"), list):
        return [([], "expected a mapping with a `families` list")]
    seen: set[str] = set()
    for i, item in enumerate(data["families"]):
        where: list[str | int] = ["families", i]
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            problems.append((where, "each family needs an `id`"))
            continue
        if item["id"] in seen:
            problems.append(([*where, "id"], f"duplicate family id {item['id']!r}"))
        seen.add(item["id"])
        missing = item.get("missing")
        if missing is not None and missing not in categories:
            problems.append(([*where, "missing"], f"unknown category {missing!r}"))
        names = item.get("names")
        if not isinstance(names, list) or not names:
            problems.append(([*where, "names"], "a family needs at least one name pattern"))
            names = []
        for j, pattern in enumerate(names):
            error = _pattern_error(pattern)
            if error:
                problems.append(([*where, "names", j], error))
        for j, v in enumerate(item.get("version", []) or []):
            if not isinstance(v, dict) or not isinstance(v.get("pattern"), str):
                problems.append(([*where, "version", j], "a version entry needs a `pattern`"))
                continue
            error = _pattern_error(v["pattern"])
            if error:
                problems.append(([*where, "version", j, "pattern"], error))
    return problems


def _pattern_error(pattern: Any) -> str | None:
    from dlldoctor.kb.patterns import pattern_error

    if not isinstance(pattern, str):
        return "a pattern must be a string"
    return pattern_error(pattern)
