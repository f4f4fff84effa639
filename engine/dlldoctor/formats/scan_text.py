"""The scan report for people: what is broken first, as chains, then the files and the assumptions."""

from __future__ import annotations

from dlldoctor.diagnose.verdicts import ProbedRule
from dlldoctor.formats import scan_sentences as sentences
from dlldoctor.formats import scan_words as words
from dlldoctor.formats.error_words import defect
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


def _finding(finding: Finding, style: Style, lang: str = "en") -> list[str]:
    mark, colour = MARK[finding.severity]
    head = mark + " " + words.kind(finding.kind, lang)
    lines = [f"  {style(head, colour, 'bold')}  {' → '.join(finding.chain)}"]
    lines.append(f"      {sentences.finding_message(finding, lang)}")
    lines.append(
        style(f"      {words.label(lang, 'context')}: {words.context(finding.context, lang)}", "dim")
    )
    return lines


def _diagnoses(result: ScanResult[ProbedRule], style: Style, lang: str) -> list[str]:
    """The best confirmed rule of each cause in full; other rules of the same cause named under it."""
    lines = [style(words.label(lang, "diagnoses"), "bold")]
    by_category: dict[str, list[ProbedRule]] = {}
    for probed in result.diagnoses:
        by_category.setdefault(probed.rule.category, []).append(probed)
    for index, (category, group) in enumerate(by_category.items(), 1):
        rule = group[0].rule
        lines.append(f"  {index}. {style(rule.title.get(lang), 'bold')}  [{category} · {rule.id}]")
        because = words.label(lang, "because")
        lines.extend(f"     {because}: {sentences.evidence(line, lang)}" for line in group[0].evidence[:4])
        for step, fix in enumerate(rule.fixes, 1):
            lines.append(f"     {words.label(lang, 'fix')} {step}: {fix.text.get(lang)}")
            lines.extend(style(f"        {shell}> {command}", "cyan") for shell, command in fix.commands)
        lines.append(style(f"     {words.label(lang, 'docs')}: {rule_url(rule)}", "dim"))
        if len(group) > 1:
            others = ", ".join(p.rule.id for p in group[1:])
            lines.append(style(f"     {words.label(lang, 'also')}: {others}", "dim"))
    lines.append("")
    return lines


def verdict_line(result: ScanResult[ProbedRule], style: Style, lang: str = "en") -> str:
    """The first line: the target and what is wrong with it (or that nothing is), then the context."""
    env = result.environment
    errors = sum(f.severity == "error" for f in result.findings)
    warnings = sum(f.severity == "warning" for f in result.findings)
    zh = lang == "zh"
    colon, comma = ("：", "，") if zh else (": ", ", ")
    if env.python:
        python = words.label(lang, "python", version=f"{env.python[0]}.{env.python[1]}")
    else:
        python = words.label(lang, "python_unknown")
    if not result.files:
        return style(f"? {result.target}{colon}{words.label(lang, 'not_windows')}", "yellow", "bold")
    if errors:
        verdict = style(f"✗ {result.target}{colon}{words.label(lang, 'errors', n=errors)}", "red", "bold")
    else:
        verdict = style(f"✓ {result.target}{colon}{words.label(lang, 'healthy')}", "green", "bold")
    tail = comma + words.label(lang, "warnings", n=warnings) if warnings else ""
    where = words.label(lang, "context_line", python=python, machine=env.machine, files=len(result.files))
    return f"{verdict}{tail}  （{where}）" if zh else f"{verdict}{tail}  ({where})"


def render_one(
    result: ScanResult[ProbedRule],
    style: Style,
    verbose: bool = False,
    lang: str = "en",
    files: bool = False,
) -> str:
    lines = [verdict_line(result, style, lang)]
    quiet = not result.findings and not result.diagnoses and not files and not verbose
    if quiet:
        count = len(result.environment.assumptions)
        if result.files and count:
            lines.append(style("  " + words.label(lang, "assumptions_hidden", n=count), "dim"))
        return "\n".join(lines) + "\n"
    lines.append("")
    if result.diagnoses:
        lines.extend(_diagnoses(result, style, lang))
    shown = [f for f in result.findings if verbose or f.severity != "info"]
    hints = len(result.findings) - len(shown)
    if shown:
        lines.append(style(words.label(lang, "findings"), "bold"))
        for finding in shown:
            lines.extend(_finding(finding, style, lang))
        lines.append("")
    if hints:
        lines += [style(words.label(lang, "hints", n=hints), "dim"), ""]
    if files and result.files:
        lines.extend(_files(result, style, lang))
    elif result.files:
        lines += [style(words.label(lang, "files_checked", n=len(result.files)), "dim"), ""]
    lines.append(style(words.label(lang, "assumptions"), "bold"))
    lines.extend(f"  - {sentences.assumption(a, lang)}" for a in result.environment.assumptions)
    return "\n".join(lines) + "\n"


def _files(result: ScanResult[ProbedRule], style: Style, lang: str = "en") -> list[str]:
    lines = [style(words.label(lang, "files"), "bold")]
    width = max((len(f.entry.relpath) for f in result.files), default=0)
    for report in sorted(result.files, key=lambda f: f.entry.relpath):
        facts = report.facts
        if isinstance(facts, PEImage):
            role = words.role(report.role, lang)
            role += " " * (9 - len(role) - sum(ord(ch) > 0x2E80 for ch in role))  # wide characters: 2 columns
            linker = words.label(lang, "linker")
            detail = f"{role} {facts.machine:<6} {linker} {facts.linker:<6} {_size(report.entry.size):>9}"
            if facts.file_version:
                detail += f"  v{facts.file_version}"
        else:
            detail = style(f"{words.label(lang, 'corrupt')}: {defect(str(facts), lang)}", "red")
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
