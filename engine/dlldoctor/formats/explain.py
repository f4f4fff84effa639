"""`dlldoctor explain` output: text for people, JSON (versioned, schemas/explain.schema.json), Markdown."""

from __future__ import annotations

import unicodedata
from typing import Any

from dlldoctor.diagnose.explain import Diagnosis, Explanation, leading_per_category
from dlldoctor.formats.explain_words import code_label, decide_steps, release_words, why
from dlldoctor.formats.links import rule_url
from dlldoctor.formats.rule_text import SHELL_LABEL, fix_dict, fix_lines
from dlldoctor.formats.style import Style
from dlldoctor.kb.families import Families

JSON_VERSION = 1
SHOWN_IN_FULL = 3
LISTED = 8

_LABELS = {
    "en": {
        "facts": "Facts found",
        "code": "error code",
        "dll": "DLL",
        "symbol": "entry point",
        "module": "importing",
        "python": "Python",
        "env": "environment",
        "location": "DLL folder",
        "packages": "packages",
        "releases": "broken release",
        "cuda": "versions in DLL names",
        "language": "text language",
        "cut": "text examined",
        "cut_value": "the first {examined:,} of {given:,} characters (the rest was not read)",
        "diagnoses": "Likely causes, best first",
        "none": "No rule recognises this text as a DLL load failure.",
        "guessed": "No error was recognised in this text; it names a DLL, and these are the causes that most often explain reports like it.",
        "nothing": "Nothing in this text looks like a Windows DLL load failure.",
        "why": "why",
        "fix": "fix",
        "confidence": "confidence",
        "also": "Also possible",
        "decide": "What would decide",
        "rule": "rule",
        "docs": "docs",
        "pasted": "The error text",
        "paste": "Paste the error, then an empty line (or Ctrl-D; on Windows Ctrl-Z then Enter):",
        "pasted_cut": " (first {shown:,} of {given:,} characters)",
        "and": "; ",
        "comma": ", ",
    },
    "zh": {
        "facts": "从文本中读到的信息",
        "code": "错误代码",
        "dll": "DLL",
        "symbol": "入口点",
        "module": "正在导入",
        "python": "Python",
        "env": "环境",
        "location": "DLL 位置",
        "packages": "软件包",
        "releases": "有问题的版本",
        "cuda": "DLL 名中的版本",
        "language": "文本语言",
        "cut": "已读取的文本",
        "cut_value": "仅读取了 {given:,} 个字符中的前 {examined:,} 个（其余部分未读取）",
        "diagnoses": "可能的原因（按可能性排序）",
        "none": "没有规则把这段文本识别为 DLL 加载失败。",
        "guessed": "这段文本中没有识别到报错；它提到了 DLL，下面是最常解释此类报告的原因。",
        "nothing": "这段文本看起来不像 Windows DLL 加载失败。",
        "why": "依据",
        "fix": "修复",
        "confidence": "置信度",
        "also": "其他可能",
        "decide": "如何确定",
        "rule": "规则",
        "docs": "文档",
        "pasted": "错误文本",
        "paste": "请粘贴报错信息，然后输入一个空行（或按 Ctrl-D；在 Windows 上按 Ctrl-Z 再按回车键）：",
        "pasted_cut": "（{given:,} 个字符中的前 {shown:,} 个）",
        "and": "；",
        "comma": "，",
    },
}


def label(lang: str | None, key: str) -> str:
    """One of the answer's labels (``why``, ``fix``, ``docs``, ``nothing``, …) in ``lang``."""
    return _LABELS["zh" if lang == "zh" else "en"][key]


def paste_prompt(lang: str | None) -> str:
    return label(lang, "paste")


def split_shown(ex: Explanation) -> tuple[list[Diagnosis], list[Diagnosis]]:
    """The best rule of each of the first SHOWN_IN_FULL causes (shown in full), and the others (listed)."""
    full = leading_per_category(ex.diagnoses)[:SHOWN_IN_FULL]
    rest = [d for d in ex.diagnoses if d not in full][: LISTED - len(full)]
    return full, rest


