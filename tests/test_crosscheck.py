"""`dlldoctor explain TEXT --target PATH`: the text proposes, probes on the install decide."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from dlldoctor.resources import schema_path

TEXT_193 = (
    "OSError: [WinError 193] %1 is not a valid Win32 application. Error loading "
    '"C:\\py\\Lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.'
)
TEXT_VCREDIST = (
    "ImportError: DLL load failed while importing _C: The specified procedure could not be found.\n"
    "The procedure entry point ?_Throw_Cpp_error@std@@YAXH@Z could not be located in the dynamic link "
    "library C:\\Python311\\MSVCP140.dll."
)


def explain(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dlldoctor", "explain", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
        check=False,
    )


def checks(*args: str) -> list[dict]:
    done = explain(*args, "--format", "json")
    assert done.returncode in (0, 1), done.stderr
    data = json.loads(done.stdout)
    jsonschema.Draft202012Validator(json.loads(schema_path("explain").read_text())).validate(data)
    return data["target_checks"]


@pytest.mark.wheels
def test_arch_mismatch_confirmed_on_a_tree_with_a_32bit_dll(torch_copy: Path, pe_bin: Path) -> None:
    target = torch_copy / "torch/lib/c10.dll"
    target.unlink()
    target.write_bytes((pe_bin / "x86" / "chain_c.dll").read_bytes())
    result = checks(TEXT_193, "--target", str(torch_copy), "--python", "3.11")
    assert result[0]["verdict"] == "confirmed"
    assert result[0]["from_text"] is True
    assert result[0]["rule"] == "winerror-193-not-a-valid-win32-application"
    assert any("c10.dll" in line for line in result[0]["evidence"])


@pytest.mark.wheels
def test_arch_mismatch_refuted_on_a_healthy_tree(torch_tree: Path) -> None:
    result = checks(TEXT_193, "--target", str(torch_tree), "--python", "3.11")
    verdicts = {c["rule"]: c["verdict"] for c in result}
    assert verdicts["winerror-193-not-a-valid-win32-application"] == "refuted"
    assert "confirmed" not in verdicts.values()


def test_outdated_runtime_unknown_without_a_runtime_copy(pe_bin: Path) -> None:
    result = checks(TEXT_VCREDIST, "--target", str(pe_bin / "x64" / "ucrt_user.dll"), "--python", "3.11")
    top = result[0]
    assert top["rule"] == "msvcp140-entry-point-not-found"
    assert top["verdict"] == "unknown"
    assert any("--system-dir" in line for line in top["collect"])


def test_text_output_names_each_verdict(pe_bin: Path) -> None:
    done = explain(TEXT_VCREDIST, "--target", str(pe_bin / "corrupt"), "--python", "3.11")
    assert done.returncode == 1
    section = done.stdout.split("Checked on the install", 1)[1]
    assert "[cannot tell] msvcp140-entry-point-not-found" in section
    assert "[confirmed]" in section and "found on the install, not suggested by the text" in section


def test_missing_target_is_one_line() -> None:
    done = explain(TEXT_193, "--target", "/no/such/place")
    assert done.returncode == 2
    assert done.stderr.strip() == "dlldoctor: error: /no/such/place: no such file or folder"
