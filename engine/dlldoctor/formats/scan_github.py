"""The scan report as GitHub Actions workflow commands: one ``::error``/``::warning``/``::notice`` line
per broken link and per diagnosed cause, each naming the target file, then one plain summary line.

https://docs.github.com/actions/reference/workflow-commands-for-github-actions
"""

from __future__ import annotations

from dlldoctor.diagnose.verdicts import ProbedRule
from dlldoctor.formats import scan_sentences as sentences
from dlldoctor.formats import scan_words as words
from dlldoctor.formats.ci_words import word
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
            also = [word("also", lang, ids=", ".join(p.rule.id for p in group[1:]))]
            message = "\n".join(
                [rule.title.get(lang), *(sentences.evidence(e, lang) for e in probed.evidence[:4])]
                + ([word("fix", lang, text=fix)] if fix else [])
                + (also if len(group) > 1 else [])
                + [word("docs", lang, url=rule_url(rule))]
            )
            lines.append(annotation(rule.severity, result.target, f"dlldoctor {rule.id}", message))
        for finding in result.findings:
            if finding.severity == "info":
                continue
            errors += finding.severity == "error"
            chain = word(
                "chain-context",
                lang,
                chain=" → ".join(finding.chain),
                context=words.context(finding.context, lang),
            )
            message = f"{sentences.finding_message(finding, lang)}\n{chain}"
            lines.append(annotation(finding.severity, result.target, f"dlldoctor {finding.kind}", message))
        if not result.files:
            lines.append(annotation("error", result.target, "dlldoctor", word("not-windows", lang)))
    empty = sum(not r.files for r in results)
    verdict = word("errors", lang, n=errors) if errors else ("" if empty else word("healthy", lang))
    if empty:
        verdict += (word("comma", lang) if verdict else "") + word("empty", lang, n=empty)
    lines.append(word("summary", lang, n=len(results), verdict=verdict))
    return "\n".join(lines) + "\n"
