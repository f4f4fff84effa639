"""What real installs do, read from their own files: folders packages register, DLLs their host loaded,
DLLs a declared dependency brings, and files nothing loads into python.exe. Real wheels only."""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path

import pytest
import sweep

from dlldoctor.errors import InputError
from dlldoctor.install.registrations import read_registrations
from dlldoctor.install.sources import open_target
from dlldoctor.scan.result import ScanOptions
from dlldoctor.scan.target import scan_target

pytestmark = pytest.mark.wheels
PY311 = ScanOptions(python="3.11")


def wheel(name: str) -> Path:
    return sweep.fetch(next(w for w in sweep.wheels() if w.name == name))


def registrations(path: Path) -> set[tuple[str, str, str]]:
    source = open_target(str(path))
    try:
        found = read_registrations(source, [e.relpath for e in source.entries()], [""])
    finally:
        source.close()
    return {(r.scope, r.kind, r.path) for r in found}


def test_delvewheel_patch_registers_the_libs_folder() -> None:
    # numpy.libs sits beside numpy, outside it: once numpy is imported it serves every module.
    assert ("", "dll-directory", "numpy.libs") in registrations(wheel("numpy"))


def test_pywin32_pth_bootstrap_registers_pywin32_system32_for_every_module() -> None:
    assert ("", "dll-directory", "pywin32_system32") in registrations(wheel("pywin32"))


def test_ctypes_preload_of_the_first_existing_candidate() -> None:
    found = registrations(wheel("tables"))
    assert ("tables", "preload", "tables.libs/libblosc2.dll") in found
    assert ("tables", "preload", "tables/libblosc2.dll") not in found


def test_healthy_wheels_that_register_their_folders_have_no_error() -> None:
    for name in ("numpy", "pywin32", "tables", "pygame", "psycopg2-binary", "levenshtein"):
        result = scan_target(str(wheel(name)), PY311)
        assert [f.message for f in result.errors] == [], name


def test_qt_plugins_bind_the_qt_dlls_their_host_loaded() -> None:
    result = scan_target(str(wheel("pyqt5-qt5")), PY311)
    assert result.errors == []
    context, tree = result.trees["PyQt5/Qt5/plugins/sqldrivers/qsqlite.dll"]
    sql = next(n for n in tree.children if n.resolution.name.lower() == "qt5sql.dll")
    assert sql.resolution.status == "found"
    assert sql.resolution.reason == "loaded by its package: PyQt5\\Qt5\\bin"
    assert context == "loaded by full path"


def test_an_optional_sql_driver_needing_a_client_library_is_a_warning() -> None:
    result = scan_target(str(wheel("pyqt5-qt5")), PY311)
    libpq = [f for f in result.findings if (f.dll or "").lower() == "libpq.dll"]
    assert [(f.kind, f.severity) for f in libpq] == [("missing-dll", "warning")]


def test_a_dll_from_a_declared_dependency_is_info_when_scanned_alone() -> None:
    result = scan_target(str(wheel("torchvision")), PY311)
    torch = [f for f in result.findings if (f.dll or "").lower() == "torch_cpu.dll"]
    assert [(f.kind, f.severity) for f in torch] == [("missing-dll", "info")]
    assert "comes with torch, which torchvision requires" in torch[0].message


def test_a_dll_of_an_extra_is_a_warning() -> None:
    result = scan_target(str(wheel("kivy")), PY311)
    gst = {f.dll: f.severity for f in result.findings if (f.dll or "").lower().startswith("gstreamer")}
    assert gst == {"gstreamer-1.0-0.dll": "warning"}
    assert result.errors == []


def test_launchers_and_other_architectures_are_hints_not_errors() -> None:
    for name in ("setuptools", "sounddevice", "debugpy"):
        result = scan_target(str(wheel(name)), PY311)
        assert result.errors == [], name
        assert result.environment.machine == "x64", name
        assert {f.severity for f in result.findings if f.kind == "arch-mismatch"} <= {"info"}


def test_a_wheel_for_another_platform_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "demo-1.0-cp311-cp311-manylinux_2_17_x86_64.whl"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("demo/__init__.py", "")
    with pytest.raises(InputError, match="a wheel for manylinux_2_17_x86_64, not Windows"):
        scan_target(str(path), PY311)


