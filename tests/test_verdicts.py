"""Broken installs users really have, built from real wheels: the right cause comes out on top."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest
import wheelcache

from dlldoctor.diagnose.verdicts import DiagnoseWithRules
from dlldoctor.scan.result import ScanOptions, ScanResult
from dlldoctor.scan.target import scan_target

pytestmark = pytest.mark.wheels


def diagnosed(target: Path, **options: object) -> ScanResult:
    result = scan_target(str(target), ScanOptions(**{"python": "3.11", **options}))  # type: ignore[arg-type]
    DiagnoseWithRules()([result])
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
    replace(
        torch_copy / "torch/lib/c10.dll", member(wheelcache.wheel(wheelcache.TORCH_OLD), "torch/lib/c10.dll")
    )
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


def test_nvidia_cuda_runtime_wheel_is_healthy_and_links_nothing_missing() -> None:
    result = diagnosed(wheelcache.wheel(wheelcache.CUDA_RUNTIME))
    assert [f.entry.name for f in result.files] == ["cudart64_12.dll"]
    assert result.errors == []
    assert [d.rule.id for d in result.diagnoses if d.rule.severity == "error"] == []


def test_real_cudart_of_another_major_is_a_version_mismatch(tmp_path: Path, pe_bin: Path) -> None:
    """A module linked against cudart64_13.dll next to the real cudart64_12.dll of nvidia-cuda-runtime-cu12."""
    site = tmp_path / "site"
    site.mkdir()
    data = (pe_bin / "x64" / "needs_missing.dll").read_bytes()
    (site / "uses_cuda13.dll").write_bytes(
        data.replace(b"does_not_exist.dll\0", b"cudart64_13.dll".ljust(19, b"\0"))
    )
    (site / "cudart64_12.dll").write_bytes(
        member(wheelcache.wheel(wheelcache.CUDA_RUNTIME), "cudart64_12.dll")
    )
    result = diagnosed(site)
    assert top(result) == "cuda-version-mismatch"
    assert any("present instead: cudart64_12.dll" in line for line in result.diagnoses[0].evidence)


def test_cuda_build_files_beside_a_cpu_build(torch_copy: Path, pe_bin: Path) -> None:
    """A torch_cuda.dll that torch's RECORD does not list: leftovers of another build."""
    (torch_copy / "torch/lib/torch_cuda.dll").write_bytes((pe_bin / "x64" / "chain_c.dll").read_bytes())
    result = diagnosed(torch_copy)
    assert top(result) == "mixed-install"
    assert any("torch/lib/torch_cuda.dll" in line for line in result.diagnoses[0].evidence)


@pytest.mark.parametrize(
    ("spec", "evidence"),
    [
        # numpy's modules (toolset 14.44) bind the msvcp140-<hash>.dll 14.40 that delvewheel renamed for them.
        (
            "numpy==2.4.6",
            "the modules bind renamed private copies of the runtime that export what they import",
        ),
        # faiss's modules (14.44) bind its own plain msvcp140.dll 14.40: older, but past the 14.40 change.
        ("faiss-cpu==1.15.1", "the VC++ runtime bound runs the code of every toolset that imports it"),
    ],
)
def test_a_bundled_runtime_that_serves_its_modules_is_no_fault(spec: str, evidence: str) -> None:
    from dlldoctor.diagnose.probe_context import ProbeContext
    from dlldoctor.diagnose.probes import answer
    from dlldoctor.kb.families import families_from_data
    from dlldoctor.kb.model import Probe
    from dlldoctor.resources import load_data

    result = diagnosed(wheelcache.wheel(spec))
    ctx = ProbeContext(result, families_from_data(load_data("families")))
    runtime = answer(ctx, Probe("vcruntime-version", (), False))
    assert (runtime.value, runtime.evidence) == (True, (evidence,))
    assert [d.rule.id for d in result.diagnoses if d.rule.severity == "error"] == []


def test_one_vcomp140_is_no_duplicate_openmp_runtime() -> None:
    """scikit-learn ships vcomp140.dll; the System32 copy the profile assumes is not a second one."""
    result = diagnosed(wheelcache.wheel("scikit-learn==1.9.1"))
    assert "openmp-duplicate" not in {d.rule.category for d in result.diagnoses}
