"""The built-in Windows profile (``rules/data/windows.yaml``): KnownDLLs, system DLLs, API sets."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dlldoctor.errors import RuleError
from dlldoctor.resources import load_data


@dataclass(frozen=True)
class ApiSet:
    prefix: str
    host: str | None
    optional: bool = False


@dataclass(frozen=True)
class SystemProfile:
    known_dlls: frozenset[str]
    system_dlls: frozenset[str]
    vc_runtime: frozenset[str]
    driver_dlls: frozenset[str]
    api_sets: tuple[ApiSet, ...]  # longest prefix first

    def api_set(self, name: str) -> ApiSet | None:
        lowered = name.lower()
        return next((a for a in self.api_sets if lowered.startswith(a.prefix)), None)


def _names(data: dict[str, object], key: str) -> frozenset[str]:
    value = data.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RuleError(f"rules/data/windows.yaml: '{key}' must be a list of file names")
    return frozenset(v.lower() for v in value)


def load_profile(root: Path | None = None) -> SystemProfile:
    data = load_data("windows", root)
    if not isinstance(data, dict):
        raise RuleError("rules/data/windows.yaml: expected a mapping at the top level")
    api_sets = []
    for item in data.get("api_sets") or []:
        if not isinstance(item, dict) or not isinstance(item.get("prefix"), str):
            raise RuleError("rules/data/windows.yaml: every api_sets item needs a 'prefix'")
        host = item.get("host")
        api_sets.append(
            ApiSet(item["prefix"].lower(), host.lower() if host else None, bool(item.get("optional")))
        )
    api_sets.sort(key=lambda a: len(a.prefix), reverse=True)
    return SystemProfile(
        known_dlls=_names(data, "known_dlls"),
        system_dlls=_names(data, "system_dlls"),
        vc_runtime=_names(data, "vc_runtime"),
        driver_dlls=_names(data, "driver_dlls"),
        api_sets=tuple(api_sets),
    )
