"""A request's text or bundle → the answer ``dlldoctor explain`` gives for it, as a value and as JSON.

The text takes the command line's path: :func:`dlldoctor.text.paste.check_paste`, then
:func:`dlldoctor.diagnose.explain.explain_text`, which reads at most ``MAX_TEXT`` characters. A bundle is
checked against its schema by :func:`dlldoctor.diagnose.bundle.parse_bundle`, as ``explain --bundle`` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dlldoctor.bounded import json_document
from dlldoctor.diagnose.bundle import check_bundle, parse_bundle
from dlldoctor.diagnose.doctor import Conclusion, diagnose_bundle
from dlldoctor.diagnose.explain import Explanation, explain_text
from dlldoctor.errors import InputError
from dlldoctor.formats.doctor import diagnosis_dict
from dlldoctor.formats.doctor import render_json as bundle_json
from dlldoctor.formats.explain import document_json, explanation_dict
from dlldoctor.kb.ruleset import RuleSet
from dlldoctor.text.paste import check_paste

LANGS = ("en", "zh")


@dataclass(frozen=True)
class TextAnswer:
    explanation: Explanation
    document: dict[str, Any]  # what `dlldoctor explain --format json` writes


@dataclass(frozen=True)
class BundleAnswer:
    conclusion: Conclusion
    explanation: Explanation | None
    lang: str
    document: dict[str, Any]  # what `dlldoctor explain --bundle FILE --format json` writes


Answer = TextAnswer | BundleAnswer


def asked_language(value: object) -> str | None:
    """``--lang``: ``en``, ``zh`` or nothing (the language of the text)."""
    if value in (None, ""):
        return None
    if value not in LANGS:
        raise InputError(f"lang must be one of {', '.join(LANGS)}, not {str(value)[:20]!r}")
    return str(value)


def answer_text(text: str, rule_set: RuleSet, lang: str | None = None) -> TextAnswer:
    ex = explain_text(check_paste(text), rule_set, lang=lang)
    return TextAnswer(ex, explanation_dict(ex, rule_set.families))


def answer_bundle(bundle: object, rule_set: RuleSet, lang: str | None = None) -> BundleAnswer:
    """A bundle already parsed from JSON (checked here) or its bytes (parsed and checked here)."""
    if isinstance(bundle, bytes):
        bundle = parse_bundle(bundle)
    else:
        check_bundle(bundle)
    if not isinstance(bundle, dict):  # the schema's top level is an object: checked above
        raise InputError("not a dlldoctor bundle: not a JSON object")
    said = lang or "en"  # as `explain --bundle` without --lang
    conclusion, explanation = diagnose_bundle(bundle, rule_set, said)
    return BundleAnswer(conclusion, explanation, said, {**bundle, "diagnosis": diagnosis_dict(conclusion)})


def answer_json(data: bytes, rule_set: RuleSet) -> Answer:
    """A JSON request: ``{"text": …, "lang"?: …}``, ``{"bundle": {…}}``, or a bundle itself."""
    request = json_document(data, "the request")
    if not isinstance(request, dict):
        raise InputError('the request must be a JSON object: {"text": "…"} or {"bundle": {…}}')
    lang = asked_language(request.get("lang"))
    if request.get("kind") == "dlldoctor-bundle":
        return answer_bundle(data, rule_set, lang)
    if "bundle" in request:
        return answer_bundle(request["bundle"], rule_set, lang)
    text = request.get("text")
    if not isinstance(text, str):
        raise InputError('the request must be a JSON object: {"text": "…"} or {"bundle": {…}}')
    return answer_text(text, rule_set, lang)


def answer_document(answer: Answer) -> str:
    """The answer's JSON exactly as the command line writes it (sorted keys, the same indentation)."""
    if isinstance(answer, BundleAnswer):
        return bundle_json(answer.document)
    return document_json(answer.document)
