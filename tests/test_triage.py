"""`dlldoctor triage --event FILE`: GitHub event payloads built from real corpus texts get a comment whose
first cause is explain's; issues without a loader error get nothing; a bad payload is one line, exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from dlldoctor.cli import main
from dlldoctor.diagnose.accuracy import Case, load_cases
from dlldoctor.diagnose.explain import explain_text
from dlldoctor.diagnose.triage import MARKER
from dlldoctor.kb.ruleset import RuleSet
from dlldoctor.resources import schema_path
from dlldoctor.text.issue import Segment, segments

ROOT = Path(__file__).resolve().parents[1]
CASES = load_cases(ROOT / "corpus" / "errors")
HEALTHY = [c for c in CASES if c.category is None]
STYLES = ("code", "quote", "plain", "comment")


def body(text: str, style: str) -> str:
    """An issue as people write them: the error in a code block, in a quote, or as plain lines."""
    if style in ("code", "comment"):
        return f"<!-- Describe the bug -->\nIt fails when I start it:\n\n```text\n{text}```\n\nAny idea?"
    if style == "quote":
        return "Same here:\n\n" + "".join(f"> {line}\n" for line in text.splitlines()) + "\nThanks"
    return f"It fails when I start it:\n\n{text}\nAny idea?"


def event(tmp_path: Path, text: str, style: str = "code") -> Path:
    issue = {"number": 15, "title": "It does not start", "body": body(text, style)}
    payload: dict[str, object] = {"action": "opened", "issue": issue}
    if style == "comment":
        issue["body"] = "please add dark mode"
        payload = {"action": "created", "issue": issue, "comment": {"body": body(text, "code")}}
    path = tmp_path / "event.json"
    path.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    return path


def triage(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    status = main(["triage", *args])
    return status, capsys.readouterr().out


def real_cases() -> list[Case]:
    """The first real report (one with a source) of each category."""
    first: dict[str, Case] = {}
    for case in CASES:
        if case.category and case.category not in first and case.id in SOURCED:
            first[case.category] = case
    return [first[k] for k in sorted(first)]


def _sourced() -> set[str]:
    import yaml

    ids = set()
    for path in sorted((ROOT / "corpus" / "errors").glob("*.yaml")):
        for item in yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]:
            if item.get("source"):
                ids.add(item["id"])
    return ids


SOURCED = _sourced()


def _triage_schema() -> jsonschema.Draft202012Validator:
    """schemas/triage.schema.json, its ``$ref`` to the explanation's schema resolved from the package."""
    from referencing import Registry, Resource

    schemas = {
        name: json.loads(schema_path(name).read_text(encoding="utf-8")) for name in ("explain", "triage")
    }
    registry = Registry().with_resources(
        (f"{name}.schema.json", Resource.from_contents(schema)) for name, schema in schemas.items()
    )
    return jsonschema.Draft202012Validator(schemas["triage"], registry=registry)


TRIAGE_SCHEMA = _triage_schema()


@pytest.mark.parametrize("n", range(len(real_cases())), ids=[c.category or "" for c in real_cases()])
def test_a_real_report_gets_a_comment_whose_first_cause_is_explains(
    n: int, tmp_path: Path, rule_set: RuleSet, capsys: pytest.CaptureFixture[str]
) -> None:
    case = real_cases()[n]
    style = STYLES[n % len(STYLES)]
    explained = explain_text(case.text, rule_set)
    top, lang = explained.diagnoses[0], explained.lang
    status, comment = triage(
        capsys, "--event", str(event(tmp_path, case.text, style)), "--min-confidence", "0"
    )
    assert status == 0
    lines = comment.splitlines()
    assert lines[0] == MARKER
    assert lines[3].startswith(f"1. **{top.rule.title.get(lang)}** — [`{top.rule.id}`](")
    status, out = triage(capsys, "--event", str(event(tmp_path, case.text, style)), "--format", "json")
    document = json.loads(out)
    TRIAGE_SCHEMA.validate(document)
    first = document["explanation"]["diagnoses"][0]
    assert first["rule"] == top.rule.id
    # the event's text (its title and body) is what was explained: its own confidence decides
    assert document["post"] is (first["confidence"] >= 0.5)
    assert (document["comment"] is None) is (first["confidence"] < 0.5)
    assert document["event"] == {"kind": "issue_comment" if style == "comment" else "issues", "number": 15}


def test_every_category_with_a_real_report_is_covered() -> None:
    assert len(real_cases()) == len({c.category for c in CASES if c.category}) == 22


