"""The live probe's plan, played by the Wine harness: the codes it gets are the ones the probe reads.

For each fixture layout, dlldoctor's scan gives the plan (``diagnose.doctor.probe_plan``: the folders
to add, then every DLL of the package leaves first, loaded with CPython's extension flags 0x1100); the
harness (tests/wine, playing python.exe) performs exactly those calls under Wine. Each call's code must
be the one stated, and the harness's results, read as probe records, must give the failure the doctor
reports. Wine binds a stub for a missing export, so a 127 cannot be checked here (tests/test_doctor.py
checks it on the fake Windows).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from wine import runner

from dlldoctor.diagnose.doctor import LiveFailure, live_failures, probe_plan
from dlldoctor.scan.result import ScanOptions
from dlldoctor.scan.target import scan_target

pytestmark = pytest.mark.wine

PYD = "pymod.cp311-win_amd64.pyd"
# layout: files (destination under site/ → fixture), the code of each call in plan order, the failure
LAYOUTS = {
    "healthy": (
        {f"pkg/{PYD}": "x64/" + PYD, **{f"pkg.libs/{n}": f"x64/{n}" for n in ("chain_a.dll", "chain_b.dll", "chain_c.dll")}},
        {"chain_c.dll": 0, "chain_b.dll": 0, "chain_a.dll": 0, PYD: 0},
        None,
    ),
    "missing leaf": (
        {f"pkg/{PYD}": "x64/" + PYD, **{f"pkg.libs/{n}": f"x64/{n}" for n in ("chain_a.dll", "chain_b.dll")}},
        {"chain_b.dll": 126, "chain_a.dll": 126, PYD: 126},
        ("chain_b.dll", 126, "chain_c.dll"),
    ),
    "32-bit leaf": (
        {f"pkg/{PYD}": "x64/" + PYD, "pkg.libs/chain_c.dll": "x86/chain_c.dll",
         **{f"pkg.libs/{n}": f"x64/{n}" for n in ("chain_a.dll", "chain_b.dll")}},
        # Loaded by full path the 32-bit file fails with 193, as on Windows; searched for as a dependency,
        # Wine skips it and reports 126 where Windows fails with 193 (layouts.DIFFERENCES
        # "wrong-machine-skip"): the probe's first failed call, the one it reports, is the same on both.
        {"chain_c.dll": 193, "chain_b.dll": 126, "chain_a.dll": 126, PYD: 126},
        ("chain_c.dll", 193, None),
    ),
}  # fmt: skip


def lay_out(root: Path, wine: runner.WineSession, pe_bin: Path, files: dict[str, str]) -> Path:
    """``py/`` with the harness playing python.exe, ``site/`` with the layout's fixture files."""
    (root / "py").mkdir(parents=True)
    shutil.copy(wine.build / "harness.exe", root / "py" / "harness.exe")
    shutil.copy(wine.build / "python311.dll", root / "py" / "python311.dll")
    for dest, source in files.items():
        (root / "site" / dest).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(pe_bin / source, root / "site" / dest)
    return root


def harness_args(plan: dict, path: list[Path]) -> list[str]:
    """The plan as harness operations: PATH first (the process's), the folders added, then each call;
    a call with a fallback is a step of torch's preload (the harness's ``torch`` operation)."""
    args = ["setpath", ";".join([*(runner.to_wine(p) for p in path), "C:\\windows\\system32"])]
    args += ["plain", "python311.dll", "keepgoing", "1"]
    for folder in plan["dirs"]:
        args += ["adddir", runner.to_wine(folder), "torchdir", runner.to_wine(folder)]
    for call in plan["calls"]:
        kind = "torch" if call.get("fallback") else f"flags={call['flags']:X}"
        args += [kind, runner.to_wine(call["path"])]
    return args


