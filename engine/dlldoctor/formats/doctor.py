"""The words of ``doctor`` and of a re-read bundle: the verdict first, then what confirms it.

Text is for the console; markdown is for a GitHub issue: the verdict and the fix on top, every detail
folded in ``<details>``, and the whole under GitHub's 65,536-character limit (long lists are cut, with
a line that says how much was left out). JSON is the bundle itself (schema: bundle.schema.json).
"""

from __future__ import annotations

import json
from typing import Any

from dlldoctor.diagnose.doctor import Conclusion, LiveFailure
from dlldoctor.diagnose.explain import Explanation
from dlldoctor.formats import scan_sentences as sentences
from dlldoctor.formats.doctor_words import word
from dlldoctor.formats.style import Style
from dlldoctor.kb.ruleset import RuleSet

GITHUB_LIMIT = 65536
MARKDOWN_BUDGET = 60000  # characters of details; the rest of the page stays well under the limit
CODES = (126, 127, 193, 1114, 1455, 4551)


def verdict_line(conclusion: Conclusion, rule_set: RuleSet, lang: str = "en") -> str:
    """The first line: the cause and how sure it is."""
    modules = ", ".join(conclusion.failing)
    if conclusion.rule_id is None:
        if conclusion.failing:
            return word("no-rule", lang, modules=modules)
        return word("healthy", lang)
    rule = rule_set.get(conclusion.rule_id)
    title = rule.title.get(lang) if rule else conclusion.rule_id
    if conclusion.severity == "warning":
        return word("warning", lang, category=conclusion.category, title=title)
    if conclusion.confirmed:
        how = word("confirmed", lang)
    elif conclusion.source == "probe":
        how = word("from-probe", lang)
    elif conclusion.failing:
        how = word("from-text", lang)
    else:
        how = word("from-scan", lang)
    return word("verdict", lang, category=conclusion.category, title=title, how=how)


def live_line(live: LiveFailure, lang: str = "en") -> str:
    meaning = word(f"code-{live.code}" if live.code in CODES else "code-other", lang)
    line = word("live", lang, path=live.path, code=live.code, meaning=meaning)
    if live.missing_name:
        line += word("live-lacks", lang, dll=live.in_dll, name=live.missing_name)
    elif live.missing_dll:
        line += word("live-no-load", lang, dll=live.missing_dll)
    return line


def render_text(
    conclusion: Conclusion,
    explanation: Explanation | None,
    bundle: dict[str, Any],
    rule_set: RuleSet,
    *,
    colour: bool = False,
    lang: str = "en",
) -> str:
    style = Style(colour)
    colon = word("colon", lang)
    first = verdict_line(conclusion, rule_set, lang)
    lines = [style(first, "bold", {"✗": "red", "⚠": "yellow"}.get(first[:1], "green"))]
    for reproduced in bundle.get("reproduced") or []:
        if reproduced.get("ok") is False:
            lines.append(f"  {word('reproduced', lang)}{colon}{reproduced.get('text')}")
    if conclusion.live is not None:
        lines.append(f"  {word('live-probe', lang)}{colon}{live_line(conclusion.live, lang)}")
    evidence = word("evidence", lang)
    lines.extend(f"  {evidence}{colon}{sentences.evidence(e, lang)}" for e in conclusion.evidence[:8])
    lines.extend(_fixes(conclusion, rule_set, lang, f"  {word('fix', lang)}{colon}"))
    lines.append("")
    lines.append(style(word("machine", lang), "bold"))
    lines.extend(f"  {line}" for line in fact_lines(bundle.get("facts") or {}, lang))
    return "\n".join(lines)


def _fixes(conclusion: Conclusion, rule_set: RuleSet, lang: str, prefix: str) -> list[str]:
    rule = rule_set.get(conclusion.rule_id) if conclusion.rule_id else None
    if rule is None:
        return []
    out = []
    indent = " " * (len(prefix) + sum(ord(ch) > 0x2E80 for ch in prefix))  # wide characters: 2 columns
    for fix in rule.fixes[:3]:
        out.append(prefix + fix.text.get(lang))
        out.extend(f"{indent}{shell}> {command}" for shell, command in fix.commands[:2])
    return out


