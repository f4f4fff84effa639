"""The scanner on the small mingw-built fixtures: each broken link gives exactly its finding."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pefiles import copy_fixtures as copy

from dlldoctor.scan.result import ScanOptions
from dlldoctor.scan.target import scan_target


def kinds(result) -> set[tuple[str, str, str | None]]:
    return {(f.kind, f.dll or "", f.symbol) for f in result.findings}


def test_healthy_chain_has_no_finding(pe_bin: Path, tmp_path: Path) -> None:
    folder = copy(pe_bin, tmp_path / "t", "chain_a.dll", "chain_b.dll", "chain_c.dll", "app.exe")
    result = scan_target(str(folder), ScanOptions(python="3.11"))
    assert result.findings == []
    assert sorted(f.entry.relpath for f in result.files) == [
        "app.exe",
        "chain_a.dll",
        "chain_b.dll",
        "chain_c.dll",
    ]


def test_missing_leaf_names_the_whole_chain(pe_bin: Path, tmp_path: Path) -> None:
    folder = copy(pe_bin, tmp_path / "t", "chain_a.dll", "chain_b.dll", "app.exe")
    result = scan_target(str(folder), ScanOptions(python="3.11"))
    assert kinds(result) == {("missing-dll", "chain_c.dll", None)}
    (finding,) = result.findings
    assert finding.chain == ("app.exe", "chain_a.dll", "chain_b.dll", "chain_c.dll")
    assert finding.file.endswith("chain_b.dll")


def test_each_fixture_defect_gives_its_finding(pe_bin: Path) -> None:
    result = scan_target(str(pe_bin / "x64"), ScanOptions(python="3.11"))
    assert kinds(result) == {
        ("missing-dll", "does_not_exist.dll", None),
        ("missing-dll", "python312.dll", None),
        ("missing-symbol", "chain_c.dll", "#77"),
        ("missing-symbol", "chain_c.dll", "c_func_missing"),
        ("missing-symbol", "forwarder.dll", "fwd_missing (forwarded to chain_c.nope)"),
        ("delay-load-missing", "delayed_missing.dll", None),
    }
    severities = {f.kind: f.severity for f in result.findings}
    assert severities["delay-load-missing"] == "warning"
    # Nothing in the folder imports needs_symbol.dll & co.: a broken link is a warning, since only a
    # load by full path that nobody is known to make would fail.
    assert severities["missing-symbol"] == "warning"


def test_a_file_scanned_alone_is_loaded_for_certain(pe_bin: Path) -> None:
    result = scan_target(str(pe_bin / "x64" / "needs_symbol.dll"), ScanOptions(python="3.11"))
    assert {(f.kind, f.dll, f.symbol, f.severity) for f in result.findings} == {
        ("missing-symbol", "chain_c.dll", "c_func_missing", "error")
    }


def test_pe_found_by_magic_not_extension(pe_bin: Path) -> None:
    result = scan_target(str(pe_bin / "x64"), ScanOptions(python="3.11"))
    names = {f.entry.relpath for f in result.files}
    assert "noext_pe" in names
    assert len(names) == 15


def test_python_version_decides_which_pythonXY_dll_is_there(pe_bin: Path, tmp_path: Path) -> None:
    folder = copy(
        pe_bin,
        tmp_path / "t",
        "pymod.cp311-win_amd64.pyd",
        "pymod312.cp312-win_amd64.pyd",
        "chain_a.dll",
        "chain_b.dll",
        "chain_c.dll",
    )
    under_311 = scan_target(str(folder), ScanOptions(python="3.11"))
    under_312 = scan_target(str(folder), ScanOptions(python="3.12"))
    assert kinds(under_311) == {("missing-dll", "python312.dll", None)}
    assert kinds(under_312) == {("missing-dll", "python311.dll", None)}


def test_32bit_dlls_under_64bit_python(pe_bin: Path) -> None:
    result = scan_target(str(pe_bin / "x86"), ScanOptions(python="3.11", app_dir=None))
    # The machine is inferred from the files: a folder of x86 DLLs is a 32-bit process and loads fine.
    assert result.environment.machine == "x86"
    assert result.findings == []


def test_wrong_machine_dependency_is_reported_at_the_first_candidate(pe_bin: Path, tmp_path: Path) -> None:
    folder = copy(pe_bin, tmp_path / "t", "pymod.cp311-win_amd64.pyd", "chain_a.dll", "chain_b.dll")
    shutil.copy(pe_bin / "x86" / "chain_c.dll", folder / "chain_c.dll")
    good = copy(pe_bin, tmp_path / "path", "chain_c.dll")
    result = scan_target(str(folder), ScanOptions(python="3.11", path=(str(good),)))
    assert ("arch-mismatch", "chain_c.dll", None) in kinds(result)
    mismatch = next(
        f
        for f in result.findings
        if f.kind == "arch-mismatch" and f.dll == "chain_c.dll" and len(f.chain) > 1
    )
    assert mismatch.chain == ("pymod.cp311-win_amd64.pyd", "chain_a.dll", "chain_b.dll", "chain_c.dll")


@pytest.mark.parametrize(
    ("name", "defect"),
    [
        ("bad_mz.dll", "not-pe"),
        ("bad_pe_sig.dll", "bad-pe-signature"),
        ("truncated_sections.dll", "truncated"),
        ("truncated_body.dll", "truncated"),
        ("zero.dll", "empty"),
        ("lfs_pointer.dll", "lfs-pointer"),
        ("text.dll", "not-pe"),
    ],
)
def test_corrupt_files_are_findings_not_crashes(pe_bin: Path, name: str, defect: str) -> None:
    result = scan_target(str(pe_bin / "corrupt" / name), ScanOptions(python="3.11"))
    (report,) = result.files
    assert getattr(report.facts, "defect", None) == defect
    assert [(f.kind, f.dll) for f in result.findings] == [("corrupt-file", name)]


def test_corrupt_dependency_is_named_in_the_chain(pe_bin: Path, tmp_path: Path) -> None:
    folder = copy(pe_bin, tmp_path / "t", "chain_a.dll", "chain_b.dll", "app.exe")
    (folder / "chain_c.dll").write_bytes(b"")
    result = scan_target(str(folder), ScanOptions(python="3.11"))
    corrupt = [f for f in result.findings if f.kind == "corrupt-file"]
    assert len(corrupt) == 1
    assert corrupt[0].chain == ("app.exe", "chain_a.dll", "chain_b.dll", "chain_c.dll")


def test_forwarder_to_existing_symbol_is_fine(pe_bin: Path, tmp_path: Path) -> None:
    folder = copy(pe_bin, tmp_path / "t", "uses_forwarder.dll", "forwarder.dll", "chain_c.dll")
    result = scan_target(str(folder), ScanOptions(python="3.11"))
    (finding,) = result.findings
    assert finding.symbols == ("fwd_missing (forwarded to chain_c.nope)",)


def test_forwarder_target_dll_missing(pe_bin: Path, tmp_path: Path) -> None:
    folder = copy(pe_bin, tmp_path / "t", "uses_forwarder.dll", "forwarder.dll")
    result = scan_target(str(folder), ScanOptions(python="3.11"))
    (finding,) = result.findings
    assert finding.kind == "missing-symbol"
    assert set(finding.symbols) == {
        "fwd_func (forwarded to chain_c.c_func)",
        "fwd_missing (forwarded to chain_c.nope)",
    }


def test_api_sets_and_vc_runtime_resolve_by_profile_and_by_copy(pe_bin: Path, tmp_path: Path) -> None:
    folder = copy(pe_bin, tmp_path / "t", "ucrt_user.dll")
    assert scan_target(str(folder), ScanOptions(python="3.11")).findings == []
    empty_system = tmp_path / "System32"
    empty_system.mkdir()
    result = scan_target(str(folder), ScanOptions(python="3.11", system_dir=str(empty_system)))
    missing = {f.dll.lower() for f in result.findings if f.kind == "missing-dll"}
    assert "vcruntime140.dll" in missing
    assert any(name.startswith("api-ms-win-crt-") for name in missing)


def test_version_resource_is_read(pe_bin: Path) -> None:
    result = scan_target(str(pe_bin / "x64" / "versioned.dll"), ScanOptions(python="3.11"))
    (report,) = result.files
    assert report.facts.file_version == "14.34.31931.0"
    assert report.facts.product_name == "Fixture Runtime"


def test_a_dll_linked_from_outside_the_target_is_not_read(pe_bin: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copy(pe_bin / "x64" / "chain_c.dll", outside / "chain_c.dll")
    target = tmp_path / "target"
    target.mkdir()
    shutil.copy(pe_bin / "x64" / "chain_b.dll", target / "chain_b.dll")
    (target / "chain_c.dll").symlink_to(outside / "chain_c.dll")
    result = scan_target(str(target), ScanOptions(python="3.11"))
    assert [f.entry.relpath for f in result.files] == ["chain_b.dll"]
    assert "1 file(s) are links out of the target, not read: chain_c.dll" in result.environment.assumptions
    assert {(f.kind, f.dll) for f in result.findings} == {("missing-dll", "chain_c.dll")}
