"""Releases whose Windows files fail to load (rules/data/releases.yaml).

Sometimes the published wheel is at fault, not the machine: a DLL left out, a build against a newer runtime,
a release yanked for its Windows import errors. A text cannot show that; the list can. Each entry names the
package, the versions (exact or a specifier of :mod:`dlldoctor.kb.versions`), the Windows platform, what the
loader says (a :data:`dlldoctor.vocabulary.ReleaseSymptom`), the release that loads instead and its source.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from dlldoctor.kb.versions import in_range
from dlldoctor.vocabulary import RELEASE_PLATFORMS, RELEASE_SYMPTOMS

# The codes each symptom stands for (Win32 errors and the NTSTATUS a pop-up or crash shows).
SYMPTOM_CODES: dict[str, frozenset[int]] = {
    "module-not-found": frozenset({126, 0xC0000135}),
    "procedure-not-found": frozenset({127, 182, 0xC0000139}),
    "init-failed": frozenset({1114, 0xC0000142}),
    "crash": frozenset({0xC0000005, 0xC0000409}),
}
_SPEC = re.compile(
    r"(?:==|!=|>=|<=|>|<)\s*\d+(?:\.\d+)*(?:\.\*)?(?:\s*,\s*(?:==|!=|>=|<=|>|<)\s*\d+(?:\.\d+)*(?:\.\*)?)*"
)
_VERSION = re.compile(r"\d+(?:\.\d+)*")
_KEYS = frozenset({"package", "versions", "platform", "symptom", "fixed_in", "use_instead", "source", "note"})


def norm_package(name: str) -> str:
    """A PyPI project name as packaging normalizes it (``PyQt5_Qt5`` → ``pyqt5-qt5``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class Release:
    package: str  # normalized
    versions: str  # a specifier (``==3.12.0``, ``>=2.3.0,<2.3.1``)
    platform: str
    symptom: str
    instead: str  # the version to install: fixed_in, else use_instead
    fixed: bool  # True when ``instead`` is the release that fixed it (fixed_in), False for an older one
    source: str

    def covers(self, package: str, version: str) -> bool:
        return norm_package(package) == self.package and in_range(version, self.versions)

    def fits(self, codes: tuple[int, ...]) -> bool:
        """Whether the text's codes are this release's symptom (a text with no code fits any)."""
        return not codes or bool(SYMPTOM_CODES[self.symptom] & set(codes))


@dataclass(frozen=True)
class Releases:
    entries: tuple[Release, ...] = ()

    def listed(
        self, mentions: tuple[tuple[str, str], ...], codes: tuple[int, ...]
    ) -> tuple[tuple[Release, str], ...]:
        """Each (entry, version seen) for a package version the text names that the list says is broken with
        the symptom the text shows."""
        out: list[tuple[Release, str]] = []
        for name, version in mentions:
            for entry in self.entries:
                if entry.covers(name, version) and entry.fits(codes) and all(e is not entry for e, _ in out):
                    out.append((entry, version))
        return tuple(out)


def _versions(value: object) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if _SPEC.fullmatch(text):
        return text
    if _VERSION.fullmatch(text):
        return f"=={text}"
    return None


def check_releases(data: Any) -> list[tuple[list[str | int], str]]:
    """Every problem of a releases.yaml document, each with the path of the node it concerns."""
    items = data.get("releases") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return [([], "expected a `releases:` list")]
    problems: list[tuple[list[str | int], str]] = []
    for i, item in enumerate(items):
        where: list[str | int] = ["releases", i]
        if not isinstance(item, dict):
            problems.append((where, "each release is a mapping"))
            continue
        for key in sorted(set(item) - _KEYS):
            problems.append(([*where, key], f"unknown key {key!r}"))
        if not isinstance(item.get("package"), str) or not item["package"].strip():
            problems.append((where, "`package` is required"))
        if _versions(item.get("versions")) is None:
            problems.append(
                ([*where, "versions"], "`versions` is a version or a specifier (==, !=, >=, <=, >, <)")
            )
        if item.get("platform") not in RELEASE_PLATFORMS:
            problems.append(([*where, "platform"], f"`platform` is one of {', '.join(RELEASE_PLATFORMS)}"))
        if item.get("symptom") not in RELEASE_SYMPTOMS:
            problems.append(([*where, "symptom"], f"`symptom` is one of {', '.join(RELEASE_SYMPTOMS)}"))
        instead = [k for k in ("fixed_in", "use_instead") if k in item]
        if len(instead) != 1 or _VERSION.fullmatch(str(item[instead[0]]).strip()) is None:
            problems.append((where, "exactly one of `fixed_in` or `use_instead`, a version"))
        source = item.get("source")
        if not isinstance(source, str) or not source.startswith("https://"):
            problems.append(([*where, "source"], "`source` is an https URL"))
    return problems


def releases_from_data(data: Any) -> Releases:
    """The list of a document that passed :func:`check_releases`."""
    entries = []
    for item in data["releases"]:
        fixed = "fixed_in" in item
        entries.append(
            Release(
                package=norm_package(item["package"]),
                versions=_versions(item["versions"]) or "",
                platform=item["platform"],
                symptom=item["symptom"],
                instead=str(item["fixed_in" if fixed else "use_instead"]).strip(),
                fixed=fixed,
                source=item["source"],
            )
        )
    return Releases(tuple(entries))
