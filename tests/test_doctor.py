"""``dlldoctor doctor`` through the fake Windows (tests/fakewin.py), then the bundle read again on Linux.

Each broken layout is one of the scan scenarios of tests/test_verdicts.py, installed into the fake
machine's site-packages: the doctor run must name the exact cause and, where the import fails, the exact
call the live probe saw fail; the bundle it writes, read by a fresh ``dlldoctor explain --bundle``
process, must give the same cause.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import fakewin
import jsonschema
import pytest
import wheelcache
from fakewin import FakeWindows, member

from dlldoctor.cli import doctor
from dlldoctor.diagnose.doctor import diagnose_bundle, live_failures
from dlldoctor.kb.ruleset import load_rule_set
from dlldoctor.platform import collect
from dlldoctor.resources import schema_path

pytestmark = pytest.mark.wheels


def _link_tree(src: Path, dest: Path) -> None:
    def link(a: str, b: str) -> None:
        try:
            Path(b).hardlink_to(a)
        except OSError:
            shutil.copy2(a, b)

    shutil.copytree(src, dest, copy_function=link, dirs_exist_ok=True)


def _replace(path: Path, data: bytes) -> None:
    path.unlink()
    path.write_bytes(data)


def deleted_uv(fw: FakeWindows, pe_bin: Path) -> None:
    (fw.site / "torch/lib/uv.dll").unlink()


def zeroed_c10(fw: FakeWindows, pe_bin: Path) -> None:
    _replace(fw.site / "torch/lib/c10.dll", b"\0" * 4096)


def c10_of_another_release(fw: FakeWindows, pe_bin: Path) -> None:
    _replace(fw.site / "torch/lib/c10.dll", member(wheelcache.TORCH_OLD, "torch/lib/c10.dll"))


def c10_for_32bit(fw: FakeWindows, pe_bin: Path) -> None:
    _replace(fw.site / "torch/lib/c10.dll", (pe_bin / "x86" / "chain_c.dll").read_bytes())


def old_msvcp140_beside_python(fw: FakeWindows, pe_bin: Path) -> None:
    (fw.app_dir / "msvcp140.dll").write_bytes(member(wheelcache.MSVC_OLD, "data/msvcp140.dll"))


def torch_cuda_leftover(fw: FakeWindows, pe_bin: Path) -> None:
    """A torch_cuda.dll that torch's RECORD does not list: files of another build left behind."""
    (fw.site / "torch/lib/torch_cuda.dll").write_bytes((pe_bin / "x64" / "chain_c.dll").read_bytes())


def old_c10_on_path_only(fw: FakeWindows, pe_bin: Path) -> None:
    """torch\\lib lacks c10.dll; torch's PATH fallback binds the older release's copy found on PATH."""
    (fw.site / "torch/lib/c10.dll").unlink()
    old = fw.root / "old-torch"
    old.mkdir()
    (old / "c10.dll").write_bytes(member(wheelcache.TORCH_OLD, "torch/lib/c10.dll"))
    fw.env["PATH"] = f"{old};{fw.env['PATH']}"


# layout, Python, the cause, the live probe's first failed call (file, code, what it names) or None, and
# whether the collector's bundle alone (no scan) reaches the same cause from that failed call: a deleted
# DLL (RECORD) and a zeroed one (its bytes) need the scan, which only doctor makes.
BROKEN = [
    (deleted_uv, "3.11", "corrupt-file", ("torch_cpu.dll", 126, "uv.dll"), False),
    (zeroed_c10, "3.11", "corrupt-file", ("c10.dll", 193, None), False),
    (c10_of_another_release, "3.11", "mixed-install", ("torch_cpu.dll", 127, "c10.dll"), True),
    (c10_for_32bit, "3.11", "arch-mismatch", ("c10.dll", 193, None), True),
    (old_msvcp140_beside_python, "3.11", "vcredist-outdated", None, False),
    (None, "3.12", "python-abi-mismatch", ("torch_python.dll", 126, "python311.dll"), True),
    (torch_cuda_leftover, "3.11", "mixed-install", None, False),
    (old_c10_on_path_only, "3.11", "mixed-install", ("torch_cpu.dll", 127, "c10.dll"), False),
]
# The collector knows no package's loader: it makes no PATH retry, so it sees the first attempt's 126.
COLLECTOR_LIVE = {old_c10_on_path_only: ("torch_cpu.dll", 126, "c10.dll")}


