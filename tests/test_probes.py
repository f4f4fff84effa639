"""Each probe on the small fixtures: yes, no, or unknown, with evidence."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pefiles import copy_fixtures as copy

from dlldoctor.diagnose.probe_context import ProbeContext
from dlldoctor.diagnose.probes import answer
from dlldoctor.kb.families import families_from_data
from dlldoctor.kb.model import Probe
from dlldoctor.resources import load_data
from dlldoctor.scan.result import ScanOptions
from dlldoctor.scan.target import scan_target

FAMILIES = families_from_data(load_data("families"))


def probe(probe_kind: str, expect: object = False, **args: object) -> Probe:
    return Probe(probe_kind, tuple(sorted(args.items())), expect)  # type: ignore[arg-type]


def ask(folder: Path, p: Probe, **options: object):
    result = scan_target(str(folder), ScanOptions(**{"python": "3.11", **options}))  # type: ignore[arg-type]
    return answer(ProbeContext(result, FAMILIES), p)


def test_dll_resolves(pe_bin: Path, tmp_path: Path) -> None:
    broken = copy(pe_bin, tmp_path / "b", "chain_a.dll", "chain_b.dll")
    healthy = copy(pe_bin, tmp_path / "h", "chain_a.dll", "chain_b.dll", "chain_c.dll")
    assert ask(broken, probe("dll-resolves", dll="chain_c.dll")).value is False
    assert ask(healthy, probe("dll-resolves", dll="chain_c.dll")).value is True
    unknown = ask(healthy, probe("dll-resolves", dll="cudart64_12.dll"))
    assert unknown.value is None and unknown.collect


def test_dll_resolves_only_through_path(pe_bin: Path, tmp_path: Path) -> None:
    site = copy(pe_bin, tmp_path / "site", "pymod.cp311-win_amd64.pyd", "chain_a.dll", "chain_b.dll")
    on_path = copy(pe_bin, tmp_path / "path", "chain_c.dll")
    # Python 3.11 does not search PATH: the DLL is missing for the extension, yet it is on PATH.
    modern = ask(site, probe("dll-resolves", expect=True, context="path"), path=(str(on_path),))
    assert modern.value is True
    assert modern.evidence == (
        f"chain_c.dll is not found by the loader but is on PATH: {on_path / 'chain_c.dll'}",
    )
    assert ask(site, probe("dll-resolves", expect=True, context="path")).value is None
    elsewhere = copy(pe_bin, tmp_path / "elsewhere", "chain_a.dll")
    assert (
        ask(site, probe("dll-resolves", expect=True, context="path"), path=(str(elsewhere),)).value is False
    )


def test_symbol_exported(pe_bin: Path, tmp_path: Path) -> None:
    folder = copy(pe_bin, tmp_path / "t", "needs_symbol.dll", "chain_c.dll")
    no = ask(folder, probe("symbol-exported", dll="chain_c.dll"))
    assert no.value is False and "c_func_missing" in no.evidence[0]
    scoped = ask(folder, probe("symbol-exported", dll="chain_c.dll", symbol="^other_"))
    assert scoped.value is True
    healthy = copy(pe_bin, tmp_path / "h", "chain_b.dll", "chain_c.dll")
    assert ask(healthy, probe("symbol-exported", dll="chain_c.dll")).value is True
    assert ask(healthy, probe("symbol-exported", family="vc-runtime")).value is None


def test_machine_matches(pe_bin: Path, tmp_path: Path) -> None:
    folder = copy(pe_bin, tmp_path / "t", "pymod.cp311-win_amd64.pyd", "chain_a.dll", "chain_b.dll")
    shutil.copy(pe_bin / "x86" / "chain_c.dll", folder / "chain_c.dll")
    assert ask(folder, probe("machine-matches", subject="dependency")).value is False
    assert ask(pe_bin / "x64", probe("machine-matches")).value is True


def test_file_intact_with_record(pe_bin: Path, tmp_path: Path) -> None:
    import base64
    import hashlib

    site = copy(pe_bin, tmp_path / "site" / "pkg", "chain_c.dll", "chain_b.dll").parent
    dist = site / "pkg-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Name: pkg\nVersion: 1.0\n")
    rows = []
    for name in ("chain_c.dll", "chain_b.dll", "chain_a.dll"):
        data = (pe_bin / "x64" / name).read_bytes()
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        rows.append(f"pkg/{name},sha256={digest},{len(data)}")
    (dist / "RECORD").write_text("\n".join(rows) + "\n")
    absent = ask(site, probe("file-intact", checks="present"))
    assert (
        absent.value is False
        and "pkg/chain_a.dll is listed in pkg-1.0.dist-info/RECORD but absent" in absent.evidence
    )
    shutil.copy(pe_bin / "x64" / "chain_a.dll", site / "pkg" / "chain_a.dll")
    assert ask(site, probe("file-intact")).value is True
    (site / "pkg" / "chain_b.dll").write_bytes((pe_bin / "x64" / "chain_c.dll").read_bytes())
    changed = ask(site, probe("file-intact", checks="record-hash"))
    assert changed.value is False and changed.evidence == (
        "pkg/chain_b.dll differs from the sha256 in pkg-1.0.dist-info/RECORD",
    )


def test_file_intact_on_corrupt_pe(pe_bin: Path) -> None:
    result = ask(pe_bin / "corrupt", probe("file-intact", checks="pe"))
    assert result.value is False
    assert len(result.evidence) == 7


def test_mixed_install_two_dist_infos(pe_bin: Path, tmp_path: Path) -> None:
    site = copy(pe_bin, tmp_path / "site" / "torch" / "lib", "chain_c.dll").parents[1]
    for version in ("2.12.0", "2.13.0"):
        dist = site / f"torch-{version}.dist-info"
        dist.mkdir()
        (dist / "METADATA").write_text(f"Name: torch\nVersion: {version}\n")
    result = ask(site, probe("mixed-install", expect=True, kind="dist-info"))
    assert result.value is True and result.evidence == ("2 installed versions of torch: 2.12.0, 2.13.0",)


def test_duplicate_dll(pe_bin: Path, tmp_path: Path) -> None:
    """A copy next to python.exe is found before the package's own, in a folder searched later."""
    site = copy(pe_bin, tmp_path / "site" / "pkg", "chain_b.dll").parent
    copy(pe_bin, site / "pkg" / "lib", "chain_c.dll")
    app_dir = copy(pe_bin, tmp_path / "python", "chain_c.dll")
    shadowed = ask(site, probe("duplicate-dll", expect=True, dll="chain_c.dll"), app_dir=str(app_dir))
    assert shadowed.value is True
    assert shadowed.evidence[-1] == (
        f"chain_b.dll binds chain_c.dll at {app_dir / 'chain_c.dll'} [python.exe folder], "
        f"not the copy at {site / 'pkg' / 'lib' / 'chain_c.dll'}"
    )
    # A copy on PATH, which Python >= 3.8 does not search, shadows nothing.
    assert (
        ask(site, probe("duplicate-dll", expect=True, dll="chain_c.dll"), path=(str(app_dir),)).value is False
    )


