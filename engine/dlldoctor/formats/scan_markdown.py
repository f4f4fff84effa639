"""The scan report as Markdown, to paste into a GitHub issue."""

from __future__ import annotations

from dlldoctor.diagnose.verdicts import ProbedRule
from dlldoctor.pe.model import PEImage
from dlldoctor.scan.result import ScanResult


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_one(result: ScanResult[ProbedRule], lang: str = "en") -> str:
    env = result.environment
    python = f"{env.python[0]}.{env.python[1]}" if env.python else "unknown"
    errors = sum(f.severity == "error" for f in result.findings)
    lines = [
        f"### dlldoctor scan: `{result.target}`",
        "",
        f"Python {python}, {env.machine} process, {len(result.files)} PE files, {errors} error(s).",
        "",
    ]
    for probed in result.diagnoses:
        rule = probed.rule
        lines.append(f"**{_cell(rule.title.get(lang))}** (`{rule.category}`, rule `{rule.id}`)")
        lines.append("")
        lines += [f"- {_cell(line)}" for line in probed.evidence[:4]]
        for step, fix in enumerate(rule.fixes, 1):
            lines.append(f"{step}. {_cell(fix.text.get(lang))}")
            lines += [f"   - {shell}: `{command}`" for shell, command in fix.commands]
        lines.append("")
    if result.findings:
        lines += ["| severity | kind | chain | message |", "|---|---|---|---|"]
        for f in result.findings:
            chain = " → ".join(f"`{c}`" for c in f.chain)
            lines.append(f"| {f.severity} | {f.kind} | {chain} | {_cell(f.message)} |")
        lines.append("")
    lines += [
        "<details><summary>Files</summary>",
        "",
        "| file | role | machine | linker | size |",
        "|---|---|---|---|---|",
    ]
    for report in sorted(result.files, key=lambda r: r.entry.relpath):
        facts = report.facts
        if isinstance(facts, PEImage):
            lines.append(
                f"| `{report.entry.relpath}` | {report.role} | {facts.machine} | {facts.linker} | "
                f"{report.entry.size} |"
            )
        else:
            lines.append(f"| `{report.entry.relpath}` | corrupt | | | {report.entry.size} |")
    lines += ["", "</details>", "", "<details><summary>Assumptions</summary>", ""]
    lines += [f"- {_cell(a)}" for a in env.assumptions]
    lines += ["", "</details>", ""]
    return "\n".join(lines)


def render(results: list[ScanResult[ProbedRule]], lang: str = "en") -> str:
    return "\n".join(render_one(r, lang) for r in results)