def machine(tmp_path: Path, pe_bin: Path, torch_tree: Path, python: str = "3.11") -> FakeWindows:
    fw = FakeWindows(tmp_path / "machine", pe_bin, python)
    _link_tree(torch_tree, fw.site)
    return fw


def arguments(**given: object) -> argparse.Namespace:
    values = {"modules": [], "python": None, "report": None, "no_redact": False, "lang": "en"}
    values.update(format="text", rules=None)
    values.update(given)
    return argparse.Namespace(**values)


def run_doctor(fw: FakeWindows, capsys: pytest.CaptureFixture[str], **given: object) -> tuple[int, str]:
    status = doctor.run(arguments(python=str(fw.app_dir / "python.exe"), **given), fw)
    return status, capsys.readouterr().out


def explain_bundle(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dlldoctor", "explain", "--bundle", str(path), *extra],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
        check=False,
    )


@pytest.mark.parametrize(
    ("layout", "python", "cause", "live", "alone"), BROKEN, ids=lambda v: getattr(v, "__name__", None)
)
def test_each_broken_layout_is_diagnosed_live_and_again_from_its_bundle(
    layout, python, cause, live, alone, tmp_path: Path, pe_bin: Path, torch_tree: Path, capsys
) -> None:
    fw = machine(tmp_path, pe_bin, torch_tree, python)
    if layout is not None:
        layout(fw, pe_bin)
    report = tmp_path / "bundle.json"
    status, out = run_doctor(fw, capsys, report=report)
    assert status == 1
    first = out.splitlines()[0]
    assert first.startswith(f"✗ {cause}: ")
    assert fw.children == ["interpreter", "reproduce"] + (["probe"] if live else [])

    bundle = json.loads(report.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(json.loads(schema_path("bundle").read_text())).validate(bundle)
    assert bundle["diagnosis"]["category"] == cause
    failed = [r for r in bundle["reproduced"] if r["ok"] is False]
    if live is None:
        assert failed == [] and bundle["probes"] == []
        assert "the import itself works now" in first
    else:
        assert bundle["diagnosis"]["confirmed"] is True and "confirmed on this machine" in first
        (probe,) = bundle["probes"]
        bad = next(c for c in probe["calls"] if c["code"])
        named = bad.get("missing_dll") or bad.get("in_dll")
        assert (Path(bad["path"]).name, bad.get("fallback_code", bad["code"]), named) == live
        assert all(c["code"] == 0 for c in probe["calls"][: probe["calls"].index(bad)])
        if (
            layout is old_c10_on_path_only
        ):  # the first attempt misses c10.dll; torch's retry binds the old one
            assert (bad["code"], bad["fallback_code"]) == (126, 127)
            assert bad["dll_bound"] == str(fw.root / "old-torch" / "c10.dll")
        # The System32 DLLs the graph binds are read with their versions (KnownDLLs and the rest).
        assert {"kernel32.dll", "ws2_32.dll", "msvcp140.dll"} <= set(bundle["facts"]["system_dlls"])
        # The collector alone (no dlldoctor, its own import reader and plan) sees the same failure.
        by_itself = collect.build_bundle(fw, str(fw.app_dir / "python.exe"), ["torch"])
        first_bad = live_failures(by_itself)[0]
        seen_live = (Path(first_bad.path).name, first_bad.code, first_bad.missing_dll or first_bad.in_dll)
        assert seen_live == COLLECTOR_LIVE.get(layout, live)
        assert {"kernel32.dll", "ws2_32.dll"} <= set(by_itself["facts"]["system_dlls"])
        seen, _ = diagnose_bundle(by_itself, load_rule_set())
        assert (seen.source, seen.confirmed) == ("probe", False)
        assert (seen.category == cause) is alone

    del bundle["diagnosis"]  # worked out again from the facts, not read back
    report.write_text(json.dumps(bundle), encoding="utf-8")
    again = explain_bundle(report, "--format", "json")
    assert again.returncode == 1, again.stderr
    jsonschema.Draft202012Validator(json.loads(schema_path("bundle").read_text())).validate(
        json.loads(again.stdout)
    )
    assert json.loads(again.stdout)["diagnosis"]["category"] == cause
    text = explain_bundle(report)
    assert text.stdout.splitlines()[0] == first
    scan = subprocess.run(
        [sys.executable, "-m", "dlldoctor", "scan", "--bundle", str(report)], capture_output=True, text=True
    )
    lines = scan.stdout.splitlines()
    assert scan.returncode == 1 and lines[0].startswith("scan of ") and first in lines
    assert f"  error: {cause} (" in "\n".join(lines)


def assert_rediagnosed(report: Path, cause: str, first: str, status: int) -> None:
    """The bundle, its diagnosis removed, read again by a new `explain --bundle` process: the same cause."""
    bundle = json.loads(report.read_text(encoding="utf-8"))
    del bundle["diagnosis"]
    report.write_text(json.dumps(bundle), encoding="utf-8")
    again = explain_bundle(report, "--format", "json")
    assert again.returncode == status, again.stderr
    assert json.loads(again.stdout)["diagnosis"]["category"] == cause
    assert explain_bundle(report).stdout.splitlines()[0] == first


def test_a_cuda_package_without_its_cuda_dlls_imports_but_is_diagnosed(
    tmp_path: Path, pe_bin: Path, capsys
) -> None:
    """onnxruntime-gpu imports (its CUDA provider loads later, for a session); the scan names the cause."""
    import zipfile

    fw = FakeWindows(tmp_path / "machine", pe_bin)
    with zipfile.ZipFile(wheelcache.wheel(wheelcache.ONNXRUNTIME_GPU)) as archive:
        archive.extractall(fw.site)
    report = tmp_path / "bundle.json"
    status, out = run_doctor(fw, capsys, modules=["onnxruntime"], report=report)
    bundle = json.loads(report.read_text(encoding="utf-8"))
    assert status == 0 and bundle["reproduced"][0]["ok"] is True
    assert bundle["diagnosis"] == {
        "rule_id": "onnxruntime-cuda-provider-126",
        "category": "cuda-dll-missing",
        "source": "scan",
        "confirmed": False,
    }
    assert out.splitlines()[0].startswith("⚠ cuda-dll-missing: ")
    assert (
        "  evidence: cublas64_13.dll not found, needed by onnxruntime_providers_cuda.dll [loaded by full path]"
        in out
    )
    assert_rediagnosed(report, "cuda-dll-missing", out.splitlines()[0], 0)


def test_two_openmp_runtimes_in_a_conda_environment(
    tmp_path: Path, pe_bin: Path, torch_tree: Path, capsys
) -> None:
    """conda's Library\\bin holds Intel's libiomp5md.dll beside torch's own: the environment is scanned whole."""
    fw = FakeWindows(tmp_path / "machine", pe_bin, conda=True)
    _link_tree(torch_tree, fw.site)
    (fw.app_dir / "Library/bin/libiomp5md.dll").write_bytes(
        member(wheelcache.INTEL_OPENMP, "library/bin/libiomp5md.dll")
    )
    report = tmp_path / "bundle.json"
    status, out = run_doctor(fw, capsys, report=report)
    bundle = json.loads(report.read_text(encoding="utf-8"))
    assert bundle["facts"]["interpreter"]["kind"] == "conda"
    assert bundle["scan"]["target"] == str(fw.app_dir)
    assert (status, bundle["diagnosis"]["category"], bundle["reproduced"][0]["ok"]) == (
        1,
        "openmp-duplicate",
        True,
    )
    assert out.splitlines()[0].startswith("✗ openmp-duplicate: ")
    assert_rediagnosed(report, "openmp-duplicate", out.splitlines()[0], 1)


def test_healthy_torch_is_healthy(tmp_path: Path, pe_bin: Path, torch_tree: Path, capsys) -> None:
    fw = machine(tmp_path, pe_bin, torch_tree)
    status, out = run_doctor(fw, capsys, format="json")
    bundle = json.loads(out)
    assert status == 0
    assert out and bundle["diagnosis"] == {
        "rule_id": None,
        "category": None,
        "source": "none",
        "confirmed": False,
    }
    assert bundle["reproduced"] == [
        {"module": "torch", "ok": True, "error_type": None, "text": "", "winerror": None}
    ]
    assert bundle["facts"]["vc_redist"] == {"version": "v14.44.35112.01", "installed": 1}
    assert (
        bundle["facts"]["system_dlls"]["msvcp140.dll"] == "14.44.35211.0"
    )  # the FileVersion that wheel really carries
    assert bundle["facts"]["known_dlls"][:2] == ["advapi32.dll", "kernel32.dll"]
    assert (bundle["facts"]["wdac_policies"], bundle["facts"]["smart_app_control"]) == (0, 0)


def test_redaction_masks_the_user_unless_told_not_to(
    tmp_path: Path, pe_bin: Path, torch_tree: Path, capsys
) -> None:
    fw = machine(tmp_path, pe_bin, torch_tree)
    fw.env["USERPROFILE"] = str(fw.root)  # the whole machine lives in the user's home folder
    (fw.site / "torch/lib/uv.dll").unlink()
    _, out = run_doctor(fw, capsys, format="json")
    assert str(fw.root) not in out and "alice" not in out
    assert '"<home>/Python311/Lib/site-packages/torch/lib/torch_cpu.dll"' in out
    _, kept = run_doctor(fw, capsys, format="json", no_redact=True)
    assert str(fw.root) in kept and json.loads(kept)["redacted"] is False


def test_markdown_is_folded_and_fits_an_issue(tmp_path: Path, pe_bin: Path, torch_tree: Path, capsys) -> None:
    fw = machine(tmp_path, pe_bin, torch_tree)
    (fw.site / "torch/lib/uv.dll").unlink()
    report = tmp_path / "bundle.json"
    _, out = run_doctor(fw, capsys, format="markdown", report=report)
    assert out.startswith("### ✗ corrupt-file: ")
    assert out.count("<details>") == 5 and "torch_cpu.dll" in out
    # A probe of 4,000 long calls (a huge environment) still fits, cut with a line that says so.
    bundle = json.loads(report.read_text(encoding="utf-8"))
    call = {"path": "C:\\env\\Lib\\site-packages\\pkg\\" + "x" * 200 + ".dll", "flags": 4352, "code": 0}
    bundle["probes"][0]["calls"] = [call] * 4000 + bundle["probes"][0]["calls"]
    report.write_text(json.dumps(bundle), encoding="utf-8")
    again = explain_bundle(report, "--format", "markdown")
    assert again.stdout.startswith("### ✗ corrupt-file: ")
    assert len(again.stdout) < 65536 and "more characters left out" in again.stdout


def test_doctor_elsewhere_says_what_to_run_in_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "dlldoctor", "doctor"], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("dlldoctor doctor: error: this is not Windows: run `dlldoctor doctor` on")
    assert "dlldoctor collector > collect.py" in done.stderr and len(done.stderr.splitlines()) == 1