def test_the_chinese_fbgemm_report_is_answered_in_chinese(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = next(c.text for c in CASES if c.id == "openmp-missing-011")
    status, comment = triage(capsys, "--event", str(event(tmp_path, text, "quote")))
    assert status == 0
    assert (
        comment.splitlines()[1] == "**dlldoctor** 读了这个问题中的 DLL 加载错误。可能的原因（按可能性排序）："
    )
    assert "   - 修复 1: 安装 2.4.0 以外的 torch 版本（之后的 wheel 不再依赖缺失的 libomp140）。" in comment
    assert comment.rstrip().endswith("`dlldoctor explain` 可以分析任何粘贴的报错。</sub>")
    from zhcheck import english_words

    assert english_words(comment, frozenset({"Instant"})) == []  # Oracle Instant Client, a product's name


@pytest.mark.parametrize("style", ["code", "plain", "comment"])
def test_issues_without_a_loader_error_get_nothing(
    style: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for case in HEALTHY:  # real errors that are not a DLL failing to load
        status, out = triage(capsys, "--event", str(event(tmp_path, case.text, style)))
        assert (case.id, status, out) == (case.id, 0, "")
    assert len(HEALTHY) >= 38


def test_a_feature_request_and_an_empty_body_get_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "e.json"
    for issue in (
        {"number": 1, "title": "Add dark mode", "body": "It would be nice."},
        {"number": 2, "body": None},
    ):
        path.write_text(json.dumps({"action": "opened", "issue": issue}), encoding="utf-8")
        assert triage(capsys, "--event", str(path)) == (0, "")
        document = json.loads(triage(capsys, "--event", str(path), "--format", "json")[1])
        TRIAGE_SCHEMA.validate(document)
        assert document["post"] is False and document["comment"] is None and document["explanation"] is None


def test_the_threshold_and_its_own_comment(
    tmp_path: Path, rule_set: RuleSet, capsys: pytest.CaptureFixture[str]
) -> None:
    text = next(c.text for c in CASES if c.id == "openmp-missing-011")
    confidence = explain_text(text, rule_set).diagnoses[0].confidence
    assert 0.5 < confidence < 1.0
    assert triage(capsys, "--event", str(event(tmp_path, text)), "--min-confidence", "1") == (0, "")
    status, comment = triage(
        capsys, "--event", str(event(tmp_path, text)), "--min-confidence", str(confidence)
    )
    assert status == 0 and comment.startswith(MARKER)
    own = tmp_path / "own.json"
    own.write_text(json.dumps({"issue": {"number": 3}, "comment": {"body": comment}}), encoding="utf-8")
    assert triage(capsys, "--event", str(own)) == (0, "")  # never answers its own comment


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read the event: No such file or directory"),
        (b"{", "not an event: invalid JSON (Expecting property name enclosed in double quotes"),
        (b"\xff\xfe", "not an event: not UTF-8 text (byte 0)"),
        (b"[1, 2]", 'not a GitHub issues or issue_comment event (no "issue" object)'),
        (b'{"pull_request": {}}', 'not a GitHub issues or issue_comment event (no "issue" object)'),
    ],
)
def test_a_bad_payload_is_one_line_exit_2(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "event.json"
    if content is not None:
        path.write_bytes(content)
    done = subprocess.run(
        [sys.executable, "-m", "dlldoctor", "triage", "--event", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"dlldoctor: error: {path}: {message}") and done.stderr.count("\n") == 1


def test_min_confidence_must_be_between_0_and_1(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dlldoctor", "triage", "--event", "x", "--min-confidence", "2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == "dlldoctor triage: error: argument --min-confidence: 2 is not between 0 and 1\n"


def test_segments_of_an_issue_body() -> None:
    found = segments(
        "### Bug\n<!-- template\nhint -->\nIt fails:\n\n````python\nimport torch\n```\nstill code\n````\n"
        "> OSError: [WinError 126] x\n> > nested\n>\n> more\nafter\n\n~~~\ntilde\n~~~\nend"
    )
    assert found == [
        Segment("plain", "### Bug\n"),
        Segment("plain", "It fails:\n"),
        Segment("code", "import torch\n```\nstill code\n"),
        Segment("quote", "OSError: [WinError 126] x\nnested\n\nmore\n"),
        Segment("plain", "after\n"),
        Segment("code", "tilde\n"),
        Segment("plain", "end\n"),
    ]
