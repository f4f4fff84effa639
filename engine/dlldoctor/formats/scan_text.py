"""The scan report for people: what is broken first, as chains, then the files and the assumptions."""

from __future__ import annotations

from dlldoctor.diagnose.verdicts import ProbedRule
from dlldoctor.formats.links import rule_url
from dlldoctor.formats.style import Style
from dlldoctor.loader.findings import Finding
from dlldoctor.pe.model import PEImage
from dlldoctor.scan.result import ScanResult

MARK = {"error": ("✗", "red"), "warning": ("!", "yellow"), "info": ("i", "cyan")}


def _size(count: int) -> str:
    value = float(count)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{count} B"


def _finding(finding: Finding, style: Style) -> list[str]:
    mark, colour = MARK[finding.severity]
    lines = [f"  {style(mark + ' ' + finding.kind, colour, 'bold')}  {' → '.join(finding.chain)}"]
    lines.append(f"      {finding.message}")
    lines.append(style(f"      context: {finding.context}", "dim"))
    return lines


def _diagnoses(result: ScanResult[ProbedRule], style: Style, lang: str) -> list[str]:
    """The best confirmed rule of each cause in full; other rules of the same cause named under it."""
    zh = lang == "zh"
    lines = [style("诊断" if zh else "Diagnoses", "bold")]
    by_category: dict[str, list[ProbedRule]] = {}
    for probed in result.diagnoses:
        by_category.setdefault(probed.rule.category, []).append(probed)
    for index, (category, group) in enumerate(by_category.items(), 1):
        rule = group[0].rule
        lines.append(f"  {index}. {style(rule.title.get(lang), 'bold')}  [{category} · {rule.id}]")
        lines.extend(f"     {'依据' if zh else 'because'}: {line}" for line in group[0].evidence[:4])
        for step, fix in enumerate(rule.fixes, 1):
            lines.append(f"     {'修复' if zh else 'fix'} {step}: {fix.text.get(lang)}")
            lines.extend(style(f"        {shell}> {command}", "cyan") for shell, command in fix.commands)
        lines.append(style(f"     {'文档' if zh else 'docs'}: {rule_url(rule)}", "dim"))
        if len(group) > 1:
            others = ", ".join(p.rule.id for p in group[1:])
            lines.append(
                style(
                    f"     {'同一原因的其他规则' if zh else 'also confirmed for this cause'}: {others}", "dim"
                )
            )
    lines.append("")
    return lines


def verdict_line(result: ScanResult[ProbedRule], style: Style) -> str:
    """The first line: the target and what is wrong with it (or that nothing is), then the context."""
    env = result.environment
    errors = sum(f.severity == "error" for f in result.findings)
    warnings = sum(f.severity == "warning" for f in result.findings)
    python = f"Python {env.python[0]}.{env.python[1]}" if env.python else "Python version unknown"
    if not result.files:
        return style(
            f"? {result.target}: not a Windows target (no DLL, .pyd or .exe in it)", "yellow", "bold"
        )
    if errors:
        verdict = style(f"✗ {result.target}: {errors} error(s)", "red", "bold")
    else:
        verdict = style(f"✓ {result.target}: no problems found", "green", "bold")
    tail = f", {warnings} warning(s)" if warnings else ""
    return f"{verdict}{tail}  ({python}, {env.machine} process, {len(result.files)} PE file(s))"


def render_one(
    result: ScanResult[ProbedRule],
    style: Style,
    verbose: bool = False,
    lang: str = "en",
    files: bool = False,
) -> str:
    lines = [verdict_line(result, style)]
    quiet = not result.findings and not result.diagnoses and not files and not verbose
    if quiet:
        count = len(result.environment.assumptions)
        if result.files and count:
            lines.append(style(f"  {count} assumption(s) about the Windows machine; -v lists them", "dim"))
        return "\n".join(lines) + "\n"
    lines.append("")
    if result.diagnoses:
        lines.extend(_diagnoses(result, style, lang))
    shown = [f for f in result.findings if verbose or f.severity != "info"]
    hints = len(result.findings) - len(shown)
    if shown:
        lines.append(style("Findings", "bold"))
        for finding in shown:
            lines.extend(_finding(finding, style))
        lines.append("")
    if hints:
        lines += [style(f"{hints} hint(s) about files nothing is known to load; -v shows them", "dim"), ""]
    if files and result.files:
        lines.extend(_files(result, style))
    elif result.files:
        lines += [style(f"{len(result.files)} PE file(s) checked; --files lists them", "dim"), ""]
    lines.append(style("Assumptions", "bold"))
    lines.extend(f"  - {a}" for a in result.environment.assumptions)
    return "\n".join(lines) + "\n"


def _files(result: ScanResult[ProbedRule], style: Style) -> list[str]:
    lines = [style("Files", "bold")]
    width = max((len(f.entry.relpath) for f in result.files), default=0)
    for report in sorted(result.files, key=lambda f: f.entry.relpath):
        facts = report.facts
        if isinstance(facts, PEImage):
            detail = (
                f"{report.role:<9} {facts.machine:<6} linker {facts.linker:<6} {_size(report.entry.size):>9}"
            )
            if facts.file_version:
                detail += f"  v{facts.file_version}"
        else:
            detail = style(f"corrupt: {facts}", "red")
        lines.append(f"  {report.entry.relpath:<{width}}  {detail}")
    lines.append("")
    return lines


def render(
    results: list[ScanResult[ProbedRule]],
    colour: bool = False,
    verbose: bool = False,
    lang: str = "en",
    files: bool = False,
) -> str:
    style = Style(colour)
    return "\n".join(render_one(r, style, verbose, lang, files) for r in results)
