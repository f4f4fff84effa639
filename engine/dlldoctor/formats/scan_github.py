"""The scan report as GitHub Actions workflow commands: one ``::error``/``::warning``/``::notice`` line
per broken link and per diagnosed cause, each naming the target file, then one plain summary line.

https://docs.github.com/actions/reference/workflow-commands-for-github-actions
"""

from __future__ import annotations

from dlldoctor.diagnose.verdicts import ProbedRule
from dlldoctor.formats.links import rule_url
from dlldoctor.scan.result import ScanResult

COMMAND = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(severity: str, file: str, title: str, message: str) -> str:
    props = f"file={escape_property(file.replace(chr(92), '/'))},title={escape_property(title)}"
    return f"::{COMMAND[severity]} {props}::{escape_data(message)}"


def render(results: list[ScanResult[ProbedRule]], lang: str = "en") -> str:
    lines: list[str] = []
    errors = 0
    for result in results:
        by_category: dict[str, list[ProbedRule]] = {}
        for probed in result.diagnoses:  # best first: one annotation per cause, like the text report
            by_category.setdefault(probed.rule.category, []).append(probed)
        for group in by_category.values():
            probed, rule = group[0], group[0].rule
            fix = rule.fixes[0].text.get(lang) if rule.fixes else ""
            also = [f"also confirmed for this cause: {', '.join(p.rule.id for p in group[1:])}"]
            message = "\n".join(
                [rule.title.get(lang), *probed.evidence[:4]]
                + ([f"fix: {fix}"] if fix else [])
                + (also if len(group) > 1 else [])
                + [f"docs: {rule_url(rule)}"]
            )
            lines.append(annotation(rule.severity, result.target, f"dlldoctor {rule.id}", message))
        for finding in result.findings:
            if finding.severity == "info":
                continue
            errors += finding.severity == "error"
            message = f"{finding.message}\n{' → '.join(finding.chain)} ({finding.context})"
            lines.append(annotation(finding.severity, result.target, f"dlldoctor {finding.kind}", message))
        if not result.files:
            lines.append(
                annotation("error", result.target, "dlldoctor", "not a Windows target: it holds no PE file")
            )
    empty = sum(not r.files for r in results)
    verdict = f"{errors} error(s)" if errors else ("" if empty else "no problems found")
    if empty:
        verdict += (", " if verdict else "") + f"{empty} not a Windows target (nothing checked)"
    lines.append(f"dlldoctor: {len(results)} target(s) scanned: {verdict}")
    return "\n".join(lines) + "\n"
