"""`dlldoctor scan` and `tree` as a user runs them: exit codes, formats, bad inputs."""

from __future__ import annotations

import json
import os
import subprocess
import zipfile
from pathlib import Path

import jsonschema
import pytest
from clirun import run_dlldoctor

from dlldoctor.cli import main
from dlldoctor.resources import schema_path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "corpus" / "examples" / "site-packages"


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_dlldoctor(*args, env=env)


def test_example_exit_1_and_names_the_chain() -> None:
    done = run("scan", str(EXAMPLE), "--python", "3.11")
    assert done.returncode == 1
    assert "pymod.cp311-win_amd64.pyd → chain_a.dll → chain_b.dll → chain_c.dll" in done.stdout
    assert "\x1b[" not in done.stdout  # not a terminal: no colour
    assert done.stderr == ""


def test_healthy_target_exits_0(pe_bin: Path) -> None:
    assert main(["scan", str(pe_bin / "x64" / "chain_c.dll"), "--python", "3.11"]) == 0


def test_json_report_is_valid_and_deterministic(pe_bin: Path) -> None:
    first = run("scan", str(pe_bin / "x64"), str(pe_bin / "corrupt"), "--python", "3.11", "--format", "json")
    second = run("scan", str(pe_bin / "x64"), str(pe_bin / "corrupt"), "--python", "3.11", "--format", "json")
    assert first.returncode == 1
    assert first.stdout == second.stdout
    report = json.loads(first.stdout)
    schema = json.loads(schema_path("report").read_text())
    jsonschema.Draft202012Validator(schema).validate(report)
    assert report["version"] == 1
    corrupt = [d for d in report["diagnoses"] if d["target"].endswith("corrupt")]
    assert corrupt and {d["category"] for d in corrupt} == {"corrupt-file"}
    assert all(d["verdict"] == "confirmed" and d["evidence"] for d in report["diagnoses"])
    kinds = sorted({f["kind"] for f in report["findings"]})
    assert kinds == ["corrupt-file", "delay-load-missing", "missing-dll", "missing-symbol"]
    assert len(report["files"]) == 15 + 7


def test_schema_rejects_a_report_that_breaks_the_contract(pe_bin: Path) -> None:
    report = json.loads(run("scan", str(EXAMPLE), "--format", "json").stdout)
    report["findings"][0]["kind"] = "something-else"
    schema = json.loads(schema_path("report").read_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(report)


def test_markdown_report() -> None:
    done = run("scan", str(EXAMPLE), "--python", "3.11", "--format", "markdown")
    assert done.returncode == 1
    assert done.stdout.startswith("### dlldoctor scan:")
    assert (
        "| error | missing-dll | `pymod.cp311-win_amd64.pyd` → `chain_a.dll` → `chain_b.dll` → `chain_c.dll` |"
        in done.stdout
    )


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda p: p / "nope", "no such file or folder"),
        (lambda p: _write(p / "broken.whl", b"PK\x03\x04 not really a zip"), "not a readable wheel"),
    ],
)
def test_unreadable_target_is_one_line_and_exit_2(tmp_path: Path, make, expected: str) -> None:
    target = make(tmp_path)
    done = run("scan", str(target))
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert expected in done.stderr
    assert "Traceback" not in done.stderr


def test_usage_errors_exit_2() -> None:
    assert run("scan").returncode == 2
    done = run("scan", str(EXAMPLE), "--python", "three")
    assert done.returncode == 2
    assert "--python three" in done.stderr
    done = run("scan", str(EXAMPLE), "--path", "/does/not/exist")
    assert done.returncode == 2 and "--path folder does not exist" in done.stderr


def test_garbage_file_is_a_finding(tmp_path: Path) -> None:
    garbage = _write(tmp_path / "x.pyd", os.urandom(5000))
    done = run("scan", str(garbage), "--format", "json")
    assert done.returncode == 1
    (finding,) = json.loads(done.stdout)["findings"]
    assert finding["kind"] == "corrupt-file"


def test_wheel_with_a_corrupt_member_is_a_finding(tmp_path: Path, pe_bin: Path) -> None:
    wheel = tmp_path / "demo-1.0-cp311-cp311-win_amd64.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(pe_bin / "x64" / "chain_c.dll", "demo/chain_c.dll")
        archive.write(pe_bin / "corrupt" / "truncated_body.dll", "demo/broken.dll")
    done = run("scan", str(wheel), "--format", "json")
    report = json.loads(done.stdout)
    assert done.returncode == 1
    assert [(f["kind"], f["file"]) for f in report["findings"]] == [
        ("corrupt-file", f"{wheel.name}!demo/broken.dll")
    ]
    assert report["environment"]["python"] == "3.11"


def test_targets_are_never_modified(tmp_path: Path, pe_bin: Path) -> None:
    import shutil

    folder = shutil.copytree(EXAMPLE, tmp_path / "sp")
    before = {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in folder.iterdir()}
    run("scan", str(folder), "--format", "json")
    run("tree", str(folder), "--module", "pymod")
    assert {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in folder.iterdir()} == before


def test_colour_only_when_asked_and_no_color_wins() -> None:
    from dlldoctor.cli.common import use_colour

    class Tty:
        def isatty(self) -> bool:
            return True

    os.environ.pop("NO_COLOR", None)
    assert use_colour(Tty()) is True  # type: ignore[arg-type]
    os.environ["NO_COLOR"] = "1"
    try:
        assert use_colour(Tty()) is False  # type: ignore[arg-type]
    finally:
        del os.environ["NO_COLOR"]


def test_tree_shows_reasons_and_folds_system_dlls() -> None:
    done = run("tree", str(EXAMPLE), "--module", "pymod", "--python", "3.11")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0] == "pymod.cp311-win_amd64.pyd  [extension module]"
    assert "chain_a.dll  [same folder]" in lines[1]
    assert "chain_c.dll  [not found]  looked in: " in lines[3]
    assert lines[-1] == "└── + 1 system DLL(s): python311.dll"
    verbose = run("tree", str(EXAMPLE), "--module", "pymod", "--python", "3.11", "-v")
    assert "python311.dll  [already loaded; python.exe folder]" in verbose.stdout


def test_tree_unknown_module_is_one_line() -> None:
    done = run("tree", str(EXAMPLE), "--module", "nothere")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"dlldoctor: error: nothere: not found in {EXAMPLE} (extension modules: pymod)"
    )


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_encrypted_wheel_member_is_a_finding_not_a_crash(tmp_path: Path, pe_bin: Path) -> None:
    wheel = tmp_path / "enc-1.0-cp311-cp311-win_amd64.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_STORED) as archive:
        archive.write(pe_bin / "x64" / "chain_c.dll", "enc/chain_c.dll")
    data = bytearray(wheel.read_bytes())
    local, central = data.find(b"PK\x03\x04"), data.find(b"PK\x01\x02")
    data[local + 6] |= 1  # general purpose flag bit 0: encrypted
    data[central + 8] |= 1
    wheel.write_bytes(bytes(data))
    done = run("scan", str(wheel), "--format", "json")
    assert done.returncode == 1, done.stderr
    (finding,) = json.loads(done.stdout)["findings"]
    assert finding["kind"] == "corrupt-file"
    assert "encrypted" in finding["message"]
