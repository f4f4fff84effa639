"""Every registry of a vocabulary agrees with the one type that defines it: the rule schema, the report and
explain schemas, the engine's dispatch tables and the docs. Adding a probe or matcher kind in one place
only fails here until every place knows it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from dlldoctor import vocabulary as v
from dlldoctor.diagnose.match import Evaluator
from dlldoctor.diagnose.probes import PROBES, PROBLEM_ANSWERS
from dlldoctor.formats.explain_words import _PROBE_WORDS
from dlldoctor.kb.model import DEFAULT_WEIGHTS, PREVALENCE_BONUS, Matcher
from dlldoctor.loader.findings import SEVERITY
from dlldoctor.resources import schema_path
from dlldoctor.scan.target import CONTEXT_PRIORITY
from dlldoctor.text.facts import ErrorFacts

ROOT = Path(__file__).resolve().parents[1]


def schema(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(schema_path(name).read_text(encoding="utf-8"))
    return data


def enum_at(doc: dict[str, Any], *path: str) -> list[Any]:
    node: Any = doc
    for key in path:
        node = node[key]
    return list(node["enum"])


def test_probe_kinds_agree_everywhere() -> None:
    rule = schema("rule")
    in_schema = [item["properties"]["probe"]["const"] for item in rule["$defs"]["probe"]["oneOf"]]
    documented = re.findall(
        r"^\| `([a-z-]+)`", (ROOT / "docs" / "probes.md").read_text(encoding="utf-8"), re.M
    )
    assert sorted(in_schema) == sorted(v.PROBE_KINDS)
    assert sorted(PROBES) == sorted(v.PROBE_KINDS)
    assert sorted(_PROBE_WORDS) == sorted(v.PROBE_KINDS)
    assert sorted(documented) == sorted(v.PROBE_KINDS)
    assert set(PROBLEM_ANSWERS) <= set(v.PROBE_KINDS)


def test_matcher_kinds_agree_everywhere() -> None:
    rule = schema("rule")
    in_schema = [item["title"] for item in rule["$defs"]["matcher"]["oneOf"]]
    explained = enum_at(
        schema("explain"),
        "properties", "diagnoses", "items", "properties", "matched", "items", "properties", "kind",
    )  # fmt: skip
    assert sorted(in_schema) == sorted(v.MATCHER_KINDS)
    assert sorted(DEFAULT_WEIGHTS) == sorted(v.MATCHER_KINDS)
    assert sorted(explained) == sorted(v.EVIDENCE_KINDS)


def test_the_evaluator_knows_every_matcher_kind() -> None:
    evaluator = Evaluator(ErrorFacts(), frozenset(), {})
    for kind in v.MATCHER_KINDS:
        matcher = Matcher(kind, 1.0, codes=(126,), names=("x",), pattern="x", spec=">=3.8")
        evaluator.evaluate(matcher)  # an unknown kind raises


def test_rule_contexts_name_real_load_operations() -> None:
    probe = next(
        item for item in schema("rule")["$defs"]["probe"]["oneOf"] if item["title"] == "dll-resolves"
    )
    assert sorted(probe["properties"]["context"]["oneOf"][0]["enum"]) == sorted(v.RULE_CONTEXTS)
    for operations in v.RULE_CONTEXTS.values():
        assert set(operations) <= set(v.LOAD_CONTEXTS)
    assert set(CONTEXT_PRIORITY) <= set(v.LOAD_CONTEXTS)


def test_rule_status_severity_and_prevalence() -> None:
    props = schema("rule")["properties"]
    assert props["status"]["enum"] == list(v.RULE_STATUSES)
    assert props["severity"]["enum"] == list(v.SEVERITIES)
    assert props["prevalence"]["enum"] == list(v.PREVALENCES)
    assert sorted(PREVALENCE_BONUS) == sorted(v.PREVALENCES)


def test_doctor_words_in_the_bundle_schema() -> None:
    bundle = schema("bundle")["properties"]
    assert bundle["diagnosis"]["properties"]["source"]["enum"] == list(v.CONCLUSION_SOURCES)
    severity = bundle["scan"]["properties"]["diagnoses"]["items"]["properties"]["severity"]
    assert severity["enum"] == list(v.SEVERITIES)


def test_findings_and_verdicts_in_the_report_schemas() -> None:
    report = schema("report")["$defs"]
    assert enum_at(report, "finding", "properties", "kind") == list(v.FINDING_KINDS)
    assert sorted(SEVERITY) == sorted(v.FINDING_KINDS)
    assert enum_at(report, "finding", "properties", "severity") == list(v.SEVERITIES)
    assert enum_at(report, "diagnosis", "properties", "verdict") == list(v.VERDICTS)
    explain = schema("explain")["properties"]
    assert enum_at(explain, "target_checks", "items", "properties", "verdict") == list(v.VERDICTS)
