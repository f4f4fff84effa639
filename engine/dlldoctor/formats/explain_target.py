"""The target check of `dlldoctor explain --target`: each cause with its verdict on the install."""

from __future__ import annotations

import json
from typing import Any, get_args

from dlldoctor.diagnose.crosscheck import CheckedDiagnosis
from dlldoctor.diagnose.explain import Explanation
from dlldoctor.diagnose.verdicts import ProbedRule
from dlldoctor.formats import scan_sentences as sentences
from dlldoctor.formats.explain import explanation_dict
from dlldoctor.formats.style import Style
from dlldoctor.kb.families import Families
from dlldoctor.scan.result import ScanResult
from dlldoctor.vocabulary import ProbeKind

_WORDS = {
    "en": {
        "heading": "Checked on the install",
        "confirmed": "confirmed",
        "refuted": "refuted",
        "unknown": "cannot tell",
        "collect": "to decide",
        "extra": "found on the install, not suggested by the text",
    },
    "zh": {
        "heading": "在安装上核实",
        "confirmed": "已证实",
        "refuted": "已排除",
        "unknown": "无法判断",
        "collect": "需要",
        "extra": "在安装中发现，文本未提示",
    },
}
_COLOUR = {"confirmed": "red", "refuted": "green", "unknown": "yellow"}


_PROBE_KINDS = frozenset(get_args(ProbeKind))


def _evidence(line: str, lang: str) -> str:
    """A line of evidence; a refuting one starts with the probe's kind (``machine-matches: …``)."""
    kind, sep, rest = line.partition(": ")
    if sep and kind in _PROBE_KINDS:
        return kind + ("：" if lang == "zh" else ": ") + sentences.evidence(rest, lang)
    return sentences.evidence(line, lang)


def _title(ex: Explanation, check: CheckedDiagnosis) -> str:
    return check.diagnosis.rule.title.get(ex.lang) if check.diagnosis else check.rule_id


def render_text(ex: Explanation, checks: tuple[CheckedDiagnosis, ...], colour: bool = False) -> str:
    s, words = Style(colour), _WORDS[ex.lang]
    out = [s(words["heading"], "bold")]
    for check in checks:
        mark = s(f"[{words[check.verdict]}]", _COLOUR[check.verdict], "bold")
        extra = s(f"  ({words['extra']})", "dim") if check.diagnosis is None else ""
        colon = "：" if ex.lang == "zh" else ": "
        out.append(f"  {mark} {check.rule_id}{colon}{_title(ex, check)}{extra}")
        out += [f"      {_evidence(line, ex.lang)}" for line in check.evidence[:4]]
        out += [
            f"      {words['collect']}{colon}{sentences.collect(line, ex.lang)}" for line in check.to_collect
        ]
    return "\n".join(out)


def render_markdown(ex: Explanation, checks: tuple[CheckedDiagnosis, ...]) -> str:
    words = _WORDS[ex.lang]
    out = [f"### {words['heading']}", ""]
    for check in checks:
        colon = "：" if ex.lang == "zh" else ": "
        out.append(f"- **{words[check.verdict]}** `{check.rule_id}`{colon}{_title(ex, check)}")
        out += [f"  - {_evidence(line, ex.lang)}" for line in check.evidence[:4]]
        out += [
            f"  - {words['collect']}{colon}{sentences.collect(line, ex.lang)}" for line in check.to_collect
        ]
    return "\n".join(out)


def checks_list(checks: tuple[CheckedDiagnosis, ...]) -> list[dict[str, Any]]:
    return [
        {
            "rule": c.rule_id,
            "verdict": c.verdict,
            "from_text": c.diagnosis is not None,
            "evidence": list(c.evidence),
            "collect": list(c.to_collect),
        }
        for c in checks
    ]


def render_json(
    ex: Explanation,
    families: Families,
    results: list[ScanResult[ProbedRule]],
    checks: tuple[CheckedDiagnosis, ...],
) -> str:
    data = explanation_dict(ex, families)
    data["targets"] = [r.target for r in results]
    data["target_checks"] = checks_list(checks)
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True)
