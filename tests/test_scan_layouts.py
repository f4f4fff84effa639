"""Environment layouts: an env root with python.exe, conda's Library\\bin, delvewheel's .libs folder."""

from __future__ import annotations

import shutil
from pathlib import Path

from dlldoctor.scan.result import ScanOptions
from dlldoctor.scan.target import scan_target

CHAIN = ("chain_a.dll", "chain_b.dll", "chain_c.dll")


def put(src: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(src, dest)


def edge(result, relpath: str, name: str):
    _, tree = result.trees[relpath]
    stack = [tree]
    while stack:
        node = stack.pop()
        if node.resolution.name.lower() == name.lower() and node is not tree:
            return node.resolution
        stack.extend(node.children)
    raise AssertionError(f"{name} not in the tree of {relpath}")


def test_delvewheel_libs_folder_is_an_add_dll_directory(pe_bin: Path, tmp_path: Path) -> None:
    site = tmp_path / "site-packages"
    put(pe_bin / "x64" / "pymod.cp311-win_amd64.pyd", site / "pkg" / "pymod.cp311-win_amd64.pyd")
    for name in CHAIN:
        put(pe_bin / "x64" / name, site / "pkg.libs" / name)
    result = scan_target(str(site), ScanOptions(python="3.11"))
    assert result.findings == []
    assert (
        edge(result, "pkg/pymod.cp311-win_amd64.pyd", "chain_a.dll").reason == "add_dll_directory: pkg.libs"
    )
    shutil.rmtree(site / "pkg.libs")
    result = scan_target(str(site), ScanOptions(python="3.11"))
    assert [(f.kind, f.dll) for f in result.findings] == [("missing-dll", "chain_a.dll")]


def test_env_root_is_recognised_and_python_exe_folder_is_searched(pe_bin: Path, tmp_path: Path) -> None:
    root = tmp_path / "env"
    put(pe_bin / "x64" / "app.exe", root / "python.exe")
    for name in CHAIN:
        put(pe_bin / "x64" / name, root / name)
    (root / "pyvenv.cfg").write_text("home = C:\\Python311\n")
    put(
        pe_bin / "x64" / "pymod.cp311-win_amd64.pyd",
        root / "Lib" / "site-packages" / "pymod.cp311-win_amd64.pyd",
    )
    result = scan_target(str(root), ScanOptions())
    assert result.environment.env_type == "venv"
    assert result.environment.python == (3, 11)
    assert result.environment.app_dir is not None and result.environment.app_dir.label == "env"
    assert result.findings == []
    reason = edge(result, "Lib/site-packages/pymod.cp311-win_amd64.pyd", "chain_a.dll").reason
    assert reason == "python.exe folder"


def test_conda_library_bin_is_searched(pe_bin: Path, tmp_path: Path) -> None:
    root = tmp_path / "conda-env"
    put(pe_bin / "x64" / "app.exe", root / "python.exe")
    for name in CHAIN:
        put(pe_bin / "x64" / name, root / "Library" / "bin" / name)
    put(pe_bin / "x64" / "chain_a.dll", root / "chain_a.dll")
    (root / "conda-meta").mkdir()
    (root / "conda-meta" / "python-3.11.7-h0.json").write_text("{}")
    put(
        pe_bin / "x64" / "pymod.cp311-win_amd64.pyd",
        root / "Lib" / "site-packages" / "pymod.cp311-win_amd64.pyd",
    )
    result = scan_target(str(root), ScanOptions(python="3.11"))
    assert result.environment.env_type == "conda"
    pyd_findings = [f for f in result.findings if f.chain[0].endswith(".pyd")]
    assert pyd_findings == []
    assert (
        edge(result, "Lib/site-packages/pymod.cp311-win_amd64.pyd", "chain_b.dll").reason
        == "conda: Library\\bin"
    )


def test_dependent_load_flags_map_to_search_lists(pe_bin: Path, tmp_path: Path) -> None:
    """DependentLoadFlags use LoadLibraryEx's bits; each maps to the folders Microsoft documents."""
    from dlldoctor.cache.pe_facts import Catalog
    from dlldoctor.loader.environment import Folder
    from dlldoctor.loader.resolution import (
        APPLICATION_DIR,
        DEFAULT_DIRS,
        LOAD_DIR,
        SYSTEM32,
        USER_DIRS,
        Loader,
        Process,
        SearchDir,
    )

    result = scan_target(str(pe_bin / "x64" / "chain_b.dll"), ScanOptions(python="3.11"))
    loader = Loader(result.environment, Catalog(), {})
    entry = result.files[0].entry
    process = Process(user_dirs=[SearchDir(Folder("extra"), "add_dll_directory", "extra")])
    reasons = lambda flags: [d.reason for d in loader.flags_search(flags, entry, process)]  # noqa: E731
    assert reasons(SYSTEM32) == ["System32"]
    assert reasons(0x2000) == ["System32"]
    assert reasons(LOAD_DIR | SYSTEM32) == ["same folder", "System32"]
    assert reasons(DEFAULT_DIRS) == ["python.exe folder", "add_dll_directory: extra", "System32"]
    assert reasons(APPLICATION_DIR | USER_DIRS) == ["python.exe folder", "add_dll_directory: extra"]
