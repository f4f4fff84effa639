"""The rule contributor's loop: `rules new` only in a checkout, `rules lint` refuses unfinished skeletons,
the pre-commit hook's entry point on changed rule files, and JSON from every `rules` action."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from clirun import run_dlldoctor

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_dlldoctor(*args, cwd=cwd)


@pytest.fixture
def rules_copy(tmp_path: Path) -> Path:
    return Path(shutil.copytree(ROOT / "rules", tmp_path / "checkout" / "rules"))


def test_new_refuses_an_installed_rule_set(tmp_path: Path) -> None:
    installed = Path(
        shutil.copytree(
            ROOT / "rules", tmp_path / "lib" / "python3.11" / "site-packages" / "dlldoctor" / "rules"
        )
    )
    done = run("rules", "new", "my-rule", "--category", "paging-file", "--rules", str(installed))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1  # one line, no traceback
    assert (
        "inside an installed package" in done.stderr
        and "git clone https://github.com/dlldoctor/dlldoctor" in done.stderr
    )
    assert not list(installed.glob("*/my-rule.yaml"))


def test_installed_copy_is_recognised() -> None:
    from dlldoctor.kb.scaffold import installed_copy

    assert installed_copy(Path("/venv/lib/python3.11/site-packages/dlldoctor/rules"))
    assert installed_copy(Path("/usr/lib/python3/dist-packages/dlldoctor/rules"))
    assert not installed_copy(ROOT / "rules")


def _hook_command() -> list[str]:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = hooks
    assert hook["id"] == "dlldoctor-rules" and hook["pass_filenames"] is True
    words = shlex.split(hook["entry"])
    assert words[0] == "dlldoctor"
    return [sys.executable, "-m", "dlldoctor", *words[1:]]


def _hook_files(paths: list[str]) -> list[str]:
    import re

    hook = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))[0]
    return [p for p in paths if re.search(hook["files"], p)]


def test_the_pre_commit_hook_passes_a_good_change_and_fails_a_broken_one(rules_copy: Path) -> None:
    checkout = rules_copy.parent
    rule = "rules/paging-file/" + next((rules_copy / "paging-file").glob("*.yaml")).name
    changed = _hook_files([rule, "README.md"])
    assert changed == [rule]
    good = subprocess.run(
        [*_hook_command(), *changed], cwd=checkout, capture_output=True, text=True, check=False
    )
    assert good.returncode == 0, good.stdout + good.stderr
    assert good.stdout.startswith("✓ ")

    path = checkout / rule
    data = path.read_text(encoding="utf-8")
    # An example the rule should fire on that it cannot: the rule's own tests fail.
    broken = data.replace("examples:\n  match:\n", "examples:\n  match:\n    - just some unrelated text\n", 1)
    assert broken != data
    path.write_text(broken, encoding="utf-8")
    bad = subprocess.run(
        [*_hook_command(), *changed], cwd=checkout, capture_output=True, text=True, check=False
    )
    assert bad.returncode == 1
    assert bad.stdout.startswith("✗ ") and "FAIL " in bad.stdout

    path.write_text(data.replace("status:", "status: nonsense\nstatus_was:", 1), encoding="utf-8")
    linted = subprocess.run(
        [*_hook_command(), *changed, "--format", "json"],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=False,
    )
    assert linted.returncode == 1
    report = json.loads(linted.stdout)
    assert report["ok"] is False and report["rule_sets"][0]["problems"]


def test_hook_with_no_rule_file_is_a_pass(tmp_path: Path) -> None:
    done = subprocess.run(
        [*_hook_command(), "README.md"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and "no rule file" in done.stdout


@pytest.mark.parametrize(
    ("args", "key"),
    [
        (["rules", "lint"], "problems"),
        (["rules", "test", "winerror-1455-paging-file"], "results"),
        (["rules", "catalog", "--check", "--out", str(ROOT / "docs" / "rules")], "stale"),
        (["rules", "accuracy", "--corpus", str(ROOT / "corpus" / "errors")], "overall"),
    ],
)
def test_rules_actions_answer_in_json(args: list[str], key: str) -> None:
    done = run(*args, "--format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads(done.stdout)
    assert data["version"] == 1 and key in data


def test_rules_new_in_json(rules_copy: Path) -> None:
    done = run(
        "rules", "new", "my-rule", "--category", "paging-file", "--rules", str(rules_copy), "--format", "json"
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data == {
        "version": 1,
        "rule": "my-rule",
        "category": "paging-file",
        "path": str(rules_copy / "paging-file" / "my-rule.yaml"),
    }
    lint = run("rules", "lint", "--rules", str(rules_copy), "--format", "json")
    assert lint.returncode == 1
    problems = json.loads(lint.stdout)["problems"]
    assert problems and all("my-rule.yaml" in p["path"] for p in problems)
    assert any("unfinished skeleton" in p["message"] for p in problems)
