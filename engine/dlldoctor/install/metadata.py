"""What the packaging metadata of a target says: dist-info folders, RECORD hashes, conda-meta claims.

``.dist-info/RECORD`` lists the sha256 of every file pip installed: the cheapest truth about whether a
DLL is the one its package shipped. conda-meta records list the files a conda package owns; a file
claimed by both is a pip-over-conda install.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import posixpath
import re
from collections import defaultdict
from dataclasses import dataclass, field

from dlldoctor.install.sources import Source

_DIST_INFO = re.compile(
    r"^(?P<prefix>(?:.*/)?)(?P<name>[^/]+?)-(?P<version>[^-/]+)\.dist-info/(?P<file>[^/]+)$"
)


# Where an installed .dist-info sits: the root of a wheel or site-packages, or an environment's site-packages.
_SITE_ROOTS = frozenset({"", "lib/site-packages/"})
MAX_METADATA = 1 << 20
# The most read from one metadata file. torch's RECORD is 1.6 MB and the biggest conda-meta record of a
# CUDA stack a few MB; a file past its cap is left out like an unreadable one.
MAX_RECORD = 32 << 20
MAX_SMALL_METADATA = 1 << 20  # WHEEL
MAX_CONDA_RECORD = 32 << 20


def normalize(project: str) -> str:
    """PEP 503 project name normalisation."""
    return re.sub(r"[-_.]+", "-", project).lower()


@dataclass(frozen=True)
class RecordEntry:
    path: str  # relative to the target, posix
    hash_field: str  # as RECORD writes it: "sha256=<urlsafe base64>", or ""
    size: int | None
    owner: str  # "name-version.dist-info"

    @property
    def sha256(self) -> str | None:
        """The hex digest, decoded only for the files actually compared (RECORDs list thousands)."""
        return _hex_digest(self.hash_field) if self.hash_field else None


@dataclass(frozen=True)
class DistInfo:
    project: str  # normalised name
    version: str
    folder: str  # target-relative path of the .dist-info folder
    tags: tuple[str, ...] = ()  # WHEEL Tag lines
    requires: tuple[str, ...] = ()  # METADATA Requires-Dist values, markers included


@dataclass
class InstallFacts:
    dist_infos: list[DistInfo] = field(default_factory=list)
    records: dict[str, RecordEntry] = field(default_factory=dict)  # lower-case path → entry
    conda_files: dict[str, str] = field(default_factory=dict)  # lower-case path → conda package
    names: frozenset[str] = frozenset()

    def projects(self) -> dict[str, list[DistInfo]]:
        grouped: dict[str, list[DistInfo]] = defaultdict(list)
        for info in self.dist_infos:
            grouped[info.project].append(info)
        return dict(grouped)

    def version_of(self, project: str) -> str | None:
        found = self.projects().get(normalize(project))
        return found[0].version if found else None


def _hex_digest(value: str) -> str | None:
    algorithm, _, encoded = value.partition("=")
    if algorithm != "sha256" or not encoded:
        return None
    try:
        return base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)).hex()
    except ValueError:
        return None


def read_install_facts(source: Source, is_wheel: bool) -> InstallFacts:
    """Collect dist-info, RECORD and conda-meta facts; malformed metadata is skipped, never fatal."""
    names = source.names()
    facts = InstallFacts(names=names)
    for name in sorted(names):
        match = _DIST_INFO.match(name)
        if match is None:
            continue
        prefix, file = match.group("prefix"), match.group("file")
        if prefix.lower() not in _SITE_ROOTS:
            continue  # a vendored copy inside another package (setuptools/_vendor/…) is not installed
        folder = posixpath.dirname(name)
        owner = posixpath.basename(folder)
        if file == "METADATA":
            tags = _wheel_tags(source.read_text(posixpath.join(folder, "WHEEL"), MAX_SMALL_METADATA) or "")
            requires = _requires(source.read_text(name, MAX_METADATA) or "")
            facts.dist_infos.append(
                DistInfo(normalize(match.group("name")), match.group("version"), folder, tags, requires)
            )
        elif file == "RECORD":
            _read_record(source.read_text(name, MAX_RECORD) or "", prefix, owner, facts, is_wheel)
    for name in sorted(n for n in names if n.lower().startswith("conda-meta/") and n.endswith(".json")):
        _read_conda(
            source.read_text(name, MAX_CONDA_RECORD) or "", posixpath.basename(name)[: -len(".json")], facts
        )
    return facts


def _requires(text: str) -> tuple[str, ...]:
    """The Requires-Dist values of a METADATA file's header (the part before the description)."""
    header = text[:MAX_METADATA].split("\n\n", 1)[0]
    return tuple(
        line.split(":", 1)[1].strip() for line in header.splitlines() if line.startswith("Requires-Dist:")
    )


def _wheel_tags(text: str) -> tuple[str, ...]:
    return tuple(line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Tag:"))


def _read_record(text: str, prefix: str, owner: str, facts: InstallFacts, is_wheel: bool) -> None:
    # In an installed tree RECORD paths are relative to site-packages, which holds the .dist-info folder.
    base = "" if is_wheel else prefix.rstrip("/")
    for row in csv.reader(io.StringIO(text)):
        if not row or not row[0]:
            continue
        path = posixpath.normpath(posixpath.join(base, row[0].replace("\\", "/"))) if base else row[0]
        size = int(row[2]) if len(row) > 2 and row[2].isdigit() else None
        facts.records[path.lower()] = RecordEntry(path, row[1] if len(row) > 1 else "", size, owner)


def _read_conda(text: str, package: str, facts: InstallFacts) -> None:
    try:
        data = json.loads(text)
    except ValueError:
        return
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list):
        return
    for item in files:
        if isinstance(item, str):
            facts.conda_files[item.replace("\\", "/").lower()] = package
