"""The false-alarm sweep: real, healthy wheels and whole site-packages trees report only their real errors.

Each wheel of corpus/sweep/wheels.yaml (the CI sample, or all of them with ``DLLDOCTOR_SWEEP=full``) and
each stack of corpus/sweep/stacks.yaml is scanned as ``dlldoctor scan TARGET --python 3.11`` would, with the
built-in rules. Its errors — the (kind, DLL) of every error-level finding and the rule id of every
error-level confirmed diagnosis — must be exactly the ``expected_errors`` documented beside it, each with
its reason and how it was verified: empty for a healthy target.

An entry of ``expected_errors`` is ``"<finding kind> <dll>"`` (``"missing-dll hdf5.dll"``) or
``"confirmed <rule id>"``, an error the scan must report. A real fault the scan reports below error (a
plugin that loads only on demand) is documented with its severity first (``"warning missing-dll
hdf5.dll"``): it must still be reported, at that severity, so that no real fault goes unseen.

Stacks are read from the wheel cache (``stacks/<name>/site-packages``); in CI (``CI`` set) a missing one is
installed there with uv from its pinned versions, as pip would install it on 64-bit Windows. CI builds
and scans the ``CI_STACKS`` only; ``DLLDOCTOR_SWEEP=full`` runs every stack:

    DLLDOCTOR_SWEEP=full python -m pytest tests/test_sweep.py
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sweep
import yaml
from wheelcache import CACHE

from dlldoctor.diagnose.verdicts import DiagnoseWithRules
from dlldoctor.scan.result import ScanOptions
from dlldoctor.scan.target import scan_target

pytestmark = pytest.mark.wheels

# The stacks CI installs and scans without DLLDOCTOR_SWEEP=full: the two smallest (≈ 170 and 390 MB).
CI_STACKS = ("databases", "gis")


@dataclass(frozen=True)
class SweepStack:
    name: str
    path: Path
    pinned: tuple[str, ...]
    expected: tuple[str, ...]


def stacks() -> list[SweepStack]:
    data = yaml.safe_load((sweep.SWEEP / "stacks.yaml").read_text(encoding="utf-8"))
    return [
        SweepStack(name, CACHE / s["path"], tuple(s["pinned"]), tuple(s.get("expected_errors") or ()))
        for name, s in data["stacks"].items()
    ]


def sampled_stacks() -> list[SweepStack]:
    every = stacks()
    if sweep.FULL or not os.environ.get("CI"):
        return every  # locally: every stack that is present (the others skip)
    return [s for s in every if s.name in CI_STACKS]


def reported(target: Path) -> tuple[dict[str, set[str]], dict[str, str]]:
    """Everything the scan reports, as ``expected_errors`` spells it: key → the severities it is reported
    at, and key → a readable line (the chain and message, or the diagnosis's evidence)."""
    result = scan_target(str(target), ScanOptions(python="3.11"))
    DiagnoseWithRules()([result])
    severities: dict[str, set[str]] = {}
    lines: dict[str, str] = {}
    for finding in result.findings:
        key = f"{finding.kind} {(finding.dll or '').lower()}"
        severities.setdefault(key, set()).add(finding.severity)
        lines.setdefault(key, f"{' → '.join(finding.chain)}: {finding.message}")
    for diagnosis in result.diagnoses:
        if diagnosis.verdict == "confirmed":
            key = f"confirmed {diagnosis.rule.id}"
            severities.setdefault(key, set()).add(diagnosis.rule.severity)
            lines.setdefault(key, "; ".join(diagnosis.evidence)[:300])
    return severities, lines


def documented(expected: tuple[Any, ...]) -> dict[str, str]:
    """``expected_errors`` as key → severity: ``"<kind> <name>"`` is an error; a leading ``warning`` or
    ``info`` documents a real fault the scan reports at that severity (a plugin loaded on demand)."""
    out = {}
    for item in expected:
        words = str(item).split()
        severity = words.pop(0) if words[0] in ("warning", "info") else "error"
        kind, name = words
        out[f"{kind} {name if kind == 'confirmed' else name.lower()}"] = severity
    return out


def check(label: str, target: Path, expected: tuple[Any, ...]) -> None:
    severities, lines = reported(target)
    wanted = documented(expected)
    errors = {key for key, found in severities.items() if "error" in found}
    unexpected = sorted(errors - {key for key, severity in wanted.items() if severity == "error"})
    lost = sorted(key for key, severity in wanted.items() if severity not in severities.get(key, set()))
    assert not unexpected and not lost, (
        f"{label}: {len(unexpected)} errors not documented in corpus/sweep, "
        f"{len(lost)} documented errors not reported at their severity\n"
        + "\n".join(f"  unexpected {key}: {lines[key]}" for key in unexpected)
        + "".join(
            f"\n  not found  {wanted[key]} {key} (reported: {', '.join(sorted(severities.get(key, ()))) or 'no'})"
            for key in lost
        )
    )


@pytest.mark.parametrize("wheel", sweep.sample(), ids=lambda w: w.spec)
def test_wheel_reports_only_its_documented_errors(wheel: sweep.SweepWheel) -> None:
    check(wheel.spec, sweep.fetch(wheel), wheel.expected)


@pytest.mark.parametrize("stack", sampled_stacks(), ids=lambda s: s.name)
def test_stack_reports_only_its_documented_errors(stack: SweepStack) -> None:
    check(f"stack {stack.name}", installed(stack), stack.expected)


def installed(stack: SweepStack) -> Path:
    """The stack's site-packages: from the cache, or (in CI) installed there from its pinned versions."""
    if stack.path.is_dir():
        return stack.path
    if not os.environ.get("CI"):
        pytest.skip(f"stack {stack.name} is not installed at {stack.path} (CI installs it with uv)")
    building = stack.path.with_name(stack.path.name + ".partial")
    shutil.rmtree(building, ignore_errors=True)
    command = [
        *_uv(), "pip", "install", "--target", str(building), "--python-platform", "x86_64-pc-windows-msvc",
        "--python-version", "3.11", "--only-binary", ":all:", "--no-deps", "--quiet", *stack.pinned,
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.fail(f"cannot install stack {stack.name}: {done.stderr.strip()[-2000:]}")
    building.rename(stack.path)
    return stack.path


def _uv() -> list[str]:
    """The uv command: on PATH, else the module of the uv package (installed from the index if needed)."""
    found = shutil.which("uv")
    if found:
        return [found]
    probe = subprocess.run([sys.executable, "-m", "uv", "--version"], capture_output=True, check=False)
    if probe.returncode != 0:
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "uv"], check=True
        )
    return [sys.executable, "-m", "uv"]