def test_a_python_that_is_not_there_is_one_line(tmp_path: Path, pe_bin: Path) -> None:
    from dlldoctor.errors import InputError

    fw = FakeWindows(tmp_path / "machine", pe_bin)
    with pytest.raises(InputError, match=r"^--python .*nowhere\.exe: no such interpreter$"):
        doctor.run(arguments(python=str(tmp_path / "nowhere.exe")), fw)


def test_the_collector_writes_a_bundle_doctor_reads(
    tmp_path: Path, pe_bin: Path, torch_tree: Path, capsys
) -> None:
    """collect.py's own entry point on the fake Windows: a redacted, valid bundle explain --bundle reads."""
    fw = machine(tmp_path, pe_bin, torch_tree)
    c10_for_32bit(fw, pe_bin)
    fw.env["USERPROFILE"] = str(fw.root)
    active = fw.system / "CodeIntegrity" / "CiPolicies" / "Active"
    active.mkdir(parents=True)
    (active / "{0283ac0f-fff1-49ae-ada1-8a933130cad6}.cip").write_bytes(b"\0" * 64)  # one App Control policy
    report = tmp_path / "bundle.json"
    assert collect.main(["torch", "--report", str(report)], fw, str(fw.app_dir / "python.exe")) == 0
    assert (
        capsys.readouterr().err
        == f"bundle written to {report}: read it with dlldoctor explain --bundle {report}\n"
    )
    text = report.read_text(encoding="utf-8")
    assert str(fw.root) not in text and text.isascii()
    bundle = json.loads(text)
    jsonschema.Draft202012Validator(json.loads(schema_path("bundle").read_text())).validate(bundle)
    assert (bundle["tool"], bundle["redacted"], "scan" in bundle) == (
        {"name": "collect.py", "version": 1},
        True,
        False,
    )
    again = explain_bundle(report, "--format", "json")
    assert json.loads(again.stdout)["diagnosis"] == {
        "rule_id": "winerror-193-not-a-valid-win32-application",
        "category": "arch-mismatch",
        "source": "probe",
        "confirmed": False,
    }