def test_python_abi(pe_bin: Path, tmp_path: Path) -> None:
    folder = copy(
        pe_bin, tmp_path / "t", "pymod.cp311-win_amd64.pyd", "chain_a.dll", "chain_b.dll", "chain_c.dll"
    )
    assert ask(folder, probe("python-abi")).value is True
    wrong = ask(folder, probe("python-abi"), python="3.12")
    assert wrong.value is False
    assert set(wrong.evidence) == {
        "pymod.cp311-win_amd64.pyd is built for Python 3.11",
        "pymod.cp311-win_amd64.pyd imports python311.dll",
    }


@pytest.mark.parametrize(("name", "value"), [("chain_c.dll", True), ("ünïcode.dll", False)])
def test_path_ascii(pe_bin: Path, tmp_path: Path, name: str, value: bool) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    shutil.copy(pe_bin / "x64" / "chain_c.dll", folder / name)
    assert ask(folder, probe("path-ascii")).value is value


def test_environment_and_cuda_build_qualifiers(pe_bin: Path, tmp_path: Path) -> None:
    site = copy(pe_bin, tmp_path / "site" / "torch" / "lib", "chain_c.dll").parents[1]
    assert ask(site, probe("cuda-build", expect="cpu", package="torch")).value == "cpu"
    assert ask(site, probe("environment", expect=True, env="conda")).value is None


