"""What every probe reads: one scanned install with shared indexes, and the answer a probe gives."""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from dlldoctor.install.sources import Entry
from dlldoctor.kb.families import Families, FamilyHit
from dlldoctor.kb.model import Probe
from dlldoctor.loader.environment import Folder
from dlldoctor.loader.findings import Finding
from dlldoctor.loader.resolution import Node
from dlldoctor.pe.model import PEImage
from dlldoctor.scan.result import ScanResult
from dlldoctor.vocabulary import SEVERITY_RANK


@dataclass(frozen=True)
class ProbeAnswer:
    probe: Probe
    value: bool | str | None  # None: the target lacks the data to decide
    evidence: tuple[str, ...] = ()
    collect: str | None = None  # what would decide an unknown answer
    # The scan's findings the answer rests on: their severity caps the severity of a confirmed rule.
    findings: tuple[Finding, ...] = ()

    @property
    def decided(self) -> bool:
        return self.value is not None

    @property
    def as_expected(self) -> bool:
        return self.decided and self.value == self.probe.expect


class ProbeContext:
    """One scan, with the indexes the probes share."""

    def __init__(self, result: ScanResult[Any], families: Families) -> None:
        self.result = result
        self.families = families
        self._classified: dict[str, tuple[FamilyHit, ...]] = {}
        self._digests: dict[Entry, str] = {}
        self._modules: list[str] | None = None

    def digest(self, entry: Entry) -> str:
        """sha256 of an entry, read once however many rules compare it with RECORD."""
        found = self._digests.get(entry)
        if found is None:
            found = self._digests[entry] = entry.sha256()
        return found

    def classify(self, name: str) -> tuple[FamilyHit, ...]:
        """Family hits of a lower-case DLL name, once per name (probes ask for the same few hundred)."""
        hits = self._classified.get(name)
        if hits is None:
            hits = self._classified[name] = self.families.classify(name)
        return hits

    def in_family(self, name: str, probe: Probe) -> bool:
        dll, family = probe.arg("dll"), probe.arg("family")
        lowered = name.lower()
        if dll:
            return bool(lowered == str(dll).lower())
        if family:
            return any(hit.family == family for hit in self.classify(lowered))
        return True

    def edges(self) -> Iterator[tuple[str, Node, Node]]:
        """(context, importer node, imported node) for every edge of every load operation."""
        for context, tree in self.result.trees.values():
            stack = [tree]
            while stack:
                node = stack.pop()
                for child in node.children:
                    yield context, node, child
                    if not child.repeat:
                        stack.append(child)

    def findings(self, *kinds: str) -> list[Finding]:
        return [f for f in self.result.findings if f.kind in kinds]

    def finding_for(self, kind: str, dll: str) -> Finding | None:
        """The scan's finding of ``kind`` about the DLL ``dll`` (the most severe, when there are several)."""
        lowered = dll.lower()
        found = [f for f in self.result.findings if f.kind == kind and (f.dll or "").lower() == lowered]
        return min(found, key=lambda f: SEVERITY_RANK.get(f.severity, 3), default=None)

    def process_trees(self) -> Iterator[tuple[str, Node]]:
        """(context, tree) of every load operation inside python.exe: all but programs started apart."""
        for context, tree in self.result.trees.values():
            if not context.startswith("program start"):
                yield context, tree

    def all_copies(self) -> dict[str, list[str]]:
        """Where each PE file name exists: the target, the described machine's folders, and the
        System32 copies the built-in profile assumes (the VC++ runtime), by lower-case name."""
        copies: dict[str, list[str]] = defaultdict(list)
        for report in self.result.files:
            copies[report.entry.name.lower()].append(report.entry.location)
        env = self.result.environment
        folders: list[Folder] = [f for f in (env.app_dir, env.system_dir) if f is not None]
        folders.extend(env.path_dirs)
        for folder in folders:
            for name, entry in folder.files.items():
                if entry.location not in copies[name]:
                    copies[name].append(entry.location)
        if env.system_dir is None:
            for name in env.profile.vc_runtime:
                if name in copies:
                    copies[name].append(f"System32\\{name} (assumed: VC++ Redistributable)")
        return copies

    def extension_modules(self) -> list[str]:
        """Dotted names of the target's extension modules (``onnxruntime.capi.onnxruntime_pybind11_state``)."""
        if self._modules is None:
            self._modules = [
                posixpath.splitext(r.entry.relpath)[0].split(".")[0].replace("/", ".")
                for r in self.result.files
                if r.role == "extension"
            ]
        return self._modules

    def image(self, entry: Entry) -> PEImage | None:
        return self.result.catalog.image(entry)
