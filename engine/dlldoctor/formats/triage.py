"""The comment ``dlldoctor triage`` posts on an issue (Markdown), and its JSON for other bots.

The causes are said as ``explain --format markdown`` says them (:func:`formats.explain.cause_markdown`);
the comment starts with :data:`~dlldoctor.diagnose.triage.MARKER`, so that triage never answers itself.
"""

from __future__ import annotations

from typing import Any

from dlldoctor.diagnose.triage import MARKER, Triage
from dlldoctor.formats.explain import cause_markdown, document_json, explanation_dict, split_shown
from dlldoctor.formats.sentences import pick
from dlldoctor.kb.families import Families

JSON_VERSION = 1

WORDS: dict[str, tuple[str, str]] = {
    "lead": (
        "**dlldoctor** read the DLL load error in this {where}. The likely causes, best first:",
        "**dlldoctor** 读了这个{where}中的 DLL 加载错误。可能的原因（按可能性排序）：",
    ),
    "issue": ("issue", "问题"),
    "issue_comment": ("comment", "评论"),
    "foot": (
        "<sub>From the error text alone (confidence {confidence}, threshold {threshold}). On the machine "
        "where the import fails, `pip install dlldoctor` then `dlldoctor doctor` checks the cause there; "
        "`dlldoctor explain` answers any pasted error.</sub>",
        "<sub>仅依据错误文本（置信度 {confidence}，阈值 {threshold}）。在导入失败的那台机器上运行 "
        "`pip install dlldoctor`，再运行 `dlldoctor doctor`，即可在那里核实原因；"
        "`dlldoctor explain` 可以分析任何粘贴的报错。</sub>",
    ),
}


def render_markdown(result: Triage, families: Families) -> str:
    """The comment, or an empty string when there is nothing worth posting."""
    ex = result.explanation
    if ex is None or not result.answer:
        return ""
    lang = ex.lang
    where = pick(WORDS, "issue_comment" if result.event.kind == "issue_comment" else "issue", lang)
    out = [MARKER, pick(WORDS, "lead", lang, where=where), ""]
    full, _ = split_shown(ex)
    for n, d in enumerate(full, 1):
        out += cause_markdown(n, d, lang, families)
    confidence, threshold = f"{result.confidence:.0%}", f"{result.min_confidence:.0%}"
    out += ["", pick(WORDS, "foot", lang, confidence=confidence, threshold=threshold)]
    return "\n".join(out) + "\n"


def triage_dict(result: Triage, families: Families) -> dict[str, Any]:
    comment = render_markdown(result, families)
    ex = result.explanation
    return {
        "version": JSON_VERSION,
        "post": result.answer,
        "confidence": result.confidence,
        "min_confidence": result.min_confidence,
        "event": {"kind": result.event.kind, "number": result.event.number},
        "comment": comment or None,
        "explanation": explanation_dict(ex, families) if ex is not None else None,
    }


def render_json(result: Triage, families: Families) -> str:
    return document_json(triage_dict(result, families))
