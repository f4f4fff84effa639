"""The release gate for wheel builders: SARIF 2.1.0 (validated against the published schema), GitHub
workflow annotations, the composite Action's steps run as a script, and the gate on real torch wheels."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml
from clirun import run_dlldoctor

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "corpus" / "examples" / "site-packages"
SARIF_SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
TORCH_OLD_GATE = "torch==2.4.0"  # fbgemm.dll needs libomp140.x86_64.dll, which the wheel does not ship
ANNOTATION = re.compile(r"^::(error|warning|notice) file=([^,:]+),title=([^:]+)::(.+)$")


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_dlldoctor(*args, cwd=cwd)


def sarif_validator() -> jsonschema.Draft4Validator:
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    assert schema["title"].startswith("Static Analysis Results Format (SARIF) Version 2.1.0")
    return jsonschema.Draft4Validator(schema)


def test_sarif_of_a_broken_install_is_valid_sarif_2_1_0(tmp_path: Path) -> None:
    out = tmp_path / "report.sarif"
    done = run("scan", str(EXAMPLE), "--python", "3.11", "--format", "sarif", "-o", str(out))
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""  # -o: the report went to the file
    report = json.loads(out.read_text(encoding="utf-8"))
    sarif_validator().validate(report)
    run_ = report["runs"][0]
    assert report["version"] == "2.1.0"
    assert run_["tool"]["driver"]["name"] == "dlldoctor"
    results = run_["results"]
    missing = [r for r in results if r["ruleId"] == "missing-dll"]
    assert len(missing) == 1 and missing[0]["level"] == "error"
    assert "chain_c.dll" in missing[0]["message"]["text"]
    assert missing[0]["properties"]["chain"][-1] == "chain_c.dll"
    rules = run_["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == sorted(r["id"] for r in rules)
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert uri == str(EXAMPLE).replace("\\", "/")
    assert all(r["helpUri"].startswith("https://github.com/dlldoctor/dlldoctor/") for r in rules)


def test_the_schema_check_can_fail() -> None:
    broken = {"version": "2.1.0", "runs": [{"tool": {"driver": {}}, "results": []}]}  # driver needs a name
    with pytest.raises(jsonschema.ValidationError):
        sarif_validator().validate(broken)


def test_sarif_of_a_healthy_file_has_no_results(pe_bin: Path) -> None:
    done = run("scan", str(pe_bin / "x64" / "chain_c.dll"), "--python", "3.11", "--format", "sarif")
    assert done.returncode == 0
    report = json.loads(done.stdout)
    sarif_validator().validate(report)
    assert report["runs"][0]["results"] == []


def test_github_annotations_name_the_target_and_escape_new_lines() -> None:
    done = run("scan", str(EXAMPLE), "--python", "3.11", "--format", "github")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[-1] == "dlldoctor: 1 target(s) scanned: 1 error(s)"
    annotations = [ANNOTATION.match(line) for line in lines[:-1]]
    assert all(annotations), lines
    kinds = [(m.group(1), m.group(3)) for m in annotations if m]
    assert ("error", "dlldoctor missing-dll") in kinds
    for m in annotations:
        assert m and m.group(2) == str(EXAMPLE)
        assert "\n" not in m.group(4)
    missing = next(m for m in annotations if m and m.group(3) == "dlldoctor missing-dll")
    assert "%0Apymod.cp311-win_amd64.pyd → chain_a.dll → chain_b.dll → chain_c.dll" in missing.group(4)


def test_github_escaping() -> None:
    from dlldoctor.formats.scan_github import annotation

    line = annotation("warning", "dist\\a,b.whl", "t:x", "50% of\r\nit")
    assert line == "::warning file=dist/a%2Cb.whl,title=t%3Ax::50%25 of%0D%0Ait"


def test_a_target_that_is_not_windows_is_exit_2_in_every_format(tmp_path: Path) -> None:
    for fmt in ("text", "github", "sarif"):
        done = run("scan", str(tmp_path), "--format", fmt)
        assert done.returncode == 2, fmt
        assert "not a Windows target" in done.stderr
        assert "no problems found" not in done.stdout


def _action_steps() -> list[dict[str, object]]:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    steps: list[dict[str, object]] = action["runs"]["steps"]
    assert all(step["shell"] == "bash" for step in steps)
    return steps


def _expand(value: str, inputs: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name == "github.action_path":
            return str(ROOT)
        assert name.startswith("inputs."), name
        return inputs[name.removeprefix("inputs.")]

    return re.sub(r"\$\{\{\s*([\w.-]+)\s*\}\}", one, value)


def _run_action(tmp_path: Path, inputs: dict[str, str], cwd: Path) -> tuple[int, str, str]:
    """Every step of action.yml as GitHub runs a composite bash step (bash -eo pipefail), with a fresh
    environment whose `python` is a new virtual environment, so the install step really installs."""
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    defaults = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
    inputs = {**defaults, **inputs}
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    site = next((venv / "lib").glob("python*/site-packages"))
    # The dependencies (lief, pefile …) come from the test environment; dlldoctor is installed by the step.
    deps = [p for p in sys.path if p.endswith("site-packages")]
    (site / "test-deps.pth").write_text("\n".join(deps) + "\n", encoding="utf-8")
    output = tmp_path / "github-output"
    output.write_text("", encoding="utf-8")
    env = {
        "PATH": f"{bindir}{os.pathsep}{os.environ['PATH']}",
        "HOME": os.environ.get("HOME", str(tmp_path)),
        "GITHUB_OUTPUT": str(output),
        "DLLDOCTOR_CACHE_DIR": os.environ.get("DLLDOCTOR_CACHE_DIR", str(tmp_path / "cache")),
    }
    for key in ("PIP_FIND_LINKS", "PIP_CERT", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_CONFIG_FILE"):
        if key in os.environ:
            env[key] = os.environ[key]
    stdout = ""
    for step in _action_steps():
        step_env = {k: _expand(str(v), inputs) for k, v in dict(step.get("env") or {}).items()}  # type: ignore[call-overload]
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", str(step["run"])],
            env={**env, **step_env},
            cwd=cwd,
            capture_output=True,
            text=True,
            check=False,
        )
        stdout += done.stdout + done.stderr
        if done.returncode != 0:
            return done.returncode, stdout, output.read_text(encoding="utf-8")
    return 0, stdout, output.read_text(encoding="utf-8")


@pytest.mark.wheels
def test_the_action_installs_dlldoctor_and_gates_two_real_wheels(tmp_path: Path) -> None:
    import wheelcache

    dist = tmp_path / "dist"
    dist.mkdir()
    for spec in (wheelcache.MSVC_NEW, wheelcache.CUDA_RUNTIME):
        (dist / wheelcache.wheel(spec).name).symlink_to(wheelcache.wheel(spec))
    status, stdout, outputs = _run_action(
        tmp_path, {"wheels": "dist/*.whl", "python": "3.11", "sarif": "gate.sarif"}, cwd=tmp_path
    )
    assert status == 0, stdout
    assert "dlldoctor 0." in stdout  # the install step ran the installed command
    assert "dlldoctor: 2 target(s) scanned: no problems found" in stdout
    assert "exit-code=0" in outputs.splitlines()
    report = json.loads((tmp_path / "gate.sarif").read_text(encoding="utf-8"))
    sarif_validator().validate(report)
    assert len(report["runs"][0]["artifacts"]) == 2
    installed = subprocess.run(
        [str(tmp_path / "venv" / "bin" / "python"), "-c", "import dlldoctor; print(dlldoctor.__file__)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(tmp_path / "venv") in installed  # the step installed it; not the checkout's editable copy

    status, stdout, outputs = _run_action(tmp_path, {"wheels": "nothing/*.whl"}, cwd=tmp_path)
    assert status == 2 and "::error title=dlldoctor::no wheel matches nothing/*.whl" in stdout


@pytest.mark.wheels
def test_the_gate_flags_torch_2_4_and_passes_torch_2_13() -> None:
    import wheelcache

    old = wheelcache.wheel(TORCH_OLD_GATE)
    new = wheelcache.wheel(wheelcache.TORCH)

    flagged = run("scan", str(old), "-q", "--format", "github")
    assert flagged.returncode == 1, flagged.stderr
    errors = [ANNOTATION.match(line) for line in flagged.stdout.splitlines() if line.startswith("::error")]
    titles = {m.group(3) for m in errors if m}
    assert "dlldoctor fbgemm-126-libomp140-missing" in titles
    assert "dlldoctor missing-dll" in titles
    assert any("libomp140.x86_64.dll" in m.group(4) for m in errors if m)

    sarif = run("scan", str(old), "-q", "--format", "sarif")
    assert sarif.returncode == 1
    report = json.loads(sarif.stdout)
    sarif_validator().validate(report)
    rule_ids = {r["ruleId"] for r in report["runs"][0]["results"] if r["level"] == "error"}
    assert {"fbgemm-126-libomp140-missing", "missing-dll"} <= rule_ids

    passed = run("scan", str(new), "-q", "--format", "github")
    assert passed.returncode == 0, passed.stdout
    assert not [line for line in passed.stdout.splitlines() if line.startswith("::error")]
    assert passed.stdout.splitlines()[-1] == "dlldoctor: 1 target(s) scanned: no problems found"


def _recipe() -> dict[str, object]:
    import tomllib

    text = (ROOT / "docs" / "release-gate.md").read_text(encoding="utf-8")
    block = re.search(r"```toml\n(.*?)```", text, re.S)
    assert block
    windows: dict[str, object] = tomllib.loads(block.group(1))["tool"]["cibuildwheel"]["windows"]
    return windows


def test_the_cibuildwheel_recipe_scans_the_repaired_wheel(tmp_path: Path, pe_bin: Path) -> None:
    recipe = _recipe()
    assert "dlldoctor" in str(recipe["before-build"]).split()
    commands = recipe["repair-wheel-command"]
    assert isinstance(commands, list) and commands[0].startswith("delvewheel repair -w {dest_dir} {wheel}")
    scan = commands[-1]
    assert scan.startswith("dlldoctor scan ")
    # cibuildwheel fills in {dest_dir}; on Windows no shell expands the pattern, so dlldoctor does.
    dest = tmp_path / "repaired"
    dest.mkdir()
    import zipfile

    wheel = dest / "demo-1.0-cp311-cp311-win_amd64.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.write(pe_bin / "x64" / "chain_c.dll", "demo/chain_c.dll")
    words = scan.replace("{dest_dir}", str(dest)).split()
    done = run(*words[1:])
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(f"✓ {wheel}: no problems found")
    missing = run("scan", str(tmp_path / "nothing" / "*.whl"))
    assert missing.returncode == 2 and missing.stderr.endswith("*.whl: no file matches\n")
