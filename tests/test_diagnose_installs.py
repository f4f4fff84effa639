"""Broken installs users really have, built from real wheels: the right cause comes out on top."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest
import wheelcache

from dlldoctor.diagnose_scan import diagnose_results
from dlldoctor.scan import ScanOptions, ScanResult, scan_target

pytestmark = pytest.mark.wheels


def diagnosed(target: Path, **options: object) -> ScanResult:
    result = scan_target(str(target), ScanOptions(**{"python": "3.11", **options}))  # type: ignore[arg-type]
    diagnose_results([result])
    return result


def top(result: ScanResult) -> str:
    assert result.diagnoses, f"no diagnosis; findings: {[f.message for f in result.findings]}"
    return result.diagnoses[0].rule.category


def member(wheel: Path, suffix: str) -> bytes:
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.lower().endswith(suffix))
        return archive.read(name)


def replace(path: Path, data: bytes) -> None:
    path.unlink()
    path.write_bytes(data)


def test_healthy_torch_has_no_error_diagnosis(torch_wheel: Path, torch_tree: Path) -> None:
    for target in (torch_wheel, torch_tree):
        result = diagnosed(target)
        assert [d.rule.id for d in result.diagnoses if d.rule.severity == "error"] == []


def test_deleted_dll_listed_in_record(torch_copy: Path) -> None:
    (torch_copy / "torch/lib/uv.dll").unlink()
    assert top(diagnosed(torch_copy)) == "corrupt-file"


def test_zeroed_dll(torch_copy: Path) -> None:
    replace(torch_copy / "torch/lib/c10.dll", b"\0" * 4096)
    assert top(diagnosed(torch_copy)) == "corrupt-file"


def test_dll_from_another_release(torch_copy: Path) -> None:
    replace(torch_copy / "torch/lib/c10.dll", member(wheelcache.wheel(wheelcache.TORCH_OLD), "torch/lib/c10.dll"))
    assert top(diagnosed(torch_copy)) == "mixed-install"


def test_32bit_dll(torch_copy: Path, pe_bin: Path) -> None:
    replace(torch_copy / "torch/lib/c10.dll", (pe_bin / "x86" / "chain_c.dll").read_bytes())
    assert top(diagnosed(torch_copy)) == "arch-mismatch"


def test_old_msvcp140_next_to_python_exe(torch_copy: Path, tmp_path: Path) -> None:
    app_dir = tmp_path / "python"
    app_dir.mkdir()
    (app_dir / "msvcp140.dll").write_bytes(member(wheelcache.wheel(wheelcache.MSVC_OLD), "data/msvcp140.dll"))
    result = diagnosed(torch_copy, app_dir=str(app_dir))
    assert result.findings == []  # the export tables of 14.34 and 14.44 are the same: only the version tells
    assert top(result) == "vcredist-outdated"


def test_new_msvcp140_next_to_python_exe_is_fine(torch_copy: Path, tmp_path: Path) -> None:
    app_dir = tmp_path / "python"
    app_dir.mkdir()
    (app_dir / "msvcp140.dll").write_bytes(member(wheelcache.wheel(wheelcache.MSVC_NEW), "data/msvcp140.dll"))
    result = diagnosed(torch_copy, app_dir=str(app_dir))
    assert [d.rule.category for d in result.diagnoses if d.rule.severity == "error"] == []


def test_two_openmp_runtimes_in_a_conda_env(torch_tree: Path, tmp_path: Path, pe_bin: Path) -> None:
    root = tmp_path / "env"
    root.mkdir()
    shutil.copy(pe_bin / "x64" / "app.exe", root / "python.exe")
    for name in ("chain_a.dll", "chain_b.dll", "chain_c.dll"):
        shutil.copy(pe_bin / "x64" / name, root / name)
    (root / "conda-meta").mkdir()
    (root / "conda-meta" / "python-3.11.7-h0.json").write_text('{"files": ["python.exe"]}')
    shutil.copytree(torch_tree, root / "Lib" / "site-packages")
    (root / "Library" / "bin").mkdir(parents=True)
    (root / "Library" / "bin" / "libiomp5md.dll").write_bytes(
        member(wheelcache.wheel(wheelcache.INTEL_OPENMP), "library/bin/libiomp5md.dll")
    )
    assert top(diagnosed(root)) == "openmp-duplicate"


def test_cp311_tree_under_python_312(torch_tree: Path) -> None:
    assert top(diagnosed(torch_tree, python="3.12")) == "python-abi-mismatch"


def test_cuda_package_without_its_cuda_dlls() -> None:
    assert top(diagnosed(wheelcache.wheel(wheelcache.ONNXRUNTIME_GPU))) == "cuda-dll-missing"


def test_msvc_runtime_win32_wheel_with_x64_dlls() -> None:
    assert top(diagnosed(wheelcache.wheel(wheelcache.MSVC_OLD, platform="win32"))) == "arch-mismatch"
