"""What a scan of one target yields, and the options that shape it.

:class:`ScanResult` is generic in the type of its diagnoses: the scanner never judges, a later step
(the rules, in :mod:`dlldoctor.diagnose`) fills ``diagnoses`` with values of its own type.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

from dlldoctor.cache.pe_facts import Catalog
from dlldoctor.install.metadata import InstallFacts
from dlldoctor.install.sources import Entry
from dlldoctor.loader.environment import Environment
from dlldoctor.loader.findings import Finding
from dlldoctor.loader.resolution import Node
from dlldoctor.pe.layout import DefectError
from dlldoctor.pe.model import PEImage
from dlldoctor.vocabulary import LoadContext

D = TypeVar("D")


@dataclass(frozen=True)
class ScanOptions:
    python: str | None = None
    app_dir: str | None = None
    path: tuple[str, ...] = ()
    system_dir: str | None = None
    rules_root: Path | None = None
    known_dlls: frozenset[str] | None = None  # the machine's own KnownDLLs (registry), else the profile's


@dataclass(frozen=True)
class FileReport:
    entry: Entry
    facts: PEImage | DefectError
    role: str  # extension, dll, exe
    install_folder: str


@dataclass
class ScanResult(Generic[D]):
    target: str
    environment: Environment
    files: list[FileReport]
    findings: list[Finding]
    trees: dict[str, tuple[LoadContext, Node]] = field(default_factory=dict)  # relpath → (context, tree)
    install: InstallFacts = field(default_factory=InstallFacts)
    catalog: Catalog = field(default_factory=Catalog, repr=False)
    # Filled by the diagnosis step the caller gives the batch runner (dlldoctor.diagnose.verdicts).
    diagnoses: list[D] = field(default_factory=list)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]
