"""The Wine tier: dlldoctor's loader model against a real loader, layout by layout.

Each layout (tests/wine/layouts.py) is laid out in a temporary folder, the harness (playing
python.exe) performs its load operations under Wine 8 with +loaddll, dlldoctor scans the same layout
with the harness's folder as ``--app-dir``, the layout's PATH folders as ``--path`` and Wine's own
System32 as ``--system-dir``, and every probe is compared: the verdict, the DLL a failed load stopped
at, the file each of the layout's DLL names was bound to, and the imports left unresolved. Where Wine
differs from Windows by design (layouts.DIFFERENCES) only what Wine can decide is compared.

Outside CI the tier skips when wine64 or mingw-w64 is missing; in CI it fails.
"""

from __future__ import annotations

import os
import re
import shutil
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from wine import runner
from wine.compare import Check, Outcome, compare, model_outcome, scan, wine_outcome
from wine.layouts import DIFFERENCES, KNOWN_GAPS, TORCH_LIB, Layout, all_layouts

pytestmark = pytest.mark.wine

ROOT = Path(__file__).resolve().parents[1]
PE_BIN = ROOT / "corpus" / "pe" / "bin"
DOC = ROOT / "docs" / "loader-model.md"
LAYOUTS = all_layouts()


@dataclass
class Tally:
    """What each layout showed, for the agreement figure."""

    verdict: dict[str, bool] = field(default_factory=dict)  # id → every decidable verdict check agrees
    direct: dict[str, bool] = field(default_factory=dict)  # id → nothing in it needed a difference
    files: dict[str, tuple[int, int]] = field(default_factory=dict)  # id → (agreeing, decidable) bindings
    gaps: dict[str, str] = field(default_factory=dict)  # id → the known model gap it shows
    seconds: dict[str, float] = field(default_factory=dict)


TALLY = Tally()


