"""The scan report as SARIF 2.1.0, for code scanning (GitHub, GitLab, Azure DevOps).

One result per broken link (its rule is the finding kind: missing-dll, missing-symbol …) and one per
diagnosed cause (its rule is the dlldoctor rule, with the fixes as help and the rule's page as helpUri).
The artifact is the scanned target as it was named on the command line; the file inside it, the chain of
loads and the load context are in the message and the result's properties.
"""

from __future__ import annotations

import json
from typing import Any

from dlldoctor import REPOSITORY, __version__
from dlldoctor.diagnose.verdicts import ProbedRule
from dlldoctor.formats import scan_sentences as sentences
from dlldoctor.formats import scan_words as words
from dlldoctor.formats.ci_words import WORDS, word
from dlldoctor.formats.links import rule_url
from dlldoctor.loader.findings import Finding
from dlldoctor.scan.result import ScanResult

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL = {"error": "error", "warning": "warning", "info": "note"}
LOADER_DOCS = f"{REPOSITORY}/blob/main/docs/loader-model.md"


def _uri(target: str) -> str:
    return target.replace("\\", "/")


def _finding_result(target: str, finding: Finding, lang: str) -> dict[str, Any]:
    where = " → ".join(finding.chain)
    message = word(
        "finding-where",
        lang,
        message=sentences.finding_message(finding, lang),
        where=where,
        context=words.context(finding.context, lang),
    )
    return {
        "ruleId": finding.kind,
        "level": LEVEL[finding.severity],
        "message": {"text": message},
        "locations": [_location(target, finding.file)],
        "partialFingerprints": {"dlldoctor/v1": f"{finding.kind}:{finding.file}:{finding.dll or ''}".lower()},
        "properties": {
            "chain": list(finding.chain),
            "context": finding.context,
            "dll": finding.dll,
            "file": finding.file,
            "considered": list(finding.considered),
        },
    }


def _location(target: str, member: str | None) -> dict[str, Any]:
    location: dict[str, Any] = {"physicalLocation": {"artifactLocation": {"uri": _uri(target)}}}
    if member:
        location["logicalLocations"] = [{"fullyQualifiedName": member, "kind": "module"}]
    return location


def _diagnosis_result(target: str, probed: ProbedRule, lang: str) -> dict[str, Any]:
    rule = probed.rule
    evidence = word("semicolon", lang).join(sentences.evidence(e, lang) for e in probed.evidence[:4])
    text = rule.title.get(lang) + (f" — {evidence}" if evidence else "")
    return {
        "ruleId": rule.id,
        "level": LEVEL[rule.severity],
        "message": {"text": text},
        "locations": [_location(target, None)],
        "partialFingerprints": {"dlldoctor/v1": f"{rule.id}:{target}".lower()},
        "properties": {
            "category": rule.category,
            "verdict": probed.verdict,
            "evidence": list(probed.evidence),
        },
    }


def _rule_descriptor(probed: ProbedRule, lang: str) -> dict[str, Any]:
    rule = probed.rule
    fixes = "\n".join(f"{i}. {fix.text.get(lang)}" for i, fix in enumerate(rule.fixes, 1))
    return {
        "id": rule.id,
        "name": rule.id,
        "shortDescription": {"text": rule.title.get(lang)},
        "fullDescription": {"text": rule.summary.get(lang)},
        "helpUri": rule_url(rule),
        "help": {"text": fixes or rule.summary.get(lang)},
        "defaultConfiguration": {"level": LEVEL[rule.severity]},
        "properties": {"category": rule.category, "tags": [rule.category]},
    }


def _kind_descriptor(kind: str, lang: str) -> dict[str, Any]:
    return {
        "id": kind,
        "name": kind,
        "shortDescription": {"text": word(kind, lang) if kind in WORDS else kind},
        "helpUri": LOADER_DOCS,
        "properties": {"tags": ["loader"]},
    }


def sarif_dict(results: list[ScanResult[ProbedRule]], lang: str = "en") -> dict[str, Any]:
    sarif_results: list[dict[str, Any]] = []
    descriptors: dict[str, dict[str, Any]] = {}
    for result in results:
        for probed in result.diagnoses:
            descriptors.setdefault(probed.rule.id, _rule_descriptor(probed, lang))
            sarif_results.append(_diagnosis_result(result.target, probed, lang))
        for finding in result.findings:
            descriptors.setdefault(finding.kind, _kind_descriptor(finding.kind, lang))
            sarif_results.append(_finding_result(result.target, finding, lang))
    ids = sorted(descriptors)
    index = {rule_id: n for n, rule_id in enumerate(ids)}
    for item in sarif_results:
        item["ruleIndex"] = index[item["ruleId"]]
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "dlldoctor",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": REPOSITORY,
                        "rules": [descriptors[i] for i in ids],
                    }
                },
                "artifacts": [{"location": {"uri": _uri(r.target)}} for r in results],
                "results": sarif_results,
                "columnKind": "unicodeCodePoints",
            }
        ],
    }


def render(results: list[ScanResult[ProbedRule]], lang: str = "en") -> str:
    return json.dumps(sarif_dict(results, lang), indent=2, ensure_ascii=False, sort_keys=True) + "\n"
