"""The built-in Windows profile: ``system_dlls`` is what scripts/generate_system_profile.py makes."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from dlldoctor.loader.sysprofile import SystemProfile, load_profile

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "generate_system_profile.py"
WINDOWS_YAML = ROOT / "rules" / "data" / "windows.yaml"

# Stock DLLs real wheels import that the hand-kept list once lacked (each was a false "missing").
STOCK = [
    "rstrtmgr.dll",
    "odbc32.dll",
    "usp10.dll",
    "avicap32.dll",
    "winscard.dll",
    "mmdevapi.dll",
    "evr.dll",
    "dxva2.dll",
    "webservices.dll",
]
# Redistributables and third-party DLLs: a system copy must never be assumed for them.
NOT_SYSTEM = [
    "msvcp140.dll",
    "vcruntime140.dll",
    "msvcr120.dll",
    "vcomp140.dll",
    "d3dx9_43.dll",
    "msmpi.dll",
    "libomp140.x86_64.dll",
    "cudart64_12.dll",
]


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_system_profile", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def profile() -> SystemProfile:
    return load_profile()


def test_committed_profile_is_what_the_generator_makes(tmp_path: Path) -> None:
    """Regenerating into a copy of windows.yaml changes nothing: the committed list cannot drift."""
    missing = generator().missing_sources()
    if missing:
        reason = "regenerating system_dlls needs " + "; ".join(missing)
        if os.environ.get("CI"):
            pytest.fail(reason + " (CI is set: this check must run)")
        pytest.skip(reason)
    copy = tmp_path / "windows.yaml"
    shutil.copyfile(WINDOWS_YAML, copy)
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--output", str(copy)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert copy.read_text(encoding="utf-8") == WINDOWS_YAML.read_text(encoding="utf-8"), (
        "rules/data/windows.yaml is not what `python scripts/generate_system_profile.py` makes from the "
        "installed sources; run it and review the change\n" + run.stdout
    )


@pytest.mark.parametrize("name", STOCK)
def test_stock_dll_is_in_the_profile(profile: SystemProfile, name: str) -> None:
    assert name in profile.system_dlls


@pytest.mark.parametrize("name", NOT_SYSTEM)
def test_redistributable_is_not_a_system_dll(profile: SystemProfile, name: str) -> None:
    assert name not in profile.system_dlls


def test_system_dlls_are_lower_case_sorted_and_apart_from_the_other_lists() -> None:
    import yaml

    data = yaml.safe_load(WINDOWS_YAML.read_text(encoding="utf-8"))
    names = data["system_dlls"]
    assert names == sorted({n.lower() for n in names})
    others = set(data["known_dlls"]) | set(data["vc_runtime"]) | set(data["driver_dlls"])
    assert not set(names) & others


def test_vc_runtime_lists_the_current_redistributable(profile: SystemProfile) -> None:
    """The 2015-2022 redistributable ships the threads runtime (14.4x+) and MFC 14."""
    for name in ("vcruntime140_threads.dll", "mfc140.dll", "mfc140u.dll", "mfcm140.dll", "mfcm140u.dll"):
        assert name in profile.vc_runtime
        assert name not in profile.system_dlls


def test_reviewed_lists_are_consistent() -> None:
    """Every addition has a reason, none is also excluded, and every exclusion is a valid pattern."""
    module = generator()
    for name, reason in module.ADDITIONS:
        assert name == name.lower() and reason
        assert module.exclusion_of(name) is None, name
    assert len({n for n, _ in module.ADDITIONS}) == len(module.ADDITIONS)
    assert module.exclusion_of("msvcrt.dll") is None
    assert module.exclusion_of("msvcp_win.dll") is None
    assert module.exclusion_of("d3dcompiler_47.dll") is None
    assert module.exclusion_of("xinput1_4.dll") is None
    for name in (
        "msvcp140_atomic_wait.dll",
        "mfc140u.dll",
        "d3dcompiler_43.dll",
        "xaudio2_7.dll",
        "winex11.drv",
    ):
        assert module.exclusion_of(name) is not None, name