def test_vcruntime_version_unknown_without_a_copy(pe_bin: Path) -> None:
    result = ask(pe_bin / "x64" / "ucrt_user.dll", probe("vcruntime-version"))
    assert result.value is None
    assert "--system-dir" in (result.collect or "")


def renamed_import(pe_bin: Path, dest: Path, new_name: bytes) -> Path:
    """needs_missing.dll with its import of does_not_exist.dll renamed in place (same length or shorter)."""
    data = (pe_bin / "x64" / "needs_missing.dll").read_bytes()
    old = b"does_not_exist.dll\0"
    assert data.count(old) == 1 and len(new_name) < len(old)
    dest.write_bytes(data.replace(old, new_name.ljust(len(old), b"\0")))
    return dest


def test_cuda_major(pe_bin: Path, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    renamed_import(pe_bin, folder / "uses_cuda.dll", b"cudart64_12.dll")
    shutil.copy(pe_bin / "x64" / "chain_c.dll", folder / "cudart64_13.dll")
    wrong = ask(folder, probe("cuda-major", family="cuda-runtime"))
    assert wrong.value is False
    assert wrong.evidence == (
        "cudart64_12.dll (cuda 12) is linked but absent; present instead: cudart64_13.dll",
    )
    shutil.copy(pe_bin / "x64" / "chain_c.dll", folder / "cudart64_12.dll")
    assert ask(folder, probe("cuda-major", family="cuda-runtime")).value is True
    assert ask(pe_bin / "x64", probe("cuda-major")).value is None


def test_cuda_version_mismatch_is_diagnosed(pe_bin: Path, tmp_path: Path) -> None:
    from dlldoctor.diagnose.verdicts import DiagnoseWithRules

    folder = tmp_path / "t"
    folder.mkdir()
    renamed_import(pe_bin, folder / "uses_cuda.dll", b"cudart64_12.dll")
    shutil.copy(pe_bin / "x64" / "chain_c.dll", folder / "cudart64_13.dll")
    result = scan_target(str(folder), ScanOptions(python="3.11"))
    DiagnoseWithRules()([result])
    assert result.diagnoses[0].rule.category == "cuda-version-mismatch"


def test_mixed_install_conda_and_pip_claim_the_same_dll(pe_bin: Path, tmp_path: Path) -> None:
    root = tmp_path / "env"
    site = root / "Lib" / "site-packages"
    copy(pe_bin, site / "pkg", "chain_c.dll")
    shutil.copy(pe_bin / "x64" / "app.exe", root / "python.exe")
    dist = site / "pkg-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Name: pkg\nVersion: 1.0\n")
    (dist / "RECORD").write_text("pkg/chain_c.dll,,\n")
    (root / "conda-meta").mkdir()
    (root / "conda-meta" / "pkg-0.9-h0.json").write_text('{"files": ["Lib/site-packages/pkg/chain_c.dll"]}')
    both = ask(root, probe("mixed-install", expect=True, kind="conda-pip"))
    assert both.value is True
    assert both.evidence == (
        "1 DLLs claimed by both pip and conda (pkg-0.9-h0), e.g. lib/site-packages/pkg/chain_c.dll",
    )
    (root / "conda-meta" / "pkg-0.9-h0.json").write_text('{"files": ["Lib/site-packages/other/x.dll"]}')
    assert ask(root, probe("mixed-install", expect=True, kind="conda-pip")).value is False