def test_a_member_whose_crc_does_not_match_is_corrupt(pe_bin: Path, tmp_path: Path) -> None:
    path = tmp_path / "demo-1.0-cp311-cp311-win_amd64.whl"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(pe_bin / "x64" / "chain_c.dll", "demo/chain_c.dll")
    data = bytearray(path.read_bytes())
    for magic, at in ((b"PK\x03\x04", 14), (b"PK\x01\x02", 16)):
        offset = data.find(magic) + at
        struct.pack_into("<I", data, offset, struct.unpack_from("<I", data, offset)[0] ^ 1)
    path.write_bytes(bytes(data))
    result = scan_target(str(path), PY311)
    assert [(f.kind, f.severity, f.dll) for f in result.findings] == [
        ("corrupt-file", "error", "chain_c.dll")
    ]
    assert "CRC-32" in result.findings[0].message


def test_registration_reading_is_bounded_on_hostile_code(tmp_path: Path) -> None:
    """Names that double at every step would take 2**40 evaluations without the step budget."""
    package = tmp_path / "evil"
    package.mkdir()
    lines = ["import os", "n0 = 'x'"] + [f"n{i + 1} = n{i} + n{i}\nn{i + 1} = n{i} + '/'" for i in range(40)]
    lines.append("os.add_dll_directory(n40)")
    (package / "__init__.py").write_text("\n".join(lines))
    (package / "m.pyd").write_bytes(b"MZ" + b"\0" * 62)
    source = open_target(str(tmp_path))
    found = read_registrations(source, [e.relpath for e in source.entries()], [""])
    assert {(r.scope, r.path) for r in found} == {("evil", "evil")}  # unresolved: the package's folder


def test_a_ctypes_load_from_site_packages_is_found_through_sysconfig(tmp_path: Path) -> None:
    """tables' loader also looks in <site-packages>/blosc2/lib, named through sysconfig.get_path."""
    (tmp_path / "user").mkdir()
    (tmp_path / "blosc2" / "lib").mkdir(parents=True)
    (tmp_path / "blosc2" / "lib" / "libblosc2.dll").write_bytes(b"MZ" + b"\0" * 62)
    (tmp_path / "user" / "__init__.py").write_text(
        "import ctypes, sysconfig\nfrom pathlib import Path\n"
        "ctypes.CDLL(str(Path(sysconfig.get_path('platlib')) / 'blosc2' / 'lib' / 'libblosc2.dll'))\n"
    )
    (tmp_path / "user" / "m.pyd").write_bytes(b"MZ" + b"\0" * 62)
    source = open_target(str(tmp_path))
    found = read_registrations(source, [e.relpath for e in source.entries()], [""])
    assert {(r.scope, r.kind, r.path) for r in found} == {("user", "preload", "blosc2/lib/libblosc2.dll")}


def test_requirements_that_do_not_parse_or_evaluate_are_left_out() -> None:
    from dlldoctor.install.metadata import DistInfo, InstallFacts
    from dlldoctor.loader.packages import absent_dependencies, load_providers

    requires = ("y ; python_version > 'abc'", "z; extra == 'a' and os_name ~= 'nt'", "bad req !!", "w (>=1)")
    facts = InstallFacts(dist_infos=[DistInfo("x", "1", "x-1.dist-info", (), requires)])
    found = absent_dependencies(facts, (3, 11), load_providers())
    assert [(d.project, d.required_by, d.extra) for d in found] == [("w", "x", None)]


def test_a_tie_of_python_versions_is_decided_the_same_way_whatever_the_order() -> None:
    from itertools import permutations

    from dlldoctor.loader.environment import infer_python

    names = [
        "a.cp311-win_amd64.pyd",
        "b.cp312-win_amd64.pyd",
        "c.cp310-win_amd64.pyd",
        "d.cp310-win_amd64.pyd",
    ]
    answers = {infer_python(order, [])[0] for order in permutations(names)}
    assert answers == {(3, 10)}  # two votes
    tie = {infer_python(order, [])[0] for order in permutations(names[:2])}
    assert tie == {(3, 12)}  # one vote each: the newer