def records(plan: dict, ops: list[runner.OpRun]) -> list[dict]:
    """The harness's results in the probe's own record form (tests/test_doctor.py reads the same)."""
    out = []
    for call, op in zip(plan["calls"], ops, strict=True):
        record = {"path": call["path"], "flags": call["flags"], "code": op.code or 0}
        if op.outcome.startswith("fallback"):
            record.update(code=op.first_code, fallback_code=op.code or 0)
        if op.not_found:
            record["missing_dll"] = op.not_found[0][0]
        out.append(record)
    return out


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_the_probe_plan_under_wine_gives_the_codes_it_expects(
    name: str, wine: runner.WineSession, pe_bin: Path, tmp_path: Path
) -> None:
    files, codes, failure = LAYOUTS[name]
    root = lay_out(tmp_path / "layout", wine, pe_bin, files)
    options = ScanOptions(python="3.11", app_dir=str(root / "py"), system_dir=str(wine.system32))
    result = scan_target(str(root / "site"), options)
    plan = probe_plan(result, str(root / "site"), str(root / "site" / "pkg"))

    assert [Path(c["path"]).name for c in plan["calls"]] == list(codes)
    assert plan["dirs"] == [str(root / "site" / "pkg.libs")]
    run = wine.run(root / "py" / "harness.exe", harness_args(plan, []), root)
    ops = [op for op in run.ops if op.kind.startswith("flags=")]
    assert {Path(c["path"]).name: op.code or 0 for c, op in zip(plan["calls"], ops, strict=True)} == codes
    found = live_failures({"probes": [{"module": "pkg", "calls": records(plan, ops)}]})
    expected = (
        [LiveFailure("pkg", str(root / "site" / "pkg.libs" / failure[0]), failure[1], failure[2])]
        if failure
        else []
    )
    assert found == expected


TORCH_PYD = "torch/_C.cp311-win_amd64.pyd"
TORCH_LIB = {"torch/lib/c10.dll": "x64/versioned.dll", "torch/lib/chain_a.dll": "x64/chain_a.dll",
             "torch/lib/chain_b.dll": "x64/chain_b.dll", TORCH_PYD: "x64/" + PYD}  # fmt: skip


@pytest.mark.parametrize(
    ("on_path", "first", "failure"),
    [
        # chain_c.dll only on PATH: chain_b.dll's step fails with 126, torch's retry binds it from PATH.
        (True, {"c10.dll": (0, None), "chain_b.dll": (126, 0), "chain_a.dll": (0, None), "_C.cp311-win_amd64.pyd": (0, None)}, None),
        # nowhere: the retry fails too, and that step is the failure the doctor reports.
        (False, {"c10.dll": (0, None), "chain_b.dll": (126, 126), "chain_a.dll": (126, 126), "_C.cp311-win_amd64.pyd": (126, None)},
         ("chain_b.dll", 126, "chain_c.dll")),
    ],
    ids=["rescued by PATH", "missing everywhere"],
)  # fmt: skip
def test_torch_preload_steps_retry_with_path_as_the_probe_expects(
    on_path: bool, first: dict, failure: tuple | None, wine: runner.WineSession, pe_bin: Path, tmp_path: Path
) -> None:
    """A torch-shaped package of fixture DLLs (torch\\lib with a c10.dll): the plan's preload steps carry the
    fallback, the harness's ``torch`` operation performs it, and the codes are the ones the probe reads."""
    root = lay_out(tmp_path / "layout", wine, pe_bin, TORCH_LIB)
    path = [root / "path1"]
    path[0].mkdir()
    if on_path:
        shutil.copy(pe_bin / "x64" / "chain_c.dll", path[0] / "chain_c.dll")
    options = ScanOptions(
        python="3.11", app_dir=str(root / "py"), path=tuple(map(str, path)), system_dir=str(wine.system32)
    )
    plan = probe_plan(
        scan_target(str(root / "site"), options), str(root / "site"), str(root / "site" / "torch")
    )
    assert [(Path(c["path"]).name, bool(c.get("fallback"))) for c in plan["calls"]] == [
        ("c10.dll", True), ("chain_b.dll", True), ("chain_a.dll", True), ("_C.cp311-win_amd64.pyd", False)
    ]  # fmt: skip

    run = wine.run(root / "py" / "harness.exe", harness_args(plan, path), root)
    ops = [op for op in run.ops if op.kind == "torch" or op.kind.startswith("flags=")]
    got = records(plan, ops)
    assert {Path(r["path"]).name: (r["code"], r.get("fallback_code")) for r in got} == first
    found = live_failures({"probes": [{"module": "torch", "calls": got}]})
    lib = root / "site" / "torch" / "lib"
    assert found == ([LiveFailure("torch", str(lib / failure[0]), failure[1], failure[2])] if failure else [])
