"""Which DLLs come with which PyPI project (``rules/data/packages.yaml``), and the declared dependencies
of the distributions in a target (``Requires-Dist``, evaluated for 64-bit Windows)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from dlldoctor.errors import RuleError
from dlldoctor.install.metadata import InstallFacts, normalize
from dlldoctor.resources import load_data

# Parts of project names too generic to say which DLLs a project ships.
_GENERIC = frozenset(
    {"py", "python", "lib", "libs", "deps", "dev", "bin", "binary", "core", "essentials", "addons"}
)


@dataclass(frozen=True)
class Provider:
    project: str  # normalised
    patterns: tuple[re.Pattern[str], ...]
    optional_for: frozenset[str]

    def provides(self, dll: str) -> bool:
        return any(p.fullmatch(dll) for p in self.patterns)


@dataclass(frozen=True)
class Dependency:
    project: str  # normalised
    required_by: str
    extra: str | None  # the extra that asks for it, None for a plain requirement


def load_providers(root: Path | None = None) -> dict[str, Provider]:
    data = load_data("packages", root)
    items = data.get("packages") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise RuleError("rules/data/packages.yaml: expected a `packages:` list")
    providers = {}
    for item in items:
        try:
            project = normalize(str(item["project"]))
            patterns = tuple(re.compile(str(p)) for p in item.get("provides") or ())
        except (KeyError, TypeError, re.error) as e:
            raise RuleError(f"rules/data/packages.yaml: bad entry {item!r}: {e}") from e
        optional = frozenset(normalize(str(p)) for p in item.get("optional_for") or ())
        providers[project] = Provider(project, patterns, optional)
    return providers


def provides(project: str, dll: str, providers: dict[str, Provider]) -> bool:
    """Whether ``project`` ships ``dll``: by the data, else by its name (PyQt5-Qt5 ships Qt5Core.dll)."""
    known = providers.get(project)
    if known is not None and known.patterns:
        return known.provides(dll)
    stem = dll.lower().rsplit(".", 1)[0]
    tokens = [t for t in re.split(r"[-_.]", project) if len(t) >= 3 and t not in _GENERIC]
    return any(stem.startswith(t) for t in tokens)


def absent_dependencies(
    install: InstallFacts, python: tuple[int, int] | None, providers: dict[str, Provider]
) -> list[Dependency]:
    """Dependencies the target's distributions declare (or are known to load) that it does not hold."""
    from packaging.markers import InvalidMarker, UndefinedComparison, UndefinedEnvironmentName
    from packaging.requirements import InvalidRequirement, Requirement

    present = set(install.projects())
    version = f"{python[0]}.{python[1]}" if python else "3.11"
    environment = {
        "sys_platform": "win32", "platform_system": "Windows", "os_name": "nt", "platform_machine": "AMD64",
        "python_version": version, "python_full_version": f"{version}.0", "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
    }  # fmt: skip
    found: dict[tuple[str, str | None], Dependency] = {}
    for info in install.dist_infos:
        for text in info.requires:
            try:
                requirement = Requirement(text)
            except InvalidRequirement:
                continue
            project = normalize(requirement.name)
            if project in present:
                continue
            extra = _extra(str(requirement.marker)) if requirement.marker else None
            try:
                ok = requirement.marker is None or requirement.marker.evaluate(
                    {**environment, "extra": extra or ""}
                )
            except (InvalidMarker, UndefinedComparison, UndefinedEnvironmentName):
                ok = False
            if ok:
                found.setdefault((project, extra), Dependency(project, info.project, extra))
    for provider in providers.values():
        for user in provider.optional_for & present:
            if provider.project not in present:
                found.setdefault(
                    (provider.project, "optional"), Dependency(provider.project, user, "optional")
                )
    return sorted(found.values(), key=lambda d: (d.extra is not None, d.project, d.extra or ""))


def _extra(marker: str) -> str | None:
    match = re.search(r"extra\s*==\s*['\"]([^'\"]+)['\"]", marker)
    return match.group(1) if match else None
