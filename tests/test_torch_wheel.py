"""The scanner on the real torch 2.13.0 win_amd64 wheel, healthy and broken the ways users break it."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest
import wheelcache

from dlldoctor.pe import pefile_backend as pe_pefile
from dlldoctor.pe.model import PEImage
from dlldoctor.scan.result import ScanOptions
from dlldoctor.scan.target import scan_target

pytestmark = pytest.mark.wheels

TORCH_PE_FILES = [
    "torch/_C.cp311-win_amd64.pyd",
    "torch/bin/protoc.exe",
    "torch/lib/c10.dll",
    "torch/lib/libiomp5md.dll",
    "torch/lib/libiompstubs5md.dll",
    "torch/lib/shm.dll",
    "torch/lib/torch.dll",
    "torch/lib/torch_cpu.dll",
    "torch/lib/torch_global_deps.dll",
    "torch/lib/torch_python.dll",
    "torch/lib/uv.dll",
]
PY311 = ScanOptions(python="3.11")


def replace(path: Path, data: bytes) -> None:
    """Write a new file (never through a hard link into the shared unpacked tree)."""
    path.unlink()
    path.write_bytes(data)


def signature(result):
    return sorted((f.kind, f.severity, f.dll, f.symbol, f.chain, f.context) for f in result.findings)


def test_healthy_wheel_has_no_error_and_all_pe_files(torch_wheel: Path) -> None:
    result = scan_target(str(torch_wheel), PY311)
    assert sorted(f.entry.relpath for f in result.files) == TORCH_PE_FILES
    assert result.findings == []
    cpu = next(f.facts for f in result.files if f.entry.name == "torch_cpu.dll")
    assert isinstance(cpu, PEImage)
    assert len(cpu.exports) == 59776
    assert cpu.linker == "14.42"
    assert result.environment.python == (3, 11)


def test_unpacked_folder_gives_the_same_findings_and_facts(torch_wheel: Path, torch_tree: Path) -> None:
    from_wheel = scan_target(str(torch_wheel), PY311)
    from_folder = scan_target(str(torch_tree), PY311)
    assert signature(from_folder) == signature(from_wheel)
    assert {f.entry.relpath: f.facts for f in from_folder.files} == {
        f.entry.relpath: f.facts for f in from_wheel.files
    }


def test_lief_and_pefile_agree_on_every_pe_in_the_wheel(torch_wheel: Path) -> None:
    result = scan_target(str(torch_wheel), PY311)
    with zipfile.ZipFile(torch_wheel) as archive:
        for report in result.files:
            ours = report.facts
            oracle = pe_pefile.facts_of_whole_file(archive.read(report.entry.relpath))
            assert isinstance(ours, PEImage) and ours.parser == "lief"
            assert ours.imports == oracle.imports, report.entry.relpath
            assert ours.delay_imports == oracle.delay_imports, report.entry.relpath
            assert ours.exports == oracle.exports, report.entry.relpath
            assert ours.export_ordinals == oracle.export_ordinals, report.entry.relpath
            assert ours.forwarders == oracle.forwarders, report.entry.relpath
            assert (ours.machine, ours.linker_version, ours.file_version) == (
                oracle.machine,
                oracle.linker_version,
                oracle.file_version,
            )


def test_removed_dll_is_missing_with_its_chain(torch_copy: Path) -> None:
    (torch_copy / "torch/lib/c10.dll").unlink()
    result = scan_target(str(torch_copy), PY311)
    assert {(f.kind, f.dll) for f in result.errors} == {("missing-dll", "c10.dll")}
    (finding,) = result.errors
    assert finding.chain == ("torch/_C.cp311-win_amd64.pyd", "torch_python.dll", "c10.dll")
    assert finding.context == "extension module"
    assert finding.considered[:2] == ("torch\\c10.dll", "<python.exe folder>\\c10.dll")
    assert "torch\\lib\\c10.dll" in finding.considered


def test_zeroed_dll_is_corrupt(torch_copy: Path) -> None:
    replace(torch_copy / "torch/lib/c10.dll", b"\0" * 1094656)
    result = scan_target(str(torch_copy), PY311)
    corrupt = [f for f in result.errors if f.kind == "corrupt-file"]
    assert [f.dll for f in corrupt] == ["c10.dll"]
    assert corrupt[0].chain == ("torch/_C.cp311-win_amd64.pyd", "torch_python.dll", "c10.dll")
    assert {f.kind for f in result.errors} == {"corrupt-file"}


def test_dll_from_an_older_torch_misses_symbols(torch_copy: Path) -> None:
    old = wheelcache.wheel(wheelcache.TORCH_OLD)
    with zipfile.ZipFile(old) as archive:
        replace(torch_copy / "torch/lib/c10.dll", archive.read("torch/lib/c10.dll"))
    result = scan_target(str(torch_copy), PY311)
    assert result.errors
    assert {f.kind for f in result.errors} == {"missing-symbol"}
    assert {f.dll for f in result.errors} == {"c10.dll"}
    importers = {Path(f.file).name for f in result.errors}
    assert {"torch_cpu.dll", "torch_python.dll"} <= importers
    for finding in result.errors:
        assert finding.chain[-1] == "c10.dll"
        assert finding.symbol == finding.symbols[0]


def test_32bit_copy_is_an_arch_mismatch(torch_copy: Path, pe_bin: Path) -> None:
    replace(torch_copy / "torch/lib/c10.dll", (pe_bin / "x86" / "chain_c.dll").read_bytes())
    result = scan_target(str(torch_copy), PY311)
    mismatches = [f for f in result.errors if f.kind == "arch-mismatch"]
    assert mismatches and {f.dll for f in mismatches} == {"c10.dll"}
    chained = [f for f in mismatches if len(f.chain) > 1]
    assert chained[0].chain == ("torch/_C.cp311-win_amd64.pyd", "torch_python.dll", "c10.dll")


def test_old_c10_on_path_does_not_matter_when_torch_lib_has_one(torch_copy: Path, tmp_path: Path) -> None:
    """Python >= 3.8 does not search PATH for extension modules, and torch\\lib comes first anyway."""
    old = wheelcache.wheel(wheelcache.TORCH_OLD)
    path_dir = tmp_path / "old-on-path"
    path_dir.mkdir()
    with zipfile.ZipFile(old) as archive:
        (path_dir / "c10.dll").write_bytes(archive.read("torch/lib/c10.dll"))
    result = scan_target(str(torch_copy), ScanOptions(python="3.11", path=(str(path_dir),)))
    assert result.errors == []


def test_path_fallback_binds_an_old_copy_when_torch_lib_lacks_one(torch_copy: Path, tmp_path: Path) -> None:
    """torch's preload retries with PATH after error 126, and what it binds there sticks."""
    old = wheelcache.wheel(wheelcache.TORCH_OLD)
    path_dir = tmp_path / "old-on-path"
    path_dir.mkdir()
    with zipfile.ZipFile(old) as archive:
        (path_dir / "c10.dll").write_bytes(archive.read("torch/lib/c10.dll"))
    (torch_copy / "torch/lib/c10.dll").unlink()
    result = scan_target(str(torch_copy), ScanOptions(python="3.11", path=(str(path_dir),)))
    assert {f.kind for f in result.errors} == {"missing-symbol"}
    assert all(f.context == "torch preload" or "PATH fallback" in f.message for f in result.errors)
    assert any("PATH fallback" in f.message for f in result.errors)


