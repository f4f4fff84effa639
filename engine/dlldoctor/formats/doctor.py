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
from dlldoctor.formats.style import Style
from dlldoctor.kb.ruleset import RuleSet

GITHUB_LIMIT = 65536
MARKDOWN_BUDGET = 60000  # characters of details; the rest of the page stays well under the limit
MESSAGES = {
    126: "a DLL it needs is not found",
    127: "a DLL it needs lacks an imported name",
    193: "a file is for another machine type or is not a PE file",
    1114: "a DLL's initialisation failed",
    1455: "the paging file is too small",
    4551: "an Application Control policy blocked the file",
}


def verdict_line(conclusion: Conclusion, rule_set: RuleSet, lang: str = "en") -> str:
    """The first line: the cause and how sure it is."""
    modules = ", ".join(conclusion.failing)
    if conclusion.rule_id is None:
        if conclusion.failing:
            return f"✗ import {modules} fails, and no rule explains it: read the details below"
        return "✓ every import works and the scan finds nothing wrong"
    rule = rule_set.get(conclusion.rule_id)
    title = rule.title.get(lang) if rule else conclusion.rule_id
    if conclusion.severity == "warning":
        return f"⚠ {conclusion.category}: {title} — a warning: every import works; it fails only if used"
    if conclusion.confirmed:
        how = "confirmed on this machine"
    elif conclusion.source == "probe":
        how = "read from the link the live probe saw fail (no scan of the install)"
    elif conclusion.failing:
        how = "from the error text only (the install does not confirm it)"
    else:
        how = "found by the scan; the import itself works now"
    return f"✗ {conclusion.category}: {title} — {how}"


def live_line(live: LiveFailure) -> str:
    meaning = MESSAGES.get(live.code, "the load failed")
    line = f"LoadLibraryExW({live.path}) failed with {live.code}: {meaning}"
    if live.missing_name:
        line += f" — {live.in_dll} lacks {live.missing_name}"
    elif live.missing_dll:
        line += f" — {live.missing_dll} does not load"
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
    first = verdict_line(conclusion, rule_set, lang)
    lines = [style(first, "bold", {"✗": "red", "⚠": "yellow"}.get(first[:1], "green"))]
    for reproduced in bundle.get("reproduced") or []:
        if reproduced.get("ok") is False:
            lines.append(f"  reproduced: {reproduced.get('text')}")
    if conclusion.live is not None:
        lines.append(f"  live probe: {live_line(conclusion.live)}")
    lines.extend(f"  evidence: {e}" for e in conclusion.evidence[:8])
    lines.extend(_fixes(conclusion, rule_set, lang, "  fix: "))
    lines.append("")
    lines.append(style("The machine", "bold"))
    lines.extend(f"  {line}" for line in fact_lines(bundle.get("facts") or {}))
    return "\n".join(lines)


def _fixes(conclusion: Conclusion, rule_set: RuleSet, lang: str, prefix: str) -> list[str]:
    rule = rule_set.get(conclusion.rule_id) if conclusion.rule_id else None
    if rule is None:
        return []
    out = []
    for fix in rule.fixes[:3]:
        out.append(prefix + fix.text.get(lang))
        out.extend(f"{' ' * len(prefix)}{shell}> {command}" for shell, command in fix.commands[:2])
    return out


def fact_lines(facts: dict[str, Any]) -> list[str]:
    interp = facts.get("interpreter") or {}
    windows = facts.get("windows") or {}
    redist = facts.get("vc_redist") or {}
    build = ".".join(str(windows.get(k)) for k in ("CurrentBuild", "UBR") if windows.get(k) is not None)
    lines = [
        f"Python {interp.get('version')} ({interp.get('bits')}-bit, {interp.get('kind')}): {interp.get('executable')}",
        f"site-packages: {interp.get('site_packages')}",
        f"Windows: {windows.get('ProductName')} {windows.get('DisplayVersion') or ''} build {build or '?'}",
        f"VC++ Redistributable (x64): {redist.get('version') or 'not installed'}",
        f"System32 DLLs: {_versions(facts.get('system_dlls') or {})}",
        f"NVIDIA driver: {facts.get('nvidia_driver') or 'none found'}",
        f"Smart App Control: {_sac(facts.get('smart_app_control'))}; App Control (WDAC) policies in force: "
        f"{facts.get('wdac_policies', 'unknown')}; long paths: "
        f"{'enabled' if facts.get('long_paths_enabled') == 1 else 'disabled'}; "
        f"console code page: {facts.get('console_code_page')}",
        f"PATH: {len(facts.get('path') or [])} folder(s)",
    ]
    env = facts.get("environment") or {}
    if env.get("CONDA_PREFIX"):
        lines.append(f"conda: activated ({env.get('CONDA_DEFAULT_ENV')})")
    return lines


def _versions(versions: dict[str, Any]) -> str:
    return ", ".join(f"{name} {version}" for name, version in sorted(versions.items())) or "none read"


def _sac(state: object) -> str:
    # VerifiedAndReputablePolicyState: 0 off, 1 on (enforced), 2 evaluation.
    return {0: "off", 1: "on", 2: "evaluation"}.get(state, "unknown") if isinstance(state, int) else "unknown"


def render_markdown(
    conclusion: Conclusion,
    explanation: Explanation | None,
    bundle: dict[str, Any],
    rule_set: RuleSet,
    lang: str = "en",
) -> str:
    parts = [f"### {verdict_line(conclusion, rule_set, lang)}", ""]
    if conclusion.live is not None:
        parts += [f"Live probe: `{live_line(conclusion.live)}`", ""]
    rule = rule_set.get(conclusion.rule_id) if conclusion.rule_id else None
    for fix in rule.fixes[:3] if rule else ():
        parts.append(f"- {fix.text.get(lang)}")
        parts.extend(f"  - {shell}: `{command}`" for shell, command in fix.commands[:2])
    budget = MARKDOWN_BUDGET
    for title, body in _detail_blocks(bundle, conclusion):
        block, budget = _cut(body, budget)
        parts += ["", f"<details><summary>{title}</summary>", "", "```", block, "```", "", "</details>"]
    return "\n".join(parts)


def _detail_blocks(bundle: dict[str, Any], conclusion: Conclusion) -> list[tuple[str, str]]:
    reproduced = "\n\n".join(
        f"import {r.get('module')}: {r.get('text') or 'ok'}" for r in bundle.get("reproduced") or []
    )
    probes = "\n".join(
        f"{c.get('code')}\t{c.get('path')}" + (f"\t{c.get('missing_dll') or c.get('missing_name')}" if c.get("code") else "")
        for p in bundle.get("probes") or [] for c in p.get("calls") or []
    )  # fmt: skip
    scan = bundle.get("scan") or {}
    findings = "\n".join(str(f.get("message")) for f in scan.get("findings") or [])
    return [
        ("Reproduced imports", reproduced or "none"),
        ("Evidence", "\n".join(conclusion.evidence) or "none"),
        ("The machine", "\n".join(fact_lines(bundle.get("facts") or {}))),
        ("Live probe (code, file, what failed)", probes or "no probe: every import worked"),
        ("Static scan findings", findings or "none"),
    ]


def _cut(body: str, budget: int) -> tuple[str, int]:
    body = body.replace("```", "'''")
    if len(body) <= budget:
        return body, budget - len(body)
    kept = body[: max(budget, 0)].rsplit("\n", 1)[0]
    return f"{kept}\n… {len(body) - len(kept)} more characters left out", 0


def render_json(bundle: dict[str, Any]) -> str:
    return json.dumps(bundle, indent=1, sort_keys=True, ensure_ascii=False)