def openmp_user(pe_bin: Path, folder: Path, runtime: bytes, *copies: str) -> Path:
    """A package folder with a DLL that imports ``runtime`` and the copies of it named ``copies``."""
    folder.mkdir(parents=True)
    if len(runtime) < 19:
        renamed_import(pe_bin, folder / "uses_openmp.dll", runtime)
    else:  # a longer name takes the place of ucrt_user.dll's import of the UCRT API set
        data = (pe_bin / "x64" / "ucrt_user.dll").read_bytes()
        old = b"api-ms-win-crt-runtime-l1-1-0.dll\0"
        assert data.count(old) == 1 and len(runtime) < len(old)
        (folder / "uses_openmp.dll").write_bytes(data.replace(old, runtime.ljust(len(old), b"\0")))
    for name in copies:
        shutil.copy(pe_bin / "x64" / "chain_c.dll", folder / name)
    return folder


def test_same_name_openmp_copies_found_by_search_are_one_runtime(pe_bin: Path, tmp_path: Path) -> None:
    """Three vcomp140.dll, each bound by its own package: the first loaded serves every later import."""
    for package in ("sklearn/.libs", "PySide6", "shiboken6"):
        openmp_user(pe_bin, tmp_path / "site" / package, b"vcomp140.dll", "vcomp140.dll")
    result = ask(tmp_path / "site", probe("duplicate-dll", expect=True, family="openmp"))
    assert result.value is False
    # A System32 copy the profile only assumes is not a second copy.
    alone = ask(tmp_path / "site" / "PySide6", probe("duplicate-dll", expect=True, dll="vcomp140.dll"))
    assert alone.value is False


def test_different_openmp_runtimes_are_no_duplicate(pe_bin: Path, tmp_path: Path) -> None:
    openmp_user(pe_bin, tmp_path / "site" / "sklearn", b"vcomp140.dll", "vcomp140.dll")
    openmp_user(pe_bin, tmp_path / "site" / "ctranslate2", b"libiomp5md.dll", "libiomp5md.dll")
    assert ask(tmp_path / "site", probe("duplicate-dll", expect=True, family="openmp")).value is False


def test_openmp_copies_under_two_names_are_both_loaded(pe_bin: Path, tmp_path: Path) -> None:
    """delvewheel's renamed libiomp5md-<hash>.dll and a plain libiomp5md.dll are two modules in one process."""
    openmp_user(pe_bin, tmp_path / "site" / "a", b"libiomp5md.dll", "libiomp5md.dll")
    openmp_user(pe_bin, tmp_path / "site" / "b.libs", b"libiomp5md-0a1b2c3d.dll", "libiomp5md-0a1b2c3d.dll")
    result = ask(tmp_path / "site", probe("duplicate-dll", expect=True, family="openmp"))
    assert result.value is True
    assert result.evidence[0].startswith("2 copies of libiomp5md.dll loaded in one process: ")


def test_openmp_copy_nothing_loads_is_not_loaded(pe_bin: Path, tmp_path: Path) -> None:
    """A same-name copy that no module imports and no package loads stays on disk: one runtime is loaded.
    (torch's preload by full path beside a copy bound by search is in test_verdicts.py, on real files.)"""
    openmp_user(pe_bin, tmp_path / "site" / "a", b"libiomp5md.dll", "libiomp5md.dll")
    (tmp_path / "site" / "b").mkdir()
    shutil.copy(pe_bin / "x64" / "chain_c.dll", tmp_path / "site" / "b" / "libiomp5md.dll")
    result = ask(tmp_path / "site", probe("duplicate-dll", expect=True, dll="libiomp5md.dll"))
    assert result.value is False


def test_duplicate_dll_of_a_shared_runtime_counts_every_reachable_copy(pe_bin: Path, tmp_path: Path) -> None:
    """Outside OpenMP, a duplicate is a shadowing risk: the assumed System32 copy is the one shadowed."""
    folder = tmp_path / "t"
    folder.mkdir()
    renamed_import(pe_bin, folder / "uses_runtime.dll", b"msvcp140.dll")
    shutil.copy(pe_bin / "x64" / "chain_c.dll", folder / "msvcp140.dll")
    result = ask(folder, probe("duplicate-dll", expect=True, family="vc-runtime"))
    assert result.value is True
    assert "System32\\msvcp140.dll (assumed: VC++ Redistributable)" in result.evidence[0]


