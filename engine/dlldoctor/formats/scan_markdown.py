"""The scan report as Markdown, to paste into a GitHub issue (at most 65,536 characters).

The verdict of every target first (one table), then each diagnosed cause once with its evidence, fixes
and docs link (however many targets it applies to), then the findings, files and assumptions folded.
What does not fit the limit is cut from the folded parts, last first, and the cut is said.
"""

from __future__ import annotations

from dlldoctor.diagnose.verdicts import ProbedRule
from dlldoctor.formats import scan_sentences as sentences
from dlldoctor.formats import scan_words as words
from dlldoctor.formats.links import rule_url
from dlldoctor.pe.model import PEImage
from dlldoctor.scan.result import ScanResult

GITHUB_LIMIT = 65_536  # characters GitHub accepts in an issue or comment body
BUDGET = GITHUB_LIMIT - 1_536  # room for the text the user writes around the report
MAX_MESSAGE = 400


MD = {
    "en": {
        "summary": "| target | verdict | Python | process | PE files | warnings |",
        "causes": "Causes",
        "findings": "| target | severity | kind | chain | message |",
        "files_of": "Files of <code>{target}</code> ({n})",
        "title": "dlldoctor scan: {n} target(s), {verdict}",
        "left_out": "Left out to fit an issue: {names}; `dlldoctor scan --format json` has everything.",
    },
    "zh": {
        "summary": "| 目标 | 结论 | Python | 进程 | PE 文件 | 警告 |",
        "causes": "原因",
        "findings": "| 目标 | 严重程度 | 类型 | 加载链 | 说明 |",
        "files_of": "<code>{target}</code> 的文件（{n} 个）",
        "title": "dlldoctor scan：{n} 个目标，{verdict}",
        "left_out": "为适应 issue 的长度而省略：{names}；`dlldoctor scan --format json` 包含全部内容。",
    },
}


def _md(lang: str, key: str, **values: object) -> str:
    return MD["zh" if lang == "zh" else "en"][key].format(**values)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _short(text: str, limit: int = MAX_MESSAGE) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _verdict(result: ScanResult[ProbedRule], lang: str) -> str:
    if not result.files:
        return words.label(lang, "not_windows")
    errors = sum(f.severity == "error" for f in result.findings)
    return "✗ " + words.label(lang, "errors", n=errors) if errors else "✓ " + words.label(lang, "healthy")


def _summary(results: list[ScanResult[ProbedRule]], lang: str) -> list[str]:
    lines = [_md(lang, "summary"), "|---|---|---|---|---|---|"]
    for r in results:
        env = r.environment
        python = f"{env.python[0]}.{env.python[1]}" if env.python else words.label(lang, "unknown")
        warnings = sum(f.severity == "warning" for f in r.findings)
        lines.append(
            f"| `{_cell(r.target)}` | {_verdict(r, lang)} | {python} | {env.machine} | {len(r.files)} | {warnings} |"
        )
    return lines


def _causes(results: list[ScanResult[ProbedRule]], lang: str) -> list[str]:
    """Each cause (category) once: its best rule in full with the first target's evidence, the targets it
    was confirmed on, and the other rules that confirmed it named only."""
    seen: dict[str, tuple[ProbedRule, list[str], list[str]]] = {}
    for r in results:
        for probed in r.diagnoses:
            best, targets, others = seen.setdefault(probed.rule.category, (probed, [], []))
            if r.target not in targets:
                targets.append(r.target)
            if probed.rule.id != best.rule.id and probed.rule.id not in others:
                others.append(probed.rule.id)
    if not seen:
        return []
    lines = [f"#### {_md(lang, 'causes')}", ""]
    for n, (probed, targets, others) in enumerate(seen.values(), 1):
        rule = probed.rule
        names = ", ".join(f"`{_cell(t)}`" for t in targets[:6])
        names += words.label(lang, "and_more", n=len(targets) - 6) if len(targets) > 6 else ""
        sep = "，" if lang == "zh" else ", "
        lines.append(
            f"{n}. **{_cell(rule.title.get(lang))}** — [`{rule.id}`]({rule_url(rule)}) ({rule.category})"
            + sep
            + words.label(lang, "in_targets", names=names)
        )
        lines += [f"   - {_cell(_short(sentences.evidence(line, lang)))}" for line in probed.evidence[:4]]
        for step, fix in enumerate(rule.fixes, 1):
            lines.append(f"   - {words.label(lang, 'fix')} {step}: {_cell(fix.text.get(lang))}")
            lines += [
                f"     - {shell}: `{command}`" for shell, command in fix.commands if "\n" not in command
            ]
        if others:
            lines.append(f"   - {words.label(lang, 'also')}: {', '.join(f'`{o}`' for o in others)}")
    lines.append("")
    return lines


