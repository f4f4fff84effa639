"""Scan a target: find its PE files, lay out the process that would load them, collect findings.

The load operations follow what really happens in ``python.exe``: torch's preload of ``torch\\lib``
(when torch is in the target), each extension module's import, and, for DLLs nothing imports, a load
by full path as ``ctypes`` does it.
"""

from __future__ import annotations

import posixpath
from dataclasses import replace
from pathlib import Path
from typing import Any

from dlldoctor.cache.pe_facts import Catalog
from dlldoctor.install.metadata import read_install_facts
from dlldoctor.install.registrations import Registration, read_registrations
from dlldoctor.install.sources import (
    Entry,
    FileSource,
    Source,
    open_target,
    open_targets,
    wheel_install_folder,
)
from dlldoctor.loader.findings import Finding, from_tree
from dlldoctor.loader.packages import load_providers
from dlldoctor.loader.resolution import Node
from dlldoctor.pe.layout import DefectError
from dlldoctor.pe.model import PEImage
from dlldoctor.scan.dependencies import attribute
from dlldoctor.scan.layout import InstallLayout, build_environment
from dlldoctor.scan.process import ProcessModel
from dlldoctor.scan.result import FileReport, ScanOptions, ScanResult
from dlldoctor.vocabulary import SEVERITY_RANK, LoadContext

CONTEXT_PRIORITY: tuple[LoadContext, ...] = (
    "extension module",
    "torch preload",
    "program start",
    "loaded by full path",
)


def _role(entry: Entry, facts: PEImage | DefectError) -> str:
    suffix = posixpath.splitext(entry.name)[1].lower()
    if suffix == ".pyd":
        return "extension"
    if isinstance(facts, PEImage) and not facts.is_dll:
        return "exe"
    return "exe" if suffix == ".exe" else "dll"


def module_name(relpath: str) -> str:
    """``torch/_C.cp311-win_amd64.pyd`` → ``torch._C``."""
    stem = posixpath.splitext(relpath)[0].split(".")[0]
    return stem.replace("/", ".")


def scan_target(
    target: str | tuple[str, ...], options: ScanOptions, catalog: Catalog | None = None
) -> ScanResult[Any]:
    """Scan one target (several wheels as one environment: a tuple); pass a ``catalog`` to use a fact
    cache, a thread count or a progress display."""
    parts = target if isinstance(target, tuple) else (target,)
    source = open_targets(parts) if isinstance(target, tuple) else open_target(target)
    target = source.label if isinstance(target, tuple) else target
    try:
        entries = list(source.entries())
        names = source.names()
        catalog = Catalog() if catalog is None else catalog
        # Every PE file is read on threads, through the cache, while this thread reads what needs no PE facts:
        # the RECORD, the install's own registrations, the package data.
        catalog.prefetch(entries, wait=False)
        layout = InstallLayout(source, entries)
        install = read_install_facts(source, layout.is_wheel)
        registrations = _registrations(source, layout, entries)
        providers = load_providers(options.rules_root)
        reports = [
            FileReport(e, facts := catalog.facts(e), _role(e, facts), layout.install_folder[e])
            for e in entries
        ]
        env = build_environment(options, layout, catalog, names | {Path(t).name for t in parts}, entries)
        scanner = ProcessModel(layout, env, catalog, registrations)
        trees = scanner.run(entries)
        links = list(getattr(source, "outside_links", []))
        skipped = (
            [f"{len(links)} file(s) are links out of the target, not read: {', '.join(sorted(links)[:5])}"]
            if links
            else []
        )
        env = replace(
            env, assumptions=(*env.assumptions, *sorted(scanner.loader.assumptions.values()), *skipped)
        )
        # Only a Python install (a wheel, a folder with extension modules) loads its DLLs through its modules:
        # a single file, or a folder of DLLs alone, is what the user asks about, so its loads are certain.
        python_install = layout.is_wheel or any(e.name.lower().endswith(".pyd") for e in entries)
        certain = isinstance(source, FileSource) or not python_install
        uncertain = set() if certain else scanner.uncertain
        findings = _collect(trees, env.machine, reports, uncertain)
        findings = sorted(attribute(findings, install, names, env.python, providers), key=_order)
        tree_map = {rel: (ctx, tree) for rel, ctx, tree in trees}
        return ScanResult(target, env, reports, findings, tree_map, install, catalog)
    finally:
        source.close()


def _collect(
    trees: list[tuple[str, LoadContext, Node]], machine: str, files: list[FileReport], uncertain: set[str]
) -> list[Finding]:
    best: dict[tuple[str, str, str], Finding] = {}
    for relpath, context, tree in trees:
        for finding in from_tree(tree, relpath, context, machine, certain=relpath not in uncertain):
            current = best.get(finding.key)
            if current is None or _rank(finding) < _rank(current):
                best[finding.key] = finding
    for report in files:
        if isinstance(report.facts, DefectError):
            finding = Finding(
                "corrupt-file",
                "error",
                report.entry.location,
                report.entry.name,
                None,
                f"{report.entry.name} is not a usable PE file: {report.facts}",
                (report.entry.relpath,),
                "file check",
            )
            best.setdefault(finding.key, finding)  # a chain to it, when one was found, says more
    return sorted(best.values(), key=_order)


def _order(f: Finding) -> tuple[int, str, str, str, str]:
    return (SEVERITY_RANK[f.severity], f.kind, f.file, f.dll or "", f.symbol or "")


def _rank(finding: Finding) -> tuple[int, int, int]:
    context = next((i for i, c in enumerate(CONTEXT_PRIORITY) if finding.context.startswith(c)), 9)
    return SEVERITY_RANK[finding.severity], context, len(finding.chain)


def _registrations(source: Source, layout: InstallLayout, entries: list[Entry]) -> tuple[Registration, ...]:
    """What the target's own Python code registers, with paths as installed (a wheel's .data mapped)."""
    roots = [""]
    if layout.env_root:
        roots = sorted({n.split("/")[0] + "/" + n.split("/")[1] for n in source.names()
                        if n.lower().startswith("lib/site-packages/")})[:1]  # fmt: skip
    found = read_registrations(source, [e.relpath for e in entries], roots)
    if not layout.is_wheel:
        return found

    def installed(path: str) -> str:
        return wheel_install_folder(path + "/-")

    return tuple(
        replace(
            r,
            scope=installed(r.scope) if r.scope else "",
            path=installed(r.path)
            if r.kind == "dll-directory"
            else wheel_install_folder(r.path) + "/" + r.path.rsplit("/", 1)[-1],
        )
        for r in found
    )