def test_a_confirmed_rule_is_only_as_severe_as_its_findings(pe_bin: Path, tmp_path: Path, rule_set) -> None:
    """A missing DLL the scan reports as a warning (a plugin, a load by full path) confirms the rule, but
    as a warning at most; a hint, as a hint."""
    from dataclasses import replace

    from dlldoctor.diagnose.verdicts import probe_rule

    broken = copy(pe_bin, tmp_path / "b", "pymod.cp311-win_amd64.pyd", "chain_a.dll", "chain_b.dll")
    result = scan_target(str(broken), ScanOptions(python="3.11"))
    assert [(f.kind, f.severity) for f in result.findings] == [("missing-dll", "error")]
    rule = replace(
        rule_set.get("cusparse-needs-nvjitlink"), probes=(probe("dll-resolves", dll="chain_c.dll"),)
    )
    assert rule.severity == "error"
    confirmed = probe_rule(ProbeContext(result, FAMILIES), rule)
    assert (confirmed.verdict, confirmed.rule.severity) == ("confirmed", "error")
    for severity in ("warning", "info"):
        result.findings = [replace(f, severity=severity) for f in result.findings]
        lowered = probe_rule(ProbeContext(result, FAMILIES), rule)
        assert (lowered.verdict, lowered.rule.severity) == ("confirmed", severity)


def test_a_rule_about_one_module_needs_that_module(pe_bin: Path, tmp_path: Path, rule_set) -> None:
    """onnxruntime-import-126-vcredist recognises the import of onnxruntime_pybind11_state: a runtime
    missing elsewhere does not confirm it."""
    from dlldoctor.diagnose.verdicts import probe_rule

    rule = rule_set.get("onnxruntime-import-126-vcredist")
    for package, verdict in (("other", "unknown"), ("onnxruntime/capi", "confirmed")):
        site = tmp_path / package.split("/")[0]
        (tmp_path / package).mkdir(parents=True)
        module = "onnxruntime_pybind11_state" if package != "other" else "fast"
        renamed_import(pe_bin, tmp_path / package / f"{module}.cp311-win_amd64.pyd", b"msvcr120.dll")
        result = scan_target(str(site), ScanOptions(python="3.11"))
        probed = probe_rule(ProbeContext(result, FAMILIES), rule)
        assert probed.verdict == verdict
    assert probed.rule.severity == "error"


def test_a_system_folder_on_path_is_system32_not_path(pe_bin: Path, tmp_path: Path) -> None:
    """Every real PATH holds System32: a DLL there is found as the loader finds it, before PATH."""
    site = copy(pe_bin, tmp_path / "site", "pymod.cp311-win_amd64.pyd", "chain_a.dll", "chain_b.dll")
    system = copy(pe_bin, tmp_path / "System32", "chain_c.dll")
    for core in ("ntdll.dll", "kernel32.dll"):
        shutil.copy(pe_bin / "x64" / "chain_c.dll", system / core)
    result = scan_target(str(site), ScanOptions(python="3.11", path=(str(system),)))
    # (the stand-in ntdll/kernel32 lack the real exports: only chain_c.dll's own link is the point)
    assert [f for f in result.findings if f.dll == "chain_c.dll"] == []
    assert result.environment.path_dirs == () and result.environment.system_dir is not None
    assert (
        f"{system}: a Windows system folder on PATH, searched as System32" in result.environment.assumptions
    )
    on_path = ask(site, probe("dll-resolves", expect=True, context="path"), path=(str(system),))
    assert on_path.value is None  # no PATH folder left to look in
    plain = copy(pe_bin, tmp_path / "plain", "chain_c.dll")  # the same DLL in an ordinary PATH folder
    assert ask(site, probe("dll-resolves", expect=True, context="path"), path=(str(plain),)).value is True