def _findings(results: list[ScanResult[ProbedRule]], lang: str) -> list[str]:
    rows = [(r.target, f) for r in results for f in r.findings]
    if not rows:
        return []
    lines = [
        f"<details><summary>{words.label(lang, 'findings')} ({len(rows)})</summary>",
        "",
        _md(lang, "findings"),
        "|---|---|---|---|---|",
    ]
    for target, f in rows:
        chain = " → ".join(f"`{c}`" for c in f.chain)
        message = _cell(_short(sentences.finding_message(f, lang)))
        lines.append(
            f"| `{_cell(target)}` | {words.severity(f.severity, lang)} | {words.kind(f.kind, lang)} | {chain} "
            f"| {message} |"
        )
    return [*lines, "", "</details>", ""]


def _files(result: ScanResult[ProbedRule], lang: str) -> list[str]:
    title = _md(lang, "files_of", target=_cell(result.target), n=len(result.files))
    lines = [
        f"<details><summary>{title}</summary>",
        "",
        words.label(lang, "files_head"),
        "|---|---|---|---|---|",
    ]
    for report in sorted(result.files, key=lambda r: r.entry.relpath):
        facts = report.facts
        if isinstance(facts, PEImage):
            lines.append(
                f"| `{_cell(report.entry.relpath)}` | {words.role(report.role, lang)} | {facts.machine} "
                f"| {facts.linker} | "
                f"{report.entry.size} |"
            )
        else:
            corrupt = words.label(lang, "corrupt")
            lines.append(f"| `{_cell(report.entry.relpath)}` | {corrupt} | | | {report.entry.size} |")
    return [*lines, "", "</details>", ""]


def _assumptions(results: list[ScanResult[ProbedRule]], lang: str) -> list[str]:
    counts: dict[str, int] = {}
    for r in results:
        for a in r.environment.assumptions:
            said = sentences.assumption(a, lang)
            counts[said] = counts.get(said, 0) + 1
    if not counts:
        return []
    lines = [f"<details><summary>{words.label(lang, 'assumptions')}</summary>", ""]
    total = len(results)
    for text, n in counts.items():
        of = words.label(lang, "of_targets", n=n, total=total) if total > 1 and n < total else ""
        lines.append(f"- {_cell(text)}{of}")
    return [*lines, "", "</details>", ""]


def render(results: list[ScanResult[ProbedRule]], lang: str = "en") -> str:
    errors = sum(len(r.errors) for r in results)
    verdict = words.label(lang, "errors", n=errors) if errors else words.label(lang, "healthy")
    head = [f"### {_md(lang, 'title', n=len(results), verdict=verdict)}", "", *_summary(results, lang), ""]
    head += _causes(results, lang)
    parts = [_findings(results, lang), _assumptions(results, lang), *(_files(r, lang) for r in results)]
    text = "\n".join(head)
    # Folded parts in order while they fit; a part that does not is named instead of shown.
    left_out: list[str] = []
    body: list[str] = []
    size = len(text)
    for part in parts:
        if not part:
            continue
        chunk = "\n".join(part)
        if size + len(chunk) + 200 > BUDGET:
            left_out.append(part[0].removeprefix("<details><summary>").removesuffix("</summary>"))
            continue
        body.append(chunk)
        size += len(chunk) + 1
    out = "\n".join([text, *body])
    if left_out:
        more = words.label(lang, "and_more", n=len(left_out) - 5) if len(left_out) > 5 else ""
        names = "; ".join(left_out[:5]) + more
        out += "\n_" + _md(lang, "left_out", names=_cell(names)) + "_\n"
    return out[:BUDGET]
