"""Missing DLLs that a declared dependency provides: a wheel or tree scanned without that dependency.

torchvision's modules import torch_cpu.dll, PyQt5's import Qt5Core.dll from PyQt5-Qt5: scanned alone,
such a wheel would report them missing although pip installs the dependency with it. A missing DLL that
nothing in the target holds and that an absent dependency provides becomes ``info`` (a plain
requirement: pip brings it) or ``warning`` (an extra or an optional feature: only that feature fails).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from dlldoctor.install.metadata import InstallFacts
from dlldoctor.loader.findings import Finding
from dlldoctor.loader.packages import Provider, absent_dependencies, provides


def attribute(
    findings: Iterable[Finding],
    install: InstallFacts,
    target_names: frozenset[str],
    python: tuple[int, int] | None,
    providers: dict[str, Provider],
) -> list[Finding]:
    findings = list(findings)
    missing = [f for f in findings if f.kind == "missing-dll" and f.severity != "info" and f.dll]
    if not missing:
        return findings
    absent = absent_dependencies(install, python, providers)
    if not absent:
        return findings
    held = {name.rsplit("/", 1)[-1].lower() for name in target_names}
    out = []
    for finding in findings:
        dll = (finding.dll or "").lower()
        if finding not in missing or dll in held:
            out.append(finding)
            continue
        source = next((d for d in absent if provides(d.project, dll, providers)), None)
        if source is None:
            out.append(finding)
        elif source.extra is None:
            note = f"{finding.dll} comes with {source.project}, which {source.required_by} requires: not in the target"
            out.append(replace(finding, severity="info", message=f"{finding.message}. {note}"))
        else:
            why = "an optional feature" if source.extra == "optional" else f"its extra [{source.extra}]"
            note = (
                f"{finding.dll} comes with {source.project}, which {source.required_by} needs only for {why}: "
                "that feature fails until it is installed"
            )
            out.append(replace(finding, severity="warning", message=f"{finding.message}. {note}"))
    return out
