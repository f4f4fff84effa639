"""Probes: small questions a rule asks of a scanned install, each answered yes, no, or unknown.

Every probe kind of the rule schema has one function in :data:`PROBES`: the link probes here, the
install-wide ones in :mod:`dlldoctor.diagnose.install_probes`. An answer carries its evidence (the
findings and facts it rests on) and, when unknown, what to collect to decide. Probes read a
``ScanResult``; none of them touches the target again except ``file-intact``'s RECORD check on folders.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import re2

from dlldoctor.diagnose.install_probes import (
    cuda_build,
    cuda_major,
    driver_version,
    duplicate_dll,
    environment,
    mixed_install,
    path_ascii,
    python_abi,
    vcruntime_version,
)
from dlldoctor.diagnose.probe_context import ProbeAnswer, ProbeContext
from dlldoctor.install.sources import Entry
from dlldoctor.kb.model import Probe
from dlldoctor.loader.findings import Finding
from dlldoctor.vocabulary import RULE_CONTEXTS, LoadContext, ProbeKind


def dll_resolves(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    contexts = probe.arg("context")
    only_path = _is_path_context(contexts)
    wanted = () if only_path else _load_contexts(contexts)
    needed = unreported = False
    missing: list[str] = []
    path_only: list[str] = []
    findings: dict[tuple[str, str, str], Finding] = {}
    for context, importer, child in ctx.edges():
        if not ctx.in_family(child.resolution.name, probe) or (wanted and not context.startswith(wanted)):
            continue
        if child.imported is not None and child.imported.delayed:
            continue
        needed = True
        res = child.resolution
        if res.status == "missing":
            finding = ctx.finding_for("missing-dll", res.name)
            if finding is None:  # the scan does not count this link as a fault
                unreported = True
                continue
            findings[finding.key] = finding
            missing.append(f"{res.name} not found, needed by {importer.resolution.name} [{context}]")
        elif res.entry is not None and _on_user_path(ctx, res.name, res.entry):
            path_only.append(f"{res.name} found only through PATH [{res.reason}]: {res.location}")
    if only_path:
        return _only_on_path(ctx, probe, path_only)
    if not needed:
        return ProbeAnswer(probe, None, collect="no module of the target imports it")
    if missing:
        return ProbeAnswer(probe, False, tuple(sorted(set(missing))), findings=tuple(findings.values()))
    if unreported:
        return ProbeAnswer(
            probe, None, collect="the importers that miss it are not loaded into python.exe as such"
        )
    return ProbeAnswer(probe, True, ("every importer finds it",))


def _on_user_path(ctx: ProbeContext, name: str, entry: Entry) -> bool:
    """Bound to a copy in one of the user's PATH folders (not torch's own PATH prefix)."""
    return any(folder.get(name) == entry for folder in ctx.result.environment.path_dirs)


def _only_on_path(ctx: ProbeContext, probe: Probe, path_only: list[str]) -> ProbeAnswer:
    """Is a dependency reachable only through PATH (which Python >= 3.8 does not search)?"""
    evidence = list(path_only)
    findings = []
    path_dirs = ctx.result.environment.path_dirs
    for finding in ctx.findings("missing-dll"):
        if not ctx.in_family(finding.dll or "", probe):
            continue
        for folder in path_dirs:
            entry = folder.get(finding.dll or "")
            if entry is not None:
                findings.append(finding)
                evidence.append(f"{finding.dll} is not found by the loader but is on PATH: {entry.location}")
    if evidence:
        # A link bound through PATH is a fault of its own, with no finding to weigh it.
        return ProbeAnswer(probe, True, tuple(evidence), findings=() if path_only else tuple(findings))
    if not path_dirs:
        return ProbeAnswer(probe, None, collect="the PATH folders: pass each with --path (copies are enough)")
    return ProbeAnswer(probe, False, ("no missing DLL is on the given PATH folders",))


def _is_path_context(value: Any) -> bool:
    """``context: path`` (or ``[path]``): the question is whether PATH alone reaches the DLL."""
    return value == "path" or (isinstance(value, list | tuple) and list(value) == ["path"])


def _load_contexts(value: Any) -> tuple[LoadContext, ...]:
    """The scan's operation labels for the rule's context names."""
    if not value:
        return ()
    names = [value] if isinstance(value, str) else list(value)
    return tuple(c for name in names if name in RULE_CONTEXTS for c in RULE_CONTEXTS[name])


def symbol_exported(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    pattern = probe.arg("symbol")
    compiled = re2.compile(pattern) if pattern else None
    bad = []
    findings = []
    checked = False
    for finding in ctx.findings("missing-symbol"):
        if not ctx.in_family(finding.dll or "", probe):
            continue
        symbols = [s for s in finding.symbols if compiled is None or compiled.search(s)]
        if symbols:
            findings.append(finding)
            bad.append(f"{finding.dll} at the bound copy lacks {symbols[0]} (needed by {finding.chain[-2]})")
    if bad:
        return ProbeAnswer(probe, False, tuple(bad), findings=tuple(findings))
    for _, _, child in ctx.edges():
        if ctx.in_family(child.resolution.name, probe) and child.image is not None:
            checked = True
    if checked:
        return ProbeAnswer(probe, True, ("every imported name is exported by the copy the loader binds",))
    return ProbeAnswer(
        probe,
        None,
        collect="the DLL binds to a system copy whose exports are not known: pass --system-dir or --app-dir",
    )


def machine_matches(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    subjects = probe.arg("subject") or ("dependency", "python")
    subjects = (subjects,) if isinstance(subjects, str) else tuple(subjects)
    bad = []
    for finding in ctx.findings("arch-mismatch"):
        is_root = len(finding.chain) == 1
        if (is_root and "python" in subjects) or (not is_root and "dependency" in subjects):
            bad.append(finding)
    if bad:
        return ProbeAnswer(probe, False, tuple(f.message for f in bad), findings=tuple(bad))
    if not ctx.result.files:
        return ProbeAnswer(probe, None, collect="the target holds no PE file")
    return ProbeAnswer(probe, True, (f"every module is {ctx.result.environment.machine}",))


def file_intact(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    checks = probe.arg("checks") or ("pe", "present", "record-hash")
    checks = (checks,) if isinstance(checks, str) else tuple(checks)
    package = probe.arg("package")
    bad: list[str] = []
    corrupt = []
    looked = False
    if "pe" in checks:
        for finding in ctx.findings("corrupt-file"):
            if ctx.in_family(finding.dll or "", probe):
                corrupt.append(finding)
                bad.append(finding.message)
        looked = looked or bool(ctx.result.files)
    records = ctx.result.install.records
    by_path = {r.entry.relpath.lower(): r.entry for r in ctx.result.files}
    for key, record in records.items():
        if not key.endswith((".dll", ".pyd", ".exe")) or not ctx.in_family(key.rsplit("/", 1)[-1], probe):
            continue
        if package and not record.owner.lower().startswith(str(package).lower().replace("-", "_")):
            continue
        entry = by_path.get(key)
        if entry is None:
            if "present" in checks and not ctx.result.target.lower().endswith(".whl"):
                looked = True
                bad.append(f"{record.path} is listed in {record.owner}/RECORD but absent")
            continue
        if "record-hash" in checks and record.sha256 and not ctx.result.target.lower().endswith(".whl"):
            looked = True
            if ctx.digest(entry) != record.sha256:
                bad.append(f"{record.path} differs from the sha256 in {record.owner}/RECORD")
    if bad:
        # A file absent or changed against RECORD is a fault of its own, whatever the findings say.
        return ProbeAnswer(
            probe, False, tuple(bad), findings=tuple(corrupt) if len(corrupt) == len(bad) else ()
        )
    if looked:
        return ProbeAnswer(probe, True, ("files are readable PE files matching their RECORD",))
    return ProbeAnswer(probe, None, collect="scan the installed site-packages folder (with its .dist-info)")


PROBES: dict[ProbeKind, Callable[[ProbeContext, Probe], ProbeAnswer]] = {
    "dll-resolves": dll_resolves,
    "symbol-exported": symbol_exported,
    "machine-matches": machine_matches,
    "file-intact": file_intact,
    "mixed-install": mixed_install,
    "duplicate-dll": duplicate_dll,
    "vcruntime-version": vcruntime_version,
    "cuda-major": cuda_major,
    "cuda-build": cuda_build,
    "python-abi": python_abi,
    "environment": environment,
    "path-ascii": path_ascii,
    "driver-version": driver_version,
}

# Probes whose expected answer shows something wrong (the others only qualify a rule).
PROBLEM_ANSWERS: dict[ProbeKind, object] = {
    "dll-resolves": False,
    "symbol-exported": False,
    "machine-matches": False,
    "file-intact": False,
    "mixed-install": True,
    "duplicate-dll": True,
    "vcruntime-version": False,
    "cuda-major": False,
    "python-abi": False,
    "path-ascii": False,
    "driver-version": False,
}


def is_problem(probe: Probe) -> bool:
    """Whether the answer this probe expects shows a fault (rather than only narrowing a rule down).

    "Found only through PATH" is a fault for an extension module since Python 3.8, hence the exception.
    """
    context = probe.arg("context")
    if probe.kind == "dll-resolves" and _is_path_context(context):
        return probe.expect is True
    return probe.kind in PROBLEM_ANSWERS and PROBLEM_ANSWERS[probe.kind] == probe.expect


def answer(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    function = PROBES.get(probe.kind)
    if function is None:
        return ProbeAnswer(probe, None, collect=f"probe kind {probe.kind} is not known to this version")
    return function(ctx, probe)
