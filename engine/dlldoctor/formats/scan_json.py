"""The scan report as versioned, deterministic JSON (schema: schemas/report.schema.json)."""

from __future__ import annotations

import json
from typing import Any

from dlldoctor import __version__
from dlldoctor.diagnose.verdicts import ProbedRule
from dlldoctor.formats.links import rule_url
from dlldoctor.loader.environment import Environment
from dlldoctor.loader.findings import Finding
from dlldoctor.pe.model import PEImage
from dlldoctor.scan.result import FileReport, ScanResult

REPORT_VERSION = 1


def _environment(env: Environment) -> dict[str, Any]:
    return {
        "python": f"{env.python[0]}.{env.python[1]}" if env.python else None,
        "machine": env.machine,
        "env_type": env.env_type,
        "app_dir": env.app_dir.label if env.app_dir else None,
        "path": [f.label for f in env.path_dirs],
        "system_dir": env.system_dir.label if env.system_dir else None,
        "assumptions": list(env.assumptions),
    }


def _file(target: str, report: FileReport) -> dict[str, Any]:
    facts = report.facts
    item: dict[str, Any] = {
        "target": target,
        "path": report.entry.relpath,
        "location": report.entry.location,
        "role": report.role,
        "size": report.entry.size,
    }
    if isinstance(facts, PEImage):
        item.update(
            status="ok",
            machine=facts.machine,
            linker_version=facts.linker,
            file_version=facts.file_version,
            product_name=facts.product_name,
            dependent_load_flags=facts.dependent_load_flags,
            imports=sorted(i.dll for i in facts.imports),
            delay_imports=sorted(i.dll for i in facts.delay_imports),
            exports=len(facts.exports),
            parser=facts.parser,
        )
    else:
        item.update(status="corrupt", defect=facts.defect, message=str(facts))
    return item


def finding_dict(target: str, finding: Finding) -> dict[str, Any]:
    return {
        "target": target,
        "kind": finding.kind,
        "severity": finding.severity,
        "file": finding.file,
        "dll": finding.dll,
        "symbol": finding.symbol,
        "symbols": list(finding.symbols),
        "message": finding.message,
        "chain": list(finding.chain),
        "context": finding.context,
        "considered": list(finding.considered),
    }


def diagnosis_dict(target: str, probed: ProbedRule, lang: str) -> dict[str, Any]:
    rule = probed.rule
    return {
        "target": target,
        "rule": rule.id,
        "docs": rule_url(rule),
        "category": rule.category,
        "severity": rule.severity,
        "verdict": probed.verdict,
        "title": rule.title.get(lang),
        "summary": rule.summary.get(lang),
        "evidence": list(probed.evidence),
        "probes": [
            {"probe": a.probe.kind, "expect": a.probe.expect, "answer": a.value, "evidence": list(a.evidence)}
            for a in probed.answers
        ],
        "fixes": [
            {"text": fix.text.get(lang), "commands": dict(fix.commands), "url": fix.url} for fix in rule.fixes
        ],
    }


def report_dict(results: list[ScanResult[ProbedRule]], lang: str = "en") -> dict[str, Any]:
    files = [_file(r.target, f) for r in results for f in r.files]
    findings = [finding_dict(r.target, f) for r in results for f in r.findings]
    return {
        "version": REPORT_VERSION,
        "tool": {"name": "dlldoctor", "version": __version__},
        "environment": _environment(results[0].environment) if results else None,
        "targets": [{"target": r.target, "environment": _environment(r.environment)} for r in results],
        "files": sorted(files, key=lambda f: (f["target"], f["path"])),
        "findings": findings,
        "diagnoses": [diagnosis_dict(r.target, d, lang) for r in results for d in r.diagnoses],
    }


def render(results: list[ScanResult[ProbedRule]], lang: str = "en") -> str:
    return json.dumps(report_dict(results, lang), indent=2, ensure_ascii=False, sort_keys=True) + "\n"
