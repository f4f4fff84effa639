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


def test_forwarder_loops_and_overlong_chains_do_not_bind(pe_bin: Path) -> None:
    """a.f -> b.f -> a.f never ends: the loader cannot bind it, so neither does the model."""
    from dataclasses import replace

    from dlldoctor.install.sources import Entry
    from dlldoctor.loader.environment import Folder
    from dlldoctor.loader.resolution import MAX_FORWARDS, Loader, Process, SearchDir
    from dlldoctor.pe.model import Import, PEImage

    result = scan_target(str(pe_bin / "x64" / "chain_c.dll"), ScanOptions(python="3.11"))
    base = result.files[0].facts
    assert isinstance(base, PEImage)
    origin = result.files[0].entry.origin

    def image(forwards: dict[str, str]) -> PEImage:
        return replace(base, exports=frozenset(forwards), forwarders=tuple(sorted(forwards.items())))

    images = {
        "a.dll": image({"f": "b.f"}),
        "b.dll": image({"f": "a.f"}),
        **{f"c{i}.dll": image({"g": f"c{i + 1}.g"}) for i in range(MAX_FORWARDS + 1)},
        f"c{MAX_FORWARDS + 1}.dll": replace(base, exports=frozenset({"g"}), forwarders=()),
    }
    entries = {name: Entry(name, name, 1, origin) for name in images}

    class Facts:
        def facts(self, entry: Entry) -> PEImage:
            return images[entry.relpath]

        image = facts

    loader = Loader(result.environment, Facts(), {})  # type: ignore[arg-type]
    search = (SearchDir(Folder("here", entries), "same folder"),)
    process = Process()
    assert loader.missing_symbols(Import("a.dll", ("f",)), images["a.dll"], search, process) == (
        "f (forwarded to b.f)",
    )
    assert loader.missing_symbols(Import("c0.dll", ("g",)), images["c0.dll"], search, process) == (
        "g (forwarded to c1.g)",
    )
    # a short chain to the same end binds: d.h -> c17.g, which c17 exports itself
    short = {"d.dll": image({"h": f"c{MAX_FORWARDS + 1}.g"})}
    images.update(short)
    entries.update({"d.dll": Entry("d.dll", "d.dll", 1, origin)})
    search = (SearchDir(Folder("here", entries), "same folder"),)
    assert loader.missing_symbols(Import("d.dll", ("h",)), images["d.dll"], search, process) == ()