def display_width(text: str) -> int:
    """Terminal columns: East Asian wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _fact_rows(ex: Explanation) -> list[tuple[str, str]]:
    f, label = ex.facts, _LABELS[ex.lang]
    rows: list[tuple[str, str]] = []
    if f.error_code is not None:
        rows.append((label["code"], code_label(f.error_code)))
    if f.dll:
        rows.append((label["dll"], f.dll + (f"  ({f.dll_path})" if f.dll_path else "")))
    if f.symbol:
        rows.append((label["symbol"], f.symbol))
    if f.module:
        rows.append((label["module"], f.module))
    if f.python_version:
        rows.append((label["python"], f.python_version))
    if f.env_type:
        rows.append((label["env"], f.env_type))
    if f.location:
        rows.append((label["location"], f.location))
    if f.packages:
        shown = [f"{n} {v}".strip() for n, v in f.packages if v] or [n for n, _ in f.packages]
        rows.append((label["packages"], ", ".join(shown[:8]) + (" …" if len(shown) > 8 else "")))
    if f.releases:
        rows.append((label["releases"], release_words(f, ex.lang)))
    if f.versions:
        rows.append((label["cuda"], ", ".join(f"{d} → {c} {v}" for d, c, v in f.versions[:6])))
    if f.found_anything or f.language != "en":
        rows.append((label["language"], f.language))
    if f.cut is not None:
        rows.append((label["cut"], label["cut_value"].format(examined=f.cut[0], given=f.cut[1])))
    return rows


def render_text(ex: Explanation, families: Families, *, colour: bool = False) -> str:
    """The best cause on the first line, then the others, then the facts read from the text."""
    s = Style(colour)
    label = _LABELS[ex.lang]
    rows = _fact_rows(ex)
    if not rows and not ex.diagnoses:
        return label["nothing"]
    out: list[str] = []
    if not ex.diagnoses:
        out += [label["none"], ""]
    elif ex.guessed:
        out += [label["guessed"], ""]
    full, rest = split_shown(ex)
    for n, d in enumerate(full, 1):
        colour_name = "red" if d.rule.severity == "error" else "yellow"
        out.append(
            f"{n}. "
            + s(d.rule.title.get(ex.lang), "bold", colour_name)
            + s(
                f"  [{d.rule.category}] {label['rule']} {d.rule.id}{label['comma']}"
                f"{label['confidence']} {d.confidence:.0%}",
                "dim",
            )
        )
        out.append("   " + d.rule.summary.get(ex.lang))
        out.append(f"   {label['why']}: " + label["and"].join(why(e, ex.lang, families) for e in d.evidence))
        out.append(f"   {label['fix']}:")
        for i, fix in enumerate(d.rule.fixes, 1):
            out += ["     " + line for line in fix_lines(fix, ex.lang, i)]
        out.append(s(f"   {label['docs']}: {rule_url(d.rule)}", "dim"))
        out.append("")
    if rest:
        out.append(s(label["also"], "bold"))
        out += [
            f"  - {d.rule.id} [{d.rule.category}] {d.confidence:.0%}: {d.rule.title.get(ex.lang)}"
            for d in rest
        ]
        out.append("")
    if rows:
        out.append(s(label["facts"], "bold"))
        width = max(display_width(k) for k, _ in rows)
        out += [f"  {k}{' ' * (width - display_width(k))}  {v}" for k, v in rows]
        out.append("")
    decide = decide_steps(ex, families)
    if decide:
        out.append(s(label["decide"], "bold"))
        out += [f"  {line}" for line in decide]
    return "\n".join(out).rstrip()


def explanation_dict(ex: Explanation, families: Families) -> dict[str, Any]:
    return {
        "version": JSON_VERSION,
        "language": ex.lang,
        "guessed": ex.guessed,
        "facts": ex.facts.as_dict(),
        "diagnoses": [
            {
                "rule": d.rule.id,
                "category": d.rule.category,
                "severity": d.rule.severity,
                "confidence": d.confidence,
                "score": d.score,
                "title": d.rule.title.get(ex.lang),
                "summary": d.rule.summary.get(ex.lang),
                "why": [why(e, ex.lang, families) for e in d.evidence],
                "matched": [
                    {"kind": e.kind, "value": e.value, "weight": e.weight, "detail": e.detail}
                    for e in d.evidence
                ],
                "fixes": [
                    {
                        "text": fix.text.get(ex.lang),
                        **{k: v for k, v in fix_dict(fix).items() if k in ("commands", "url")},
                    }
                    for fix in d.rule.fixes
                ],
                "references": list(d.rule.references),
                "docs": rule_url(d.rule),
            }
            for d in ex.diagnoses
        ],
        "decide": list(decide_steps(ex, families)),
    }


def render_json(ex: Explanation, families: Families) -> str:
    return document_json(explanation_dict(ex, families))


def document_json(document: dict[str, Any]) -> str:
    """An explanation's JSON as every reader writes it: sorted keys, two-space indentation."""
    import json

    return json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True)


