"""The conventions users know from other tools: --format json and -o on every command, colour that
follows --color / NO_COLOR / FORCE_COLOR, exit codes, --select/--ignore/--extra-rules, quiet when healthy."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dlldoctor.cli import _leaves, build_parser

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "corpus" / "examples" / "site-packages"
PAGING = (
    "OSError: [WinError 1455] The paging file is too small for this operation to complete. Error loading "
    '"C:\\venv\\Lib\\site-packages\\torch\\lib\\cudnn_cnn_infer64_8.dll" or one of its dependencies.'
)


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return subprocess.run(
        [sys.executable, "-m", "dlldoctor", *args],
        capture_output=True,
        text=True,
        env={**clean, **(env or {})},
        check=False,
    )


def _leaf_parsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {leaf.prog: leaf for command in sub.choices.values() for leaf in _leaves(command)}


def test_every_command_has_json_output_and_color() -> None:
    leaves = _leaf_parsers()
    assert "dlldoctor tree" in leaves and "dlldoctor rules lint" in leaves
    for prog, leaf in leaves.items():
        options = {o: a for a in leaf._actions for o in a.option_strings}
        assert "json" in (options["--format"].choices or ()), prog
        assert "-o" in options and "--output" in options, prog
        assert list(options["--color"].choices or ()) == ["auto", "always", "never"], prog


def test_output_file_and_a_one_line_error_when_it_cannot_be_written(tmp_path: Path) -> None:
    out = tmp_path / "answer.json"
    done = run("explain", PAGING, "--format", "json", "-o", str(out))
    assert done.returncode == 1 and done.stdout == ""
    assert json.loads(out.read_text(encoding="utf-8"))["diagnoses"][0]["category"] == "paging-file"
    bad = run("explain", PAGING, "-o", str(tmp_path / "no" / "such" / "dir" / "x.txt"))
    assert bad.returncode == 2
    assert bad.stderr.startswith("dlldoctor: error: cannot write ") and bad.stderr.count("\n") == 1


def test_colour_follows_color_no_color_and_force_color() -> None:
    plain = run("explain", PAGING)  # a pipe: no colour
    assert "\x1b[" not in plain.stdout
    forced = run("explain", PAGING, env={"FORCE_COLOR": "1"})
    assert "\x1b[1;31m" in forced.stdout  # the top cause, bold red, through rich
    assert "\x1b[" not in run("explain", PAGING, env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    assert "\x1b[" in run("explain", PAGING, "--color", "always", env={"NO_COLOR": "1"}).stdout
    assert "\x1b[" not in run("explain", PAGING, "--color", "never", env={"FORCE_COLOR": "1"}).stdout
    assert run("explain", PAGING, "--color", "sometimes").returncode == 2


def test_colour_goes_through_rich_only_when_on(tmp_path: Path) -> None:
    code = (
        "import sys; from dlldoctor.cli import main; status = main(sys.argv[1:]); "
        "print('RICH' if 'rich' in sys.modules else 'NO-RICH', file=sys.stderr)"
    )
    off = subprocess.run(
        [sys.executable, "-c", code, "explain", PAGING], capture_output=True, text=True, check=False
    )
    assert off.stderr.strip().endswith("NO-RICH")
    on = subprocess.run(
        [sys.executable, "-c", code, "explain", "--color", "always", PAGING],
        capture_output=True,
        text=True,
        check=False,
    )
    assert on.stderr.strip().endswith("RICH")


def test_select_and_ignore_by_rule_or_category() -> None:
    every = json.loads(run("explain", PAGING, "--format", "json").stdout)["diagnoses"]
    assert {d["category"] for d in every} >= {"paging-file"}
    selected = json.loads(run("explain", PAGING, "--format", "json", "--select", "paging-file").stdout)
    assert selected["diagnoses"] and {d["category"] for d in selected["diagnoses"]} == {"paging-file"}
    ignored = run(
        "explain", PAGING, "--format", "json", "--ignore", "paging-file,winerror-1455-dataloader-workers"
    )
    assert "paging-file" not in {d["category"] for d in json.loads(ignored.stdout)["diagnoses"]}
    unknown = run("explain", PAGING, "--select", "no-such-rule")
    assert unknown.returncode == 2
    assert unknown.stderr == (
        "dlldoctor: error: --select/--ignore: no rule or category 'no-such-rule' (see `dlldoctor rules list`)\n"
    )


def test_scan_ignore_takes_a_cause_out_of_the_report(pe_bin: Path) -> None:
    both = json.loads(run("scan", str(pe_bin / "corrupt"), "--format", "json").stdout)
    assert {d["category"] for d in both["diagnoses"]} == {"corrupt-file"}
    assert all(d["docs"].endswith(f"/docs/rules/corrupt-file.md#{d['rule']}") for d in both["diagnoses"])
    without = json.loads(
        run("scan", str(pe_bin / "corrupt"), "--format", "json", "--ignore", "corrupt-file").stdout
    )
    assert without["diagnoses"] == []
    assert run("scan", str(pe_bin / "corrupt"), "--select", "nonsense").returncode == 2


def test_extra_rules_add_to_the_built_in_set(tmp_path: Path) -> None:
    extra = tmp_path / "my-rules" / "paging-file"
    extra.mkdir(parents=True)
    source = (ROOT / "rules" / "paging-file" / "winerror-1455-paging-file.yaml").read_text(encoding="utf-8")
    mine = source.replace("id: winerror-1455-paging-file", "id: my-paging-rule", 1)
    (extra / "my-paging-rule.yaml").write_text(mine, encoding="utf-8")
    done = run("explain", PAGING, "--format", "json", "--extra-rules", str(tmp_path / "my-rules"))
    assert done.returncode == 1, done.stderr
    rules = {d["rule"] for d in json.loads(done.stdout)["diagnoses"]}
    assert {"my-paging-rule", "winerror-1455-paging-file"} <= rules  # on top of the built-ins
    # The same id as a built-in rule, or a broken file: one clear error, exit 2.
    shutil.copy(ROOT / "rules" / "paging-file" / "winerror-1455-paging-file.yaml", extra)
    clash = run("explain", PAGING, "--extra-rules", str(tmp_path / "my-rules"))
    assert clash.returncode == 2 and "already in the rule set" in clash.stderr
    assert "Traceback" not in clash.stderr


def test_exit_codes_are_documented() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for row in (
        "| 0 | healthy: nothing wrong found |",
        "| 1 | problems found",
        "| 2 | bad usage, unreadable input, not a Windows target, an invalid rule set |",
    ):
        assert row in readme


@pytest.mark.wheels
def test_a_healthy_real_wheel_is_one_verdict_line_and_files_on_request() -> None:
    from sweep import fetch, wheels

    scipy = next(w for w in wheels() if w.name == "scipy")
    path = fetch(scipy)
    done = run("scan", str(path), "-q")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"✓ {path}: no problems found  (Python 3.11, x64 process, 110 PE file(s))")
    assert len(lines) <= 2
    listed = run("scan", str(path), "-q", "--files").stdout.splitlines()
    assert "Files" in listed and len(listed) > 110
