"""The committed PE fixtures in corpus/pe/bin match corpus/pe/MANIFEST.yaml exactly.

pefile is the independent reader here: these tests check the fixtures, not dlldoctor.
The rebuild tests run corpus/pe/build.py (needs mingw-w64) and compare the result.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pefile
import pytest
import yaml

PE_DIR = Path(__file__).resolve().parent.parent / "corpus" / "pe"
BIN = PE_DIR / "bin"
MANIFEST: dict[str, Any] = yaml.safe_load((PE_DIR / "MANIFEST.yaml").read_text(encoding="utf-8"))
FIXTURES: dict[str, dict[str, Any]] = MANIFEST["fixtures"]
PE_FIXTURES = sorted(k for k, v in FIXTURES.items() if v["kind"] != "corrupt")
CORRUPT_FIXTURES = sorted(k for k, v in FIXTURES.items() if v["kind"] == "corrupt")

MACHINES = {
    pefile.MACHINE_TYPE["IMAGE_FILE_MACHINE_AMD64"]: "x64",
    pefile.MACHINE_TYPE["IMAGE_FILE_MACHINE_I386"]: "x86",
}
TOOL_PREFIXES = ("x86_64-w64-mingw32-", "i686-w64-mingw32-")
LFS_POINTER = re.compile(
    r"version https://git-lfs\.github\.com/spec/v1\noid (sha256:[0-9a-f]{64})\nsize ([0-9]+)\n"
)


# --- reading a PE file into the manifest's terms -----------------------------------------


def _import_table(entries: list[Any]) -> dict[str, list[str | int]]:
    table: dict[str, list[str | int]] = {}
    for entry in entries:
        dll = entry.dll.decode("ascii")
        assert dll not in table, f"{dll} has two import descriptors"
        table[dll] = [
            imp.ordinal if imp.import_by_ordinal else imp.name.decode("ascii") for imp in entry.imports
        ]
    return table


def pe_facts(path: Path) -> dict[str, Any]:
    """The manifest fields of one PE file, as pefile reads them."""
    pe = pefile.PE(str(path), fast_load=False)
    try:
        facts: dict[str, Any] = {
            "machine": MACHINES.get(pe.FILE_HEADER.Machine, hex(pe.FILE_HEADER.Machine)),
            "kind": "dll" if pe.FILE_HEADER.Characteristics & 0x2000 else "exe",  # IMAGE_FILE_DLL
            "imports": _import_table(getattr(pe, "DIRECTORY_ENTRY_IMPORT", [])),
            "delay_imports": _import_table(getattr(pe, "DIRECTORY_ENTRY_DELAY_IMPORT", [])),
            "exports": [],
        }
        if hasattr(pe, "DIRECTORY_ENTRY_EXPORT"):
            export_dir = pe.DIRECTORY_ENTRY_EXPORT
            facts["export_dll_name"] = export_dir.name.decode("ascii")
            for sym in export_dir.symbols:
                export: dict[str, Any] = {"ordinal": sym.ordinal, "name": sym.name.decode("ascii")}
                if sym.forwarder is not None:
                    export["forward"] = sym.forwarder.decode("ascii")
                facts["exports"].append(export)
        return facts
    finally:
        pe.close()


def normalized(facts: dict[str, Any]) -> dict[str, Any]:
    """Import order within a DLL is the linker's business; everything else is compared as is."""
    out = dict(facts)
    for key in ("imports", "delay_imports"):
        for dll, names in out[key].items():
            assert len(names) == len(set(names)), f"{dll} imports a symbol twice: {names}"
        out[key] = {dll: sorted(names, key=repr) for dll, names in out[key].items()}
    return out


def expected_facts(entry: dict[str, Any]) -> dict[str, Any]:
    keys = ("machine", "kind", "imports", "delay_imports", "exports", "export_dll_name")
    return {k: entry[k] for k in keys if k in entry}


