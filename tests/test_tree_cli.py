"""`dlldoctor tree`: exit codes, where a missing DLL was looked for, --depth, JSON, one file's tables."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jsonschema
import pytest
from clirun import run_dlldoctor

from dlldoctor.resources import schema_path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "corpus" / "examples" / "site-packages"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_dlldoctor(*args)


def test_tree_names_where_a_missing_dll_was_looked_for() -> None:
    done = run("tree", str(EXAMPLE), "--module", "pymod", "--python", "3.11")
    assert done.returncode == 1
    line = next(line for line in done.stdout.splitlines() if "chain_c.dll" in line)
    assert line.endswith(
        "chain_c.dll  [not found]  looked in: site-packages\\chain_c.dll; <python.exe folder>\\chain_c.dll; "
        "System32\\chain_c.dll"
    )


def test_depth_cuts_the_tree_and_says_a_failure_may_be_below() -> None:
    done = run("tree", str(EXAMPLE), "--module", "pymod", "--python", "3.11", "--depth", "1")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[1].startswith("├── chain_a.dll  [same folder]")
    assert lines[2] == "│   └── … 2 more below (deeper than --depth 1)"
    assert "chain_c.dll" not in done.stdout
    assert lines[-1].startswith("✗ a DLL does not load (missing)")
    assert run("tree", str(EXAMPLE), "--depth", "0").returncode == 2


def test_json_tree_is_nested_and_versioned() -> None:
    done = run("tree", str(EXAMPLE), "--module", "pymod", "--python", "3.11", "--format", "json")
    assert done.returncode == 1
    data = json.loads(done.stdout)
    assert data["version"] == 1
    (tree,) = data["trees"]
    assert (
        tree["file"] == "pymod.cp311-win_amd64.pyd"
        and tree["loads"] is False
        and tree["failure"] == "missing"
    )
    a = next(c for c in tree["tree"]["children"] if c["name"] == "chain_a.dll")
    c = a["children"][0]["children"][0]
    assert c["name"] == "chain_c.dll" and c["status"] == "missing"
    assert c["considered"][-1] == "System32\\chain_c.dll"
    cut = json.loads(run("tree", str(EXAMPLE), "--format", "json", "--depth", "1").stdout)
    assert cut["trees"][0]["tree"]["children"][0]["truncated"] == 2
    validator = jsonschema.Draft202012Validator(json.loads(schema_path("tree").read_text(encoding="utf-8")))
    validator.validate(data)
    validator.validate(cut)
    c["status"] = "lost"
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(data)


def test_tree_schema_statuses_are_the_vocabulary() -> None:
    from dlldoctor import vocabulary

    schema = json.loads(schema_path("tree").read_text(encoding="utf-8"))
    assert schema["$defs"]["node"]["properties"]["status"]["enum"] == list(vocabulary.RESOLUTION_STATUSES)
    contexts = schema["properties"]["trees"]["items"]["properties"]["context"]["enum"]
    assert contexts == list(vocabulary.LOAD_CONTEXTS)


def test_imports_and_exports_of_one_file() -> None:
    done = run("tree", str(EXAMPLE), "--file", "chain_b.dll", "--imports", "--exports", "--format", "json")
    assert done.returncode == 0
    data = json.loads(done.stdout)
    assert data["imports"] == [{"dll": "chain_c.dll", "names": ["c_func"], "ordinals": [], "delayed": False}]
    assert data["exports"] == ["b_func"]
    text = run("tree", str(EXAMPLE), "--file", "chain_b.dll", "--exports").stdout
    assert text.splitlines() == ["chain_b.dll  [x64]", "exports 1 name(s), 1 ordinal(s):", "  b_func"]


@pytest.mark.wheels
def test_tree_module_with_a_dll_not_found_exits_1_even_when_another_module_reported_it() -> None:
    import wheelcache

    wheel = wheelcache.wheel("torch==2.4.0")
    done = run("tree", str(wheel), "--module", "torch._C")
    assert done.returncode == 1
    assert "libomp140.x86_64.dll  [not found]  looked in: " in done.stdout


def test_not_a_windows_target(tmp_path: Path) -> None:
    done = run("tree", str(tmp_path))
    assert done.returncode == 2 and "not a Windows target" in done.stderr