def test_path_fallback_rescues_with_a_matching_copy(torch_copy: Path, tmp_path: Path) -> None:
    path_dir = tmp_path / "good-on-path"
    path_dir.mkdir()
    shutil.move(str(torch_copy / "torch/lib/c10.dll"), path_dir / "c10.dll")
    assert scan_target(str(torch_copy), ScanOptions(python="3.11", path=(str(path_dir),))).errors == []
    # Without PATH there is nothing to fall back on.
    assert {f.kind for f in scan_target(str(torch_copy), PY311).errors} == {"missing-dll"}


def test_32bit_msvcp140_next_to_python_exe_is_an_arch_mismatch(
    torch_copy: Path, tmp_path: Path, pe_bin: Path
) -> None:
    app_dir = tmp_path / "python"
    app_dir.mkdir()
    shutil.copy(pe_bin / "x86" / "chain_c.dll", app_dir / "msvcp140.dll")
    result = scan_target(str(torch_copy), ScanOptions(python="3.11", app_dir=str(app_dir)))
    assert {(f.kind, f.dll.lower()) for f in result.errors} == {("arch-mismatch", "msvcp140.dll")}
    (finding,) = result.errors
    assert "[python.exe folder]" in finding.message


def test_msvc_runtime_win32_wheel_really_ships_x64_dlls() -> None:
    """A real packaging defect: the win32 wheels of msvc-runtime carry 64-bit runtime DLLs."""
    runtime = wheelcache.wheel(wheelcache.MSVC_OLD, platform="win32")
    result = scan_target(str(runtime), PY311)
    assert result.environment.machine == "x86"
    chained = sorted((f.kind, f.dll, f.chain) for f in result.errors if len(f.chain) > 1)
    assert chained == [
        ("arch-mismatch", "MSVCP140.dll", ("msvc_runtime.cp311-win32.pyd", "MSVCP140.dll")),
        ("arch-mismatch", "VCOMP140.DLL", ("msvc_runtime.cp311-win32.pyd", "VCOMP140.DLL")),
    ]