def fact_lines(facts: dict[str, Any], lang: str = "en") -> list[str]:
    interp = facts.get("interpreter") or {}
    windows = facts.get("windows") or {}
    redist = facts.get("vc_redist") or {}
    build = ".".join(str(windows.get(k)) for k in ("CurrentBuild", "UBR") if windows.get(k) is not None)
    long_paths = "enabled" if facts.get("long_paths_enabled") == 1 else "disabled"
    wdac = facts.get("wdac_policies", word("unknown", lang))
    lines = [
        word(
            "fact-python",
            lang,
            version=interp.get("version"),
            bits=interp.get("bits"),
            kind=interp.get("kind"),
            exe=interp.get("executable"),
        ),
        f"site-packages{word('colon', lang)}{interp.get('site_packages')}",
        word(
            "fact-windows",
            lang,
            product=windows.get("ProductName"),
            display=windows.get("DisplayVersion") or "",
            build=build or "?",
        ),
        word("fact-redist", lang, version=redist.get("version") or word("not-installed", lang)),
        word("fact-system32", lang, versions=_versions(facts.get("system_dlls") or {}, lang)),
        word("fact-driver", lang, driver=facts.get("nvidia_driver") or word("none-found", lang)),
        word(
            "fact-policies",
            lang,
            sac=_sac(facts.get("smart_app_control"), lang),
            wdac=wdac,
            long=word(long_paths, lang),
            cp=facts.get("console_code_page"),
        ),
        word("fact-path", lang, n=len(facts.get("path") or [])),
    ]
    env = facts.get("environment") or {}
    if env.get("CONDA_PREFIX"):
        lines.append(word("fact-conda", lang, name=env.get("CONDA_DEFAULT_ENV")))
    return lines


def _versions(versions: dict[str, Any], lang: str = "en") -> str:
    # the collector writes "present" for a DLL whose version resource it could not read
    listed = ", ".join(
        f"{name} {word('present', lang) if version == 'present' else version}"
        for name, version in sorted(versions.items())
    )
    return listed or word("none-read", lang)


def _sac(state: object, lang: str = "en") -> str:
    # VerifiedAndReputablePolicyState: 0 off, 1 on (enforced), 2 evaluation.
    key = {0: "sac-off", 1: "sac-on", 2: "sac-evaluation"}.get(state) if isinstance(state, int) else None
    return word(key or "unknown", lang)


def render_markdown(
    conclusion: Conclusion,
    explanation: Explanation | None,
    bundle: dict[str, Any],
    rule_set: RuleSet,
    lang: str = "en",
) -> str:
    parts = [f"### {verdict_line(conclusion, rule_set, lang)}", ""]
    if conclusion.live is not None:
        parts += [
            f"{word('live-probe-md', lang)}{word('colon', lang)}`{live_line(conclusion.live, lang)}`",
            "",
        ]
    rule = rule_set.get(conclusion.rule_id) if conclusion.rule_id else None
    for fix in rule.fixes[:3] if rule else ():
        parts.append(f"- {fix.text.get(lang)}")
        parts.extend(f"  - {shell}: `{command}`" for shell, command in fix.commands[:2])
    budget = MARKDOWN_BUDGET
    for title, body in _detail_blocks(bundle, conclusion, lang):
        block, budget = _cut(body, budget, lang)
        parts += ["", f"<details><summary>{title}</summary>", "", "```", block, "```", "", "</details>"]
    return "\n".join(parts)


def _detail_blocks(bundle: dict[str, Any], conclusion: Conclusion, lang: str = "en") -> list[tuple[str, str]]:
    none = word("none", lang)
    reproduced = "\n\n".join(
        f"import {r.get('module')}: {r.get('text') or word('ok', lang)}"
        for r in bundle.get("reproduced") or []
    )
    probes = "\n".join(
        f"{c.get('code')}\t{c.get('path')}" + (f"\t{c.get('missing_dll') or c.get('missing_name')}" if c.get("code") else "")
        for p in bundle.get("probes") or [] for c in p.get("calls") or []
    )  # fmt: skip
    scan = bundle.get("scan") or {}
    findings = "\n".join(
        sentences.say_finding(str(f.get("message")), lang) for f in scan.get("findings") or []
    )
    evidence = "\n".join(sentences.evidence(e, lang) for e in conclusion.evidence)
    return [
        (word("reproduced-imports", lang), reproduced or none),
        (word("evidence-md", lang), evidence or none),
        (word("machine", lang), "\n".join(fact_lines(bundle.get("facts") or {}, lang))),
        (word("probe-calls", lang), probes or word("no-probe", lang)),
        (word("scan-findings", lang), findings or none),
    ]


def _cut(body: str, budget: int, lang: str = "en") -> tuple[str, int]:
    body = body.replace("```", "'''")
    if len(body) <= budget:
        return body, budget - len(body)
    kept = body[: max(budget, 0)].rsplit("\n", 1)[0]
    return f"{kept}\n{word('left-out', lang, n=len(body) - len(kept))}", 0


def diagnosis_dict(conclusion: Conclusion) -> dict[str, Any]:
    """The bundle's ``diagnosis``: always worked out again from the rest, never taken from the file."""
    return {
        "rule_id": conclusion.rule_id,
        "category": conclusion.category,
        "source": conclusion.source,
        "confirmed": conclusion.confirmed,
    }


def render_json(bundle: dict[str, Any]) -> str:
    return json.dumps(bundle, indent=1, sort_keys=True, ensure_ascii=False)