@pytest.fixture(scope="session")
def wheel_members(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The torch and msvc-runtime wheel members the layouts use, unpacked once."""
    import wheelcache

    dest = tmp_path_factory.mktemp("wheel-members")
    wanted = {
        "torch": (
            wheelcache.TORCH,
            [f"torch/lib/{d}" for d in TORCH_LIB] + ["torch/_C.cp311-win_amd64.pyd"],
        ),
        "msvc": (
            wheelcache.MSVC_NEW,
            [f"msvc_runtime-14.44.35112.data/data/Scripts/{d}" for d in ("vcruntime140.dll", "msvcp140.dll")],
        ),
    }
    members: dict[str, Path] = {}
    for prefix, (spec, names) in wanted.items():
        with zipfile.ZipFile(wheelcache.wheel(spec)) as archive:
            archive.extractall(dest / prefix, members=names)
        members.update({f"{prefix}/{name}": dest / prefix / name for name in names})
    return members


def _source(spec: str, wine: runner.WineSession, members: dict[str, Path] | None) -> Path:
    kind, _, rest = spec.partition("/")
    if kind in ("x64", "x86", "corrupt"):
        return PE_BIN / spec
    if kind == "h":
        return wine.build / rest
    assert members is not None, f"{spec} needs the wheels"
    return members[spec]


def _place(source: Path, dest: Path) -> None:
    """Copy a file into a layout; hard-link only big wheel members, placed at most once per layout.

    Two links to one file are one file to Wine (and to Windows): a second name for an already loaded
    file would bind to the loaded module, which is not what a layout with two copies means.
    """
    dest.parent.mkdir(parents=True, exist_ok=True)
    if source.stat().st_size > LINK_ABOVE:
        try:
            dest.hardlink_to(source)
            return
        except OSError:
            pass
    shutil.copy2(source, dest)


LINK_ABOVE = 8 << 20


def _lay_out(
    layout: Layout,
    root: Path,
    wine: runner.WineSession,
    members: dict[str, Path] | None,
    in_system32: list[Path],
) -> None:
    """Build the layout under ``root``; ``in_system32`` gets the files put into Wine's System32."""
    for folder in ("py", "site", "cwd"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    shutil.copy(wine.build / "harness.exe", root / "py" / "harness.exe")
    shutil.copy(wine.build / "python311.dll", root / "py" / "python311.dll")
    for dest, spec in sorted(layout.files.items()):
        source = _source(spec, wine, members)
        if dest.startswith("sys/"):
            target = wine.system32 / dest.removeprefix("sys/")
            assert not target.exists(), f"{target.name} is already in Wine's System32"
            in_system32.append(target)
            shutil.copy2(source, target)
        else:
            _place(source, root / dest)
    for folder in layout.path:
        (root / folder).mkdir(parents=True, exist_ok=True)


def _args(layout: Layout, root: Path) -> list[str]:
    path = ";".join(
        [*(runner.to_wine(root / p) for p in layout.path), "C:\\windows\\system32", "C:\\windows"]
    )
    args = ["setpath", path, "plain", "python311.dll", "plain", "vcruntime140.dll"]
    for op in layout.ops:
        args += [op.kind, runner.to_wine(root / op.arg[1:]) if op.arg.startswith("@") else op.arg]
    return args


START_OPS = 3  # setpath, python311.dll, vcruntime140.dll


def _layout_names(layout: Layout) -> set[str]:
    names = {dest.rsplit("/", 1)[-1].lower() for dest in layout.files}
    return names | {"python311.dll"}


def _folder_of(location: str, root: Path, system32: Path) -> str:
    if location.startswith("builtin"):
        return "builtin"
    if location.startswith(str(system32).lower() + "/"):
        return "sys"
    prefix = str(root).lower() + "/"
    return location.removeprefix(prefix).rsplit("/", 1)[0] if location.startswith(prefix) else location


@pytest.mark.parametrize(
    "layout",
    [
        pytest.param(layout, id=layout.id, marks=[pytest.mark.wheels] if layout.wheels else [])
        for layout in LAYOUTS
    ],
)
def test_layout(
    layout: Layout,
    wine: runner.WineSession,
    tmp_path_factory: pytest.TempPathFactory,
    request: pytest.FixtureRequest,
) -> None:
    started = time.monotonic()
    members = request.getfixturevalue("wheel_members") if layout.wheels else None
    root = tmp_path_factory.mktemp("wine-layouts") / "layout" / layout.id
    in_system32: list[Path] = []
    try:
        _lay_out(layout, root, wine, members, in_system32)
        if layout.program:
            path = ";".join(runner.to_wine(root / p) for p in layout.path)
            run = wine.run_program(root / layout.program, root / "cwd", path)
            first = 1
        else:
            run = wine.run(root / "py" / "harness.exe", _args(layout, root), root / "cwd", layout.overrides)
            first = START_OPS + 1
        result = scan(root, layout, wine.system32)
        decidable = result
        if layout.hidden or layout.swap:
            for rel in layout.hidden:
                (root / rel).unlink()
            for rel, spec in layout.swap.items():
                (root / rel).unlink()
                _place(_source(spec, wine, members), root / rel)
            decidable = scan(root, layout, wine.system32)
    finally:
        for target in in_system32:
            target.unlink(missing_ok=True)
    checks: list[Check] = []
    problems: list[str] = []
    windows_side: list[Outcome] = []
    names = _layout_names(layout)
    adddirs = [str(root / op.arg[1:]).lower() + "/" for op in layout.ops if op.kind == "adddir"]
    for offset, op in enumerate(layout.ops):
        if not op.probe:
            continue
        index = first + offset
        if index >= len(run.ops):
            problems.append(f"the harness never reached {op.kind} {op.arg} (stopped={run.stopped})")
            continue
        theirs = wine_outcome(run, index, wine)
        relpath = op.probe.split(":", 1)[1]
        if theirs.verdict != op.expect:
            problems.append(
                f"{op.kind} {op.arg}: Wine's outcome is {theirs.verdict}, the layout expects {op.expect}"
            )
        hidden_root = relpath.split(":")[0] in {h.removeprefix("site/") for h in layout.hidden}
        ours = model_outcome(result if hidden_root else decidable, op.probe, layout.ops)
        own = model_outcome(result, op.probe, layout.ops)
        windows_side.append(own)
        if decidable is not result and (own.verdict, own.bindings) != (ours.verdict, ours.bindings):
            summary = own.verdict + "".join(
                f", {n} at {_folder_of(loc, root, wine.system32)}"
                for n, loc in sorted(own.bindings.items())
                if n in layout.windows
            )
            checks.append(
                Check(
                    "windows",
                    f"{op.kind} {relpath}",
                    summary,
                    "cannot decide",
                    True,
                    False,
                    "(dlldoctor's answer for Windows)",
                )
            )
        for check in compare(ours, theirs, layout, names, adddirs, wine.system32):
            check.subject = f"{op.kind} {relpath}" + (f" {check.subject}" if check.subject else "")
            checks.append(check)
    _check_bound(layout, run, root, wine, problems)
    _check_windows_side(layout, windows_side, root, wine.system32, problems)
    disagreements = [c for c in checks if c.decidable and not c.agree]
    report = "\n".join(map(str, checks))
    print(f"{layout.id}: {layout.title}\n{report}")  # shown with pytest -rP
    TALLY.seconds[layout.id] = time.monotonic() - started
    bindings = [c for c in checks if c.what == "binding" and c.decidable]
    TALLY.files[layout.id] = (sum(c.agree for c in bindings), len(bindings))
    TALLY.verdict[layout.id] = all(c.agree for c in checks if c.decidable and c.what != "binding")
    TALLY.direct[layout.id] = not layout.differences and all(c.decidable for c in checks)
    if layout.known_gap:
        TALLY.gaps[layout.id] = layout.known_gap
        assert layout.known_gap in KNOWN_GAPS
        assert disagreements, (
            f"known gap {layout.known_gap} no longer shows: update docs/loader-model.md\n{report}"
        )
        assert not problems, "\n".join(problems)
        return
    for difference in layout.differences:
        assert difference in DIFFERENCES
    assert not problems, "\n".join(problems) + "\n" + report + "\n" + _tail(run.output)
    assert not disagreements, f"dlldoctor and Wine disagree:\n{report}\n{_tail(run.output)}"


def _check_bound(
    layout: Layout, run: runner.HarnessRun, root: Path, wine: runner.WineSession, problems: list[str]
) -> None:
    """The layout's plain statement of where Wine binds its DLLs, against what Wine did."""
    kinds = {wine.unix_path(p): k for op in run.ops for p, k in op.loaded}
    final: dict[str, str] = {}
    for op in run.ops:
        for name, path in op.modules:
            final.setdefault(name.lower(), path)
        if layout.program:
            for path, _kind in op.loaded:
                final.setdefault(Path(path.replace("\\", "/")).name.lower(), path)
    for name, folder in layout.bound.items():
        path = final.get(name.lower())
        if path is None:
            actual = "-"
        else:
            unix = wine.unix_path(path)
            actual = _folder_of("builtin" if kinds.get(unix) == "builtin" else unix, root, wine.system32)
        if actual != folder:
            problems.append(f"Wine bound {name} to {actual}; the layout says {folder}")


def _check_windows_side(
    layout: Layout, outcomes: list[Outcome], root: Path, system32: Path, problems: list[str]
) -> None:
    """Where Wine cannot decide, dlldoctor's own answer (what Windows does) is stated in the layout."""
    for name, expected in layout.windows.items():
        seen = []
        for outcome in outcomes:
            if expected.startswith("193:") and outcome.wrong_machine:
                seen.append("193:" + _folder_of(outcome.wrong_machine, root, system32))
            elif name in outcome.bindings:
                seen.append(_folder_of(outcome.bindings[name], root, system32))
            elif outcome.failing == name:
                seen.append("-")
        if expected not in seen:
            problems.append(
                f"dlldoctor's own answer for {name} is {seen or 'nothing'}; the layout says {expected}"
            )


def _tail(output: str, lines: int = 60) -> str:
    kept = [
        line
        for line in output.splitlines()
        if not re.match(r"^[0-9a-f]{4}:[0-9a-f]{4}:warn:module:find_builtin", line)
    ]
    return "--- harness output (tail) ---\n" + "\n".join(kept[-lines:])


def test_agreement_figure_matches_the_docs() -> None:
    """docs/loader-model.md states the figure this tier produces; keep the two equal."""
    if len(TALLY.verdict) != len(LAYOUTS):
        pytest.skip("the figure needs every layout to have run in this session")
    figure = agreement_figure()
    print("\n" + figure)
    slow = sorted(TALLY.seconds.items(), key=lambda kv: -kv[1])[:5]
    print("slowest layouts: " + ", ".join(f"{k} {v:.1f}s" for k, v in slow))
    assert figure in DOC.read_text(encoding="utf-8"), f"update docs/loader-model.md with:\n{figure}"


def agreement_figure() -> str:
    """The sentence docs/loader-model.md carries, computed from this session's layouts."""
    agree = [k for k, ok in TALLY.verdict.items() if ok]
    direct = sum(1 for k in agree if TALLY.direct[k])
    with_files = {k: v for k, v in TALLY.files.items() if v[1]}
    files_agree = sum(1 for agreeing, total in with_files.values() if agreeing == total)
    bindings = sum(total for _, total in with_files.values())
    bindings_agree = sum(agreeing for agreeing, _ in with_files.values())
    gaps = sorted(set(TALLY.gaps.values()))
    return (
        f"{len(agree)}/{len(TALLY.verdict)} layouts agree with Wine on the verdict ({direct} directly, "
        f"{len(agree) - direct} on what Wine can decide); {files_agree}/{len(with_files)} agree on the chosen "
        f"file where Wine can decide ({bindings_agree}/{bindings} DLL bindings); every disagreement left is "
        f"a known model gap ({', '.join(gaps)})."
    )


def test_tier_runs_in_ci_or_says_why_not() -> None:
    """Outside CI a missing Wine or mingw-w64 skips the tier with a reason; in CI it is a failure."""
    missing = runner.missing_requirements()
    if os.environ.get("CI"):
        assert not missing, "CI must install " + "; ".join(missing)
