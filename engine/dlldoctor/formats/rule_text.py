"""One rule in full, for `dlldoctor rules show` (text, markdown, json) and the catalog."""

from __future__ import annotations

from typing import Any

from dlldoctor.formats.style import Style
from dlldoctor.kb.model import Fix, Rule

SHELL_LABEL = {"cmd": "cmd", "powershell": "PowerShell", "bash": "bash", "conda": "conda", "pip": "pip"}


def rule_dict(rule: Rule) -> dict[str, Any]:
    def matcher(m: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": m.kind, "weight": m.weight}
        if m.codes:
            out["codes"] = list(m.codes)
        if m.names:
            out["names"] = list(m.names)
        if m.pattern:
            out["pattern"] = m.pattern
        if m.spec:
            out["version"] = m.spec
        if m.langs:
            out["lang"] = list(m.langs)
        return out

    return {
        "id": rule.id,
        "category": rule.category,
        "status": rule.status,
        "severity": rule.severity,
        "prevalence": rule.prevalence,
        "title": {"en": rule.title.en, "zh": rule.title.zh},
        "summary": {"en": rule.summary.en, "zh": rule.summary.zh},
        "keywords": list(rule.keywords),
        "match": {
            "all": [matcher(m) for m in rule.match.all],
            "any": [matcher(m) for m in rule.match.any],
            "none": [matcher(m) for m in rule.match.none],
            "min_any": rule.match.min_any,
        },
        "probes": [
            {
                "probe": p.kind,
                **{k: list(v) if isinstance(v, tuple) else v for k, v in p.args},
                "expect": p.expect,
            }
            for p in rule.probes
        ],
        "fixes": [fix_dict(f) for f in rule.fixes],
        "references": list(rule.references),
        "examples": {
            "match": list(rule.examples.match),
            "no_match": list(rule.examples.no_match),
            "todo_match": list(rule.examples.todo_match),
        },
        "path": rule.path,
        "replaced_by": rule.replaced_by,
    }


def fix_dict(fix: Fix) -> dict[str, Any]:
    out: dict[str, Any] = {"en": fix.text.en, "zh": fix.text.zh, "commands": dict(fix.commands)}
    if fix.url:
        out["url"] = fix.url
    return out


def rule_json(rule: Rule) -> str:
    import json

    return json.dumps({"version": 1, "rule": rule_dict(rule)}, ensure_ascii=False, indent=2, sort_keys=True)


def _match_lines(rule: Rule, lang: str = "en") -> list[str]:
    lines = []
    for group, items in (("all", rule.match.all), ("any", rule.match.any), ("none", rule.match.none)):
        for m in items:
            lines.append(f"{group:<4} {m.describe()}  " + word("weight", lang, w=f"{m.weight:g}"))
    if rule.match.min_any is not None:
        lines.append(f"min_any {rule.match.min_any:g}")
    return lines


def fix_lines(fix: Fix, lang: str, number: int) -> list[str]:
    lines = [f"{number}. {fix.text.get(lang)}"]
    if fix.url:
        lines.append(f"   {fix.url}")
    for shell, command in fix.commands:
        for i, line in enumerate(command.splitlines()):
            label = f"{SHELL_LABEL[shell]}>" if i == 0 else " " * (len(SHELL_LABEL[shell]) + 1)
            lines.append(f"   {label} {line}")
    return lines


# The words of `rules show` and `rules list` that are not the rule's own, in English and Chinese.
WORDS: dict[str, tuple[str, str]] = {
    "experimental": ("experimental", "实验性"),
    "stable": ("stable", "稳定"),
    "deprecated": ("deprecated", "已弃用"),
    "error": ("error", "错误"),
    "warning": ("warning", "警告"),
    "info": ("info", "提示"),
    "expect": ("expect", "预期"),
    "weight": ("(weight {w})", "（权重 {w}）"),
    "more_lines": ("  (+{n} lines)", "（另有 {n} 行）"),
    "file": ("file: {path}", "文件：{path}"),
    "count": ("{n} rules", "共 {n} 条规则"),
    "list_head": ("| rule | category | status | title |", "| 规则 | 类别 | 状态 | 标题 |"),
    "comma": (", ", "，"),
    "search_head": ("| rule | category | title |", "| 规则 | 类别 | 标题 |"),
    "no_match": ("No rule matches.", "没有匹配的规则。"),
    "no_match_query": ("No rule matches {query!r}.", "没有匹配的规则。"),
}


def word(key: str, lang: str, **values: object) -> str:
    en, zh = WORDS.get(key, (key, key))
    return (zh if lang == "zh" else en).format(**values)


def rule_text(rule: Rule, lang: str, *, colour: bool = False) -> str:
    s = Style(colour)
    comma = word("comma", lang)
    tags = comma.join([rule.category, word(rule.status, lang), word(rule.severity, lang)])
    out = [
        s(f"{rule.id}", "bold") + f"  [{tags}]",
        rule.title.get(lang),
        "",
    ]
    out += [rule.summary.get(lang), ""]
    out.append(s("Match" if lang == "en" else "匹配条件", "bold"))
    out += ["  " + line for line in _match_lines(rule, lang)]
    if rule.probes:
        out.append(s("Probes" if lang == "en" else "探查", "bold"))
        for p in rule.probes:
            args = ", ".join(f"{k}={'/'.join(v) if isinstance(v, tuple) else v}" for k, v in p.args)
            out.append(f"  {p.kind}({args}) {word('expect', lang)} {p.expect}")
    out.append(s("Fix" if lang == "en" else "修复", "bold"))
    for i, fix in enumerate(rule.fixes, 1):
        out += ["  " + line for line in fix_lines(fix, lang, i)]
    out.append(s("References" if lang == "en" else "参考", "bold"))
    out += [f"  {url}" for url in rule.references]
    out.append(s("Examples" if lang == "en" else "示例", "bold"))
    for kind, texts in (
        ("match", rule.examples.match),
        ("no_match", rule.examples.no_match),
        ("todo_match", rule.examples.todo_match),
    ):
        for text in texts:
            first, *rest = text.strip().splitlines() or [""]
            out.append(f"  {kind}: {first}" + (word("more_lines", lang, n=len(rest)) if rest else ""))
    out.append(s(word("file", lang, path=rule.path), "dim"))
    return "\n".join(out)


def rule_markdown(rule: Rule, lang: str) -> str:
    out = [f"## `{rule.id}` — {rule.title.get(lang)}", ""]
    out.append(f"**Category:** `{rule.category}` · **Status:** {rule.status} · **Severity:** {rule.severity}")
    out += ["", rule.summary.get(lang), "", "### Fix" if lang == "en" else "### 修复", ""]
    for i, fix in enumerate(rule.fixes, 1):
        out.append(f"{i}. {fix.text.get(lang)}" + (f" <{fix.url}>" if fix.url else ""))
        for shell, command in fix.commands:
            out += [
                "",
                f"   ```{'bat' if shell == 'cmd' else shell if shell in ('powershell', 'bash') else 'text'}",
                *[f"   {line}" for line in command.splitlines()],
                "   ```",
            ]
    out += ["", "### Match" if lang == "en" else "### 匹配条件", ""]
    out += [f"- `{line}`" for line in _match_lines(rule)]
    out += ["", "### References" if lang == "en" else "### 参考", ""]
    out += [f"- <{url}>" for url in rule.references]
    return "\n".join(out)