def _fence(text: str) -> str:
    """A code fence longer than any run of backticks in the text."""
    longest = max((len(run) for run in text.split("\n") for run in _backtick_runs(run)), default=0)
    return "`" * max(3, longest + 1)


def _backtick_runs(line: str) -> list[str]:
    import re

    return re.findall(r"`+", line)


MAX_PASTED = 20_000  # characters of the pasted text quoted in Markdown (GitHub takes 65,536 in all)


def pasted_block(text: str, lang: str) -> list[str]:
    """The pasted error text, folded, so that the issue shows what was explained."""
    label = _LABELS[lang]
    shown = text.strip()
    cut = len(shown) > MAX_PASTED
    if cut:
        shown = shown[:MAX_PASTED]
    fence = _fence(shown)
    more = label["pasted_cut"].format(shown=MAX_PASTED, given=len(text.strip())) if cut else ""
    return [
        f"<details><summary>{label['pasted']}{more}</summary>",
        "",
        f"{fence}text",
        shown,
        fence,
        "",
        "</details>",
    ]


def cause_markdown(n: int, d: Diagnosis, lang: str, families: Families) -> list[str]:
    """One cause as a numbered Markdown item: its title and rule, why, and each fix with its commands."""
    label = _LABELS[lang]
    out = [
        f"{n}. **{d.rule.title.get(lang)}** — [`{d.rule.id}`]({rule_url(d.rule)}) ({d.rule.category}, "
        f"{label['confidence']} {d.confidence:.0%})",
        f"   - {label['why']}: " + label["and"].join(why(e, lang, families) for e in d.evidence),
    ]
    for i, fix in enumerate(d.rule.fixes, 1):
        out.append(f"   - {label['fix']} {i}: {fix.text.get(lang)}" + (f" <{fix.url}>" if fix.url else ""))
        for shell, command in fix.commands:
            out.append(
                f"     - {SHELL_LABEL[shell]}: `{command}`"
                if "\n" not in command
                else f"     - {SHELL_LABEL[shell]}:\n\n       ```\n       {command}\n       ```"
            )
    return out


def render_markdown(ex: Explanation, families: Families, text: str | None = None) -> str:
    """Causes first, the facts after them, then the pasted text folded (when given)."""
    label = _LABELS[ex.lang]
    rows = _fact_rows(ex)
    if not rows and not ex.diagnoses:
        return "\n".join([label["nothing"], "", *(pasted_block(text, ex.lang) if text else [])])
    facts = [f"### {label['facts']}", ""] + [f"- **{k}:** `{v}`" for k, v in rows] + [""]
    tail = facts + (pasted_block(text, ex.lang) if text else [])
    if not ex.diagnoses:
        return "\n".join([label["none"], "", *tail])
    out = [f"### {label['diagnoses']}", ""]
    full, rest = split_shown(ex)
    for n, d in enumerate(full, 1):
        out += cause_markdown(n, d, ex.lang, families)
    if rest:
        out += ["", f"**{label['also']}:** " + ", ".join(f"`{d.rule.id}` ({d.confidence:.0%})" for d in rest)]
    decide = decide_steps(ex, families)
    if decide:
        out += ["", f"### {label['decide']}", ""] + [f"- {line}" for line in decide]
    out += ["", *tail]
    return "\n".join(out).rstrip() + "\n"