def test_a_32bit_interpreter_is_scanned_against_syswow64(tmp_path: Path) -> None:
    from dlldoctor.diagnose.doctor import system_folder

    system32 = tmp_path / "Windows" / "System32"
    system32.mkdir(parents=True)
    assert system_folder({"bits": 32}, str(system32)) == str(system32)  # 32-bit Windows: no SysWOW64
    (tmp_path / "Windows" / "SysWOW64").mkdir()
    assert system_folder({"bits": 32}, str(system32)) == str(tmp_path / "Windows" / "SysWOW64")
    assert system_folder({"bits": 64}, str(system32)) == str(system32)


def test_the_scan_uses_the_machines_own_known_dlls(tmp_path: Path, pe_bin: Path) -> None:
    from dlldoctor.diagnose.doctor import _scan

    fw = FakeWindows(tmp_path / "machine", pe_bin)
    fw.registry[(collect.KNOWN_DLLS_KEY, "DllDirectory")] = "%SystemRoot%\\system32"  # a folder, not a DLL
    shutil.copy(pe_bin / "x64" / "chain_c.dll", fw.site / "chain_c.dll")
    result = _scan(fw, str(fw.site), fw.interpreter([]), None)
    assert result.environment.profile.known_dlls == frozenset(fakewin.KNOWN_DLLS)
    assert result.environment.system_dir is not None and result.environment.system_dir.label == str(fw.system)


def test_a_report_that_cannot_be_written_is_one_line(
    tmp_path: Path, pe_bin: Path, torch_tree: Path, capsys
) -> None:
    from dlldoctor.errors import InputError

    fw = machine(tmp_path, pe_bin, torch_tree)
    with pytest.raises(
        InputError, match=r"^--report .*/no/such/folder/b\.json: cannot write: No such file or directory$"
    ):
        run_doctor(fw, capsys, report=tmp_path / "no" / "such" / "folder" / "b.json")
