"""The pieces that keep hostile input bounded, one by one (tests/test_hostile_inputs.py runs them whole)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dlldoctor.bounded import UnsafeFile, read_regular, read_text_input
from dlldoctor.kb.patterns import MAX_PROGRAM, pattern_error
from dlldoctor.kb.yamlsrc import MAX_MESSAGE, Problem, SourceError, read_source
from dlldoctor.resources import rules_root
from dlldoctor.text.facts import MAX_TEXT, extract_facts

posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs and /dev/zero")


def test_a_regular_file_under_its_cap_is_read_whole(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"x" * 10)
    assert read_regular(tmp_path / "f", 10) == b"x" * 10
    with pytest.raises(UnsafeFile, match="11 bytes, more than the 10"):
        (tmp_path / "f").write_bytes(b"x" * 11)
        read_regular(tmp_path / "f", 10)


@posix_only
def test_fifos_and_devices_are_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(UnsafeFile, match="a FIFO \\(named pipe\\), not a regular file"):
        read_regular(tmp_path / "fifo", 1 << 20)
    with pytest.raises(UnsafeFile, match="a device"):
        read_regular("/dev/zero", 1 << 20)
    with pytest.raises(UnsafeFile, match="a device"):
        read_text_input("/dev/zero", 1 << 20)


@posix_only
def test_a_symlink_leaving_its_root_is_refused(tmp_path: Path) -> None:
    (tmp_path / "outside").write_text("secret")
    (tmp_path / "root").mkdir()
    (tmp_path / "root" / "RECORD").symlink_to(tmp_path / "outside")
    (tmp_path / "root" / "inner").write_text("ok")
    (tmp_path / "root" / "link").symlink_to("inner")
    assert read_regular(tmp_path / "root" / "link", 100, root=tmp_path / "root") == b"ok"
    with pytest.raises(UnsafeFile, match="a symlink that leaves"):
        read_regular(tmp_path / "root" / "RECORD", 100, root=tmp_path / "root")


def test_text_input_says_when_it_was_longer_than_the_cap(tmp_path: Path) -> None:
    (tmp_path / "t").write_bytes(b"abcdef")
    assert read_text_input(tmp_path / "t", 4) == (b"abcd", True)
    assert read_text_input(tmp_path / "t", 6) == (b"abcdef", False)


def test_yaml_aliases_are_refused_with_their_line(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text("a: &x [1, 2]\nb: *x\n", encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        read_source(path)
    assert (caught.value.problem.line, caught.value.problem.message) == (
        1,
        "YAML anchors and aliases (&, *) are not allowed",
    )


def test_bad_utf8_is_a_problem_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_bytes(b"a: 1\nb: \xff\n")
    with pytest.raises(SourceError) as caught:
        read_source(path)
    assert (caught.value.problem.line, caught.value.problem.message) == (2, "not UTF-8 text (byte 8)")


def test_a_problem_message_is_one_short_line() -> None:
    problem = Problem("f.yaml", 3, "x" * 10_000 + "\nsecond line")
    assert problem.message == "x" * (MAX_MESSAGE - 1) + "…"
    assert str(Problem("f.yaml", 0, "short\nmore")) == "f.yaml: short"


def test_a_pattern_that_compiles_to_millions_of_instructions_is_refused() -> None:
    big = "(?i:0xc0e90001)(?:" + "|".join(f"[\\pL\\pN]{{{k},{k + 100}}}" for k in range(1, 60, 2)) + ")"
    error = pattern_error(big)
    assert error is not None and error.startswith(
        f"pattern compiles to more than {MAX_PROGRAM} RE2 instructions"
    )
    assert pattern_error("(?i:0xc0e90002)") is None


def test_a_paste_longer_than_the_cap_is_cut_and_says_so() -> None:
    from dlldoctor.kb.ruleset import load_rule_set

    rules = load_rule_set(rules_root(), use_cache=False)
    text = "OSError: [WinError 126] x\n" + "y" * MAX_TEXT
    facts = extract_facts(text, messages=rules.messages, families=rules.families)
    assert facts.cut == (MAX_TEXT, len(text))
    assert facts.as_dict()["cut"] == {"examined": MAX_TEXT, "given": len(text)}
    assert facts.error_code == 126
    short = extract_facts("OSError: [WinError 126] x", messages=rules.messages, families=rules.families)
    assert short.cut is None and "cut" not in short.as_dict()