def load_build_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("corpus_pe_build", PE_DIR / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


# --- the committed files ----------------------------------------------------------------


def test_manifest_lists_exactly_the_committed_files() -> None:
    on_disk = sorted(p.relative_to(BIN).as_posix() for p in BIN.rglob("*") if p.is_file())
    assert on_disk == sorted(FIXTURES)


def test_manifest_entries_are_well_formed() -> None:
    defects = {"bad-mz", "bad-pe-signature", "truncated", "empty", "lfs-pointer", "not-pe"}
    for name, entry in FIXTURES.items():
        assert entry["kind"] in {"dll", "exe", "corrupt"}, name
        assert entry["machine"] in {"x64", "x86", None}, name
        if entry["kind"] == "corrupt":
            assert entry["defect"] in defects, name
        else:
            assert entry["machine"] == name.split("/")[0], name
            assert {"imports", "delay_imports", "exports"} <= entry.keys(), name


@pytest.mark.parametrize("name", PE_FIXTURES)
def test_pe_fixture_matches_manifest(name: str) -> None:
    entry = FIXTURES[name]
    assert normalized(pe_facts(BIN / name)) == normalized(expected_facts(entry))


@pytest.mark.parametrize("name", [k for k in PE_FIXTURES if "same_as" in FIXTURES[k]])
def test_copies_are_identical(name: str) -> None:
    assert (BIN / name).read_bytes() == (BIN / FIXTURES[name]["same_as"]).read_bytes()


def test_versioned_dll_version_resource() -> None:
    expected = FIXTURES["x64/versioned.dll"]["version"]
    pe = pefile.PE(str(BIN / "x64/versioned.dll"), fast_load=False)
    fixed = pe.VS_FIXEDFILEINFO[0]

    def dotted(ms: int, ls: int) -> str:
        return f"{ms >> 16}.{ms & 0xFFFF}.{ls >> 16}.{ls & 0xFFFF}"

    assert dotted(fixed.FileVersionMS, fixed.FileVersionLS) == expected["fixed_file_version"]
    assert dotted(fixed.ProductVersionMS, fixed.ProductVersionLS) == expected["fixed_product_version"]
    strings: dict[str, str] = {}
    for file_info in pe.FileInfo:
        for info in file_info:
            for table in getattr(info, "StringTable", []):
                strings.update({k.decode(): v.decode() for k, v in table.entries.items()})
    assert strings == expected["strings"]


# --- the corrupt files ------------------------------------------------------------------


def _parse_error(path: Path) -> str | None:
    """pefile's PEFormatError text, or None when pefile parses the file."""
    try:
        pefile.PE(str(path), fast_load=False).close()
    except pefile.PEFormatError as e:
        return str(e.value)
    return None


def _raw_end(path: Path) -> tuple[int, int]:
    """(end of the last section's raw data as the headers declare it, file size)."""
    pe = pefile.PE(str(path), fast_load=False)
    try:
        declared = max(s.PointerToRawData + s.SizeOfRawData for s in pe.sections)
        return declared, len(pe.__data__)
    finally:
        pe.close()


@pytest.mark.parametrize("name", CORRUPT_FIXTURES)
def test_corrupt_fixture_shows_its_defect(name: str) -> None:
    entry = FIXTURES[name]
    path = BIN / name
    data = path.read_bytes()
    error = _parse_error(path)
    defect = entry["defect"]
    if defect == "bad-mz":
        assert data[:2] != b"MZ"
        assert error == "DOS Header magic not found."
    elif defect == "bad-pe-signature":
        assert data[:2] == b"MZ"
        assert error == "Invalid NT Headers signature."
    elif defect == "truncated":
        assert data[:2] == b"MZ"
        if error is None:  # pefile reads the headers; the sections run past the end of the file
            declared, size = _raw_end(path)
            assert declared > size
    elif defect == "empty":
        assert data == b""
        assert error == "The file is empty"
    elif defect == "lfs-pointer":
        match = LFS_POINTER.fullmatch(data.decode("ascii"))
        assert match is not None
        assert (match[1], int(match[2])) == (entry["lfs"]["oid"], entry["lfs"]["size"])
        assert error == "DOS Header magic not found."
    elif defect == "not-pe":
        assert not data.startswith(b"MZ")
        assert error is not None
    else:
        pytest.fail(f"unknown defect {defect!r}")


def test_truncated_fixtures_fail_where_expected() -> None:
    # Cut inside the section table: pefile cannot read the headers at all.
    assert _parse_error(BIN / "corrupt/truncated_sections.dll") is not None
    # Cut to half: headers intact, section data missing.
    body = BIN / "corrupt/truncated_body.dll"
    assert _parse_error(body) is None
    declared, size = _raw_end(body)
    assert declared > size == (BIN / "x64/chain_c.dll").stat().st_size // 2


def test_corrupt_fixtures_are_what_build_py_derives_from_chain_c() -> None:
    build = load_build_module()
    derived = build.corrupt_variants((BIN / "x64/chain_c.dll").read_bytes())
    assert sorted(derived) == CORRUPT_FIXTURES
    for name, data in derived.items():
        assert (BIN / name).read_bytes() == data, name


# --- rebuilding -------------------------------------------------------------------------


def _first_line(cmd: list[str]) -> str:
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.splitlines()[0]


def local_toolchain() -> dict[str, str]:
    found: dict[str, str] = {}
    for prefix in TOOL_PREFIXES:
        triplet = prefix.rstrip("-")
        found[f"{prefix}gcc"] = _first_line([f"{prefix}gcc", "--version"])
        found[f"{prefix}ld"] = _first_line([f"{prefix}ld", "--version"])
        lib = _first_line([f"{prefix}gcc", "-print-file-name=libkernel32.a"])
        found[f"{triplet} libkernel32.a sha256"] = hashlib.sha256(Path(lib).read_bytes()).hexdigest()
    return found


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    missing = [tool for tool in load_build_module().required_tools() if shutil.which(tool) is None]
    if missing:
        pytest.skip(
            f"mingw-w64 is not installed ({', '.join(missing)} not on PATH); "
            "Debian: apt-get install gcc-mingw-w64-x86-64 gcc-mingw-w64-i686"
        )
    out = tmp_path_factory.mktemp("pe-rebuild")
    subprocess.run(
        [sys.executable, str(PE_DIR / "build.py"), "--out", str(out)],
        check=True,
        capture_output=True,
        text=True,
    )
    return out


def test_rebuild_has_the_same_imports_and_exports(rebuilt: Path) -> None:
    assert sorted(p.relative_to(rebuilt).as_posix() for p in rebuilt.rglob("*") if p.is_file()) == sorted(
        FIXTURES
    )
    for name in PE_FIXTURES:
        assert normalized(pe_facts(rebuilt / name)) == normalized(pe_facts(BIN / name)), name
    for name in CORRUPT_FIXTURES:
        assert _parse_error(rebuilt / name) == _parse_error(BIN / name), name


def test_rebuild_is_byte_identical_with_the_recorded_toolchain(rebuilt: Path) -> None:
    local = local_toolchain()
    if local != MANIFEST["toolchain"]:
        pytest.skip(f"local mingw-w64 differs from the one in MANIFEST.yaml: {local}")
    for name in FIXTURES:
        assert (rebuilt / name).read_bytes() == (BIN / name).read_bytes(), name
