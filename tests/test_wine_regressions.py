"""Disagreements the Wine tier found in dlldoctor's model, pinned here without Wine.

Each test is the layout of tests/wine/layouts.py that showed the bug, reduced to what the scanner
needs; the Wine tier keeps checking the same layout against the real loader.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from dlldoctor.scan.result import ScanOptions
from dlldoctor.scan.target import scan_target


def _copy(pe_bin: Path, dest: Path, source: str, name: str | None = None) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy(pe_bin / source, dest / (name or Path(source).name))


def test_torch_fallback_searches_the_whole_graph_again(pe_bin: Path, tmp_path: Path) -> None:
    """Layout torch-preload-fallback-rebinds. After 126, torch calls LoadLibraryW(path) afresh: every
    DLL of the graph is searched in the standard order, so chain_b.dll now binds next to python.exe,
    not in torch\\lib where the failed first attempt had found it."""
    lib = tmp_path / "site" / "torch" / "lib"
    _copy(pe_bin, lib, "x64/versioned.dll", "c10.dll")
    for name in ("chain_a.dll", "chain_b.dll"):
        _copy(pe_bin, lib, f"x64/{name}")
    _copy(pe_bin, tmp_path / "site" / "torch", "x64/pymod.cp311-win_amd64.pyd", "_C.cp311-win_amd64.pyd")
    _copy(pe_bin, tmp_path / "python", "x64/chain_b.dll")
    _copy(pe_bin, tmp_path / "path1", "x64/chain_c.dll")
    options = ScanOptions(python="3.11", app_dir=str(tmp_path / "python"), path=(str(tmp_path / "path1"),))
    result = scan_target(str(tmp_path / "site"), options)
    context, tree = result.trees["torch/lib/chain_a.dll"]
    assert context == "torch preload"
    (chain_b,) = tree.children
    assert chain_b.resolution.location == str(tmp_path / "python" / "chain_b.dll")
    assert chain_b.resolution.reason == "PATH fallback, python.exe folder"
    (chain_c,) = chain_b.children
    assert chain_c.resolution.location == str(tmp_path / "path1" / "chain_c.dll")
    assert chain_c.resolution.reason == "PATH fallback, PATH"
    # What the fallback bound is what torch._C gets.
    _context, extension = result.trees["torch/_C.cp311-win_amd64.pyd"]
    bound = {n.resolution.name: n.resolution.location for n in _walk(extension)}
    assert bound["chain_b.dll"] == str(tmp_path / "python" / "chain_b.dll")
    assert result.errors == []


def test_torch_fallback_that_fails_lists_both_searches(pe_bin: Path, tmp_path: Path) -> None:
    lib = tmp_path / "site" / "torch" / "lib"
    _copy(pe_bin, lib, "x64/versioned.dll", "c10.dll")
    for name in ("chain_a.dll", "chain_b.dll"):
        _copy(pe_bin, lib, f"x64/{name}")
    result = scan_target(str(tmp_path / "site"), ScanOptions(python="3.11"))
    _context, tree = result.trees["torch/lib/chain_a.dll"]
    (chain_b,) = tree.children
    (chain_c,) = chain_b.children
    assert chain_c.resolution.status == "missing"
    first = ("torch\\lib", "<python.exe folder>", "torch\\lib", "System32")  # LoadLibraryExW(path, 0x1100)
    retry = ("<python.exe folder>", "System32", "torch\\lib")  # LoadLibraryW(path), torch\lib on PATH
    assert chain_c.resolution.considered == tuple(f"{folder}\\chain_c.dll" for folder in (*first, *retry))
    assert {(f.kind, f.dll) for f in result.errors} == {("missing-dll", "chain_c.dll")}


def test_delay_loaded_dll_without_the_name_is_a_warning(pe_bin: Path, tmp_path: Path) -> None:
    """Layout delay-load-missing-name. delay_user.dll loads; only the first call raises 0xC06D007F."""
    _copy(pe_bin, tmp_path / "pkg", "x64/delay_user.dll")
    _copy(pe_bin, tmp_path / "pkg", "x64/chain_c.dll")
    _copy(pe_bin, tmp_path / "python", "x64/chain_c.dll", "delayed_missing.dll")
    result = scan_target(str(tmp_path / "pkg"), ScanOptions(python="3.11", app_dir=str(tmp_path / "python")))
    assert result.errors == []
    (finding,) = result.findings
    assert (finding.kind, finding.severity, finding.dll, finding.symbol) == (
        "delay-load-missing",
        "warning",
        "delayed_missing.dll",
        "late_func",
    )
    assert "first call" in finding.message


def test_delay_loaded_dll_of_the_wrong_machine_is_a_warning(pe_bin: Path, tmp_path: Path) -> None:
    """Layout delay-load-wrong-machine: the importer loads; the delay-load helper fails at the first call."""
    _copy(pe_bin, tmp_path / "pkg", "x64/delay_user.dll")
    _copy(pe_bin, tmp_path / "pkg", "x64/chain_c.dll")
    _copy(pe_bin, tmp_path / "python", "x86/chain_c.dll", "delayed_missing.dll")
    result = scan_target(str(tmp_path / "pkg"), ScanOptions(python="3.11", app_dir=str(tmp_path / "python")))
    assert result.errors == []
    assert [(f.kind, f.severity) for f in result.findings] == [("delay-load-missing", "warning")]


def _walk(node):  # type: ignore[no-untyped-def]
    return node.walk()
