"""dlldoctor's answer for a layout, Wine's answer for the same layout, and the checks between them.

An *outcome* is what one load operation did, in terms both sides can state:

``verdict``     ok, 126, 127, 182, 193, bad-image (dlldoctor only), fallback-<verdict> (torch's retry
                after 126), init-failed (Wine only), returned / 7E / 7F (a call through a delay-load
                import)
``failing``     the DLL name at which a failed load stopped
``bindings``    DLL name → the file it was bound to (a lower-case Unix path); ``builtin:<System32 file>``
                for a Wine builtin, wherever Wine found the name
``unresolved``  (DLL, name) pairs the importer needs and the DLL found does not export

dlldoctor's verdict is what Windows does; ``expected_wine_verdict`` turns it into what Wine will show,
by the documented differences only (layouts.DIFFERENCES).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from dlldoctor.install.sources import Entry
from dlldoctor.loader.environment import folder_of
from dlldoctor.loader.findings import from_tree
from dlldoctor.loader.resolution import Loader, Node, Operation, Process, Resolution, SearchDir
from dlldoctor.scan.result import ScanOptions, ScanResult
from dlldoctor.scan.target import scan_target

from .layouts import Layout, Op
from .runner import HarnessRun, OpRun, WineSession

INIT_FAILED = (998, 1114)  # ERROR_NOACCESS (DllMain crashed), ERROR_DLL_INIT_FAILED
API_SET_PREFIXES = ("api-ms-", "ext-ms-")
# dlldoctor verdicts after which what was bound is comparable: the load (or the call) got that far.
BOUND = ("ok", "fallback-ok", "127", "182", "fallback-127", "fallback-182", "returned", "7F")


@dataclass
class Outcome:
    verdict: str
    failing: str | None = None
    bindings: dict[str, str] = field(default_factory=dict)
    unresolved: set[tuple[str, str]] = field(default_factory=set)
    wrong_machine: str | None = None  # dlldoctor: the location of the first wrong-machine candidate
    errors: tuple[str, ...] = ()  # dlldoctor: error-level findings of this tree
    new: set[str] = field(default_factory=set)  # Wine: the names this operation loaded
    forward_targets: set[str] = field(default_factory=set)  # dlldoctor: DLLs forwarders point at


@dataclass
class Check:
    what: str  # "verdict", "binding", "unresolved"
    subject: str
    model: str
    wine: str
    agree: bool
    decidable: bool = True  # False: Wine cannot tell (a documented difference); not counted
    note: str = ""

    def __str__(self) -> str:
        mark = "ok " if self.agree else "XX "
        mark = mark if self.decidable else "-- "
        return f"{mark}{self.what} {self.subject}: dlldoctor {self.model} | Wine {self.wine} {self.note}".rstrip()


# ----- dlldoctor's side -------------------------------------------------------------------------------


def scan(root: Path, layout: Layout, system32: Path) -> ScanResult:
    options = ScanOptions(
        python=layout.python,
        app_dir=str(root / "py"),
        path=tuple(str(root / p) for p in layout.path),
        system_dir=str(system32),
    )
    return scan_target(str(root / "site"), options)


def _loader(result: ScanResult) -> Loader:
    by_folder: dict[str, list[Entry]] = defaultdict(list)
    for report in result.files:
        by_folder[report.entry.folder].append(report.entry)
    folders = {key: folder_of(entries, key.replace("/", "\\") or ".") for key, entries in by_folder.items()}
    return Loader(result.environment, result.catalog, folders)


def _entry(result: ScanResult, relpath: str) -> Entry:
    for report in result.files:
        if report.entry.relpath == relpath:
            return report.entry
    raise AssertionError(f"dlldoctor did not see site/{relpath}")


def model_outcome(result: ScanResult, probe: str, ops: tuple[Op, ...]) -> Outcome:
    """dlldoctor's outcome for one probe (see tests/wine/layouts.py for the probe kinds)."""
    kind, _, rest = probe.partition(":")
    if kind in ("scan", "program"):
        if rest not in result.trees:
            raise AssertionError(f"no dlldoctor tree for {rest}; trees: {sorted(result.trees)}")
        context, node = result.trees[rest]
        return _tree_outcome(node, rest, context, result.environment.machine)
    if kind == "delay":
        relpath, _, dll = rest.rpartition(":")
        _context, node = result.trees[relpath]
        return _delay_outcome(node, dll)
    loader = _loader(result)
    if kind == "name":
        resolution = loader.resolve(rest, loader.standard_search(), Process())
        if resolution.status != "found" or resolution.entry is None:
            return _name_outcome(resolution)
        # LoadLibrary(name) then loads what the DLL found needs, in the same standard order.
        node = loader.load(
            resolution.entry, Operation("plain LoadLibrary", loader.standard_search()), Process()
        )
        outcome = _tree_outcome(
            node, resolution.entry.relpath, "plain LoadLibrary", result.environment.machine
        )
        outcome.bindings[rest.lower()] = _location(resolution)
        return outcome
    if kind == "plain":
        entry = _entry(result, rest.removeprefix("site/"))
        node = loader.load(entry, Operation("plain LoadLibrary", loader.standard_search()), Process())
        return _tree_outcome(node, entry.relpath, "plain LoadLibrary", result.environment.machine)
    if kind == "ext-dirs":
        entry = _entry(result, rest)
        dirs = [op.arg.removeprefix("@site/") for op in ops if op.kind == "adddir"]
        process = Process(user_dirs=[SearchDir(loader.folder(d), "add_dll_directory", d) for d in dirs])
        node = loader.load(
            entry, Operation("extension module", loader.extension_search(entry, process)), process
        )
        return _tree_outcome(node, entry.relpath, "extension module", result.environment.machine)
    raise AssertionError(f"unknown probe {probe}")


def _location(resolution: Resolution) -> str:
    if resolution.entry is not None:
        return str(Path(resolution.entry.location)).lower()
    return resolution.location.lower()


def _symbol(text: str) -> str:
    """dlldoctor's spelling of a missing import as Wine spells it: 'fwd (forwarded to x.y)' → 'fwd', '#77' → '77'."""
    return text.split(" (forwarded to ", 1)[0].removeprefix("#")


def _tree_outcome(node: Node, relpath: str, context: str, machine: str) -> Outcome:
    outcome = Outcome("ok")
    root = node.resolution
    outcome.errors = tuple(
        f"{f.kind} {f.dll}" for f in from_tree(node, relpath, context, machine) if f.severity == "error"
    )
    outcome.bindings[root.name.lower()] = _location(root)
    if node.defect is not None:
        outcome.verdict, outcome.failing = "bad-image", root.name.lower()
        return outcome
    if root.status == "wrong-machine":
        outcome.verdict, outcome.failing = "193", root.name.lower()
        return outcome
    fallback = False

    def visit(parent: Node) -> None:
        nonlocal fallback
        for child in parent.children:
            imported = child.imported
            if imported is not None and imported.delayed:
                continue
            res = child.resolution
            name = res.name.lower()
            fallback = fallback or res.reason.startswith("PATH fallback")
            if outcome.verdict == "ok":
                if res.status == "missing":
                    outcome.verdict, outcome.failing = "126", name
                elif res.status == "wrong-machine":
                    outcome.verdict, outcome.failing = "193", name
                    outcome.wrong_machine = _location(res)
                elif res.status == "corrupt" or child.defect is not None:
                    outcome.verdict, outcome.failing = "bad-image", name
            if res.status == "found":
                outcome.bindings.setdefault(name, _location(res))
            for symbol in child.missing_symbols:
                outcome.unresolved.add((name, _symbol(symbol)))
            if res.status == "found" and not child.repeat:
                visit(child)

    visit(node)
    if outcome.verdict == "ok" and outcome.unresolved:
        # A name missing fails the load with 127; only ordinals missing, with 182.
        outcome.verdict = "182" if all(s.isdigit() for _, s in outcome.unresolved) else "127"
    if fallback and outcome.verdict in ("ok", "127", "182"):
        outcome.verdict = f"fallback-{outcome.verdict}"
    elif outcome.verdict == "126" and context == "torch preload":
        outcome.verdict = "fallback-126"  # torch retries every 126 once with PATH
    outcome.forward_targets = _forward_targets(node)
    return outcome


def _forward_targets(node: Node) -> set[str]:
    """DLL names the tree's forwarders point at: dlldoctor resolves them to check names, lists them nowhere."""
    targets: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if current.image is not None:
            for _export, target in current.image.forwarders:
                library = target.rpartition(".")[0].lower()
                targets.add(library if library.endswith(".dll") else f"{library}.dll")
        stack.extend(current.children)
    return targets


def _delay_outcome(node: Node, dll: str) -> Outcome:
    for child in node.children:
        if (
            child.imported is not None
            and child.imported.delayed
            and child.resolution.name.lower() == dll.lower()
        ):
            res = child.resolution
            if res.status != "found":
                return Outcome("7E", failing=dll.lower())
            outcome = Outcome("7F" if child.missing_symbols else "returned")
            outcome.bindings[dll.lower()] = _location(res)
            outcome.unresolved = {(dll.lower(), _symbol(s)) for s in child.missing_symbols}
            return outcome
    raise AssertionError(f"no delay-load import of {dll}")


def _name_outcome(resolution: Resolution) -> Outcome:
    if resolution.status == "missing":
        return Outcome("126", failing=resolution.name.lower())
    if resolution.status == "wrong-machine":
        return Outcome("193", failing=resolution.name.lower(), wrong_machine=_location(resolution))
    return Outcome("ok", bindings={resolution.name.lower(): _location(resolution)})


def expected_wine_verdict(model: Outcome, layout: Layout) -> str:
    """What Wine will show for dlldoctor's verdict, by the documented differences only."""
    if model.verdict == "bad-image" and "bad-image-126" in layout.differences:
        return "126"
    if model.verdict.endswith(("127", "182")) and "stub-export" in layout.differences:
        return "fallback-ok" if model.verdict.startswith("fallback-") else "ok"
    return model.verdict


# ----- Wine's side ------------------------------------------------------------------------------------


def wine_outcome(run: HarnessRun, index: int, session: WineSession) -> Outcome:
    op = run.op(index)
    outcome = Outcome(_wine_verdict(op))
    if op.kind == "call":
        outcome.failing = None  # the verdict (7E: not found, 7F: name missing) says it all
    elif op.failures:
        outcome.failing = op.failures[0].lower()  # the innermost: Wine reports on the way back up
    elif not op.succeeded:
        outcome.failing = _basename(op.arg)  # the module itself (193 for a wrong-machine file)
    kinds = {session.unix_path(path): kind for earlier in run.ops for path, kind in earlier.loaded}
    if op.kind == "plain" and op.path and not op.arg.startswith("@"):
        outcome.bindings[op.arg.lower()] = _wine_location(op.path, kinds, session)
    if op.succeeded or outcome.verdict in ("init-failed", "7F"):
        modules = [m for earlier in run.ops[: index + 1] for m in earlier.modules]
        if outcome.verdict == "init-failed":  # unloaded again: only the traces saw them
            modules += [(Path(p.replace("\\", "/")).name, p) for p, _kind in op.loaded]
        for name, path in modules:
            outcome.bindings.setdefault(name.lower(), _wine_location(path, kinds, session))
        outcome.new = {name.lower() for name, _path in op.modules}
        if op.path:
            outcome.bindings[Path(op.path.replace("\\", "/")).name.lower()] = _wine_location(
                op.path, kinds, session
            )
    outcome.unresolved = {(dll.lower(), symbol) for dll, symbol, _importer in op.unresolved}
    return outcome


def _wine_location(path: str, kinds: dict[str, str], session: WineSession) -> str:
    """A Wine path as a lower-case Unix path; a builtin as its System32 file wherever Wine found the name."""
    unix = session.unix_path(path)
    if kinds.get(unix) == "builtin":
        return "builtin:" + str(session.system32 / unix.rsplit("/", 1)[-1]).lower()
    return unix


def _wine_verdict(op: OpRun) -> str:
    if op.kind == "call":
        if op.outcome == "exception":
            return {0xC06D007E: "7E", 0xC06D007F: "7F"}.get(op.code or 0, f"exception {op.code:#x}")
        return op.outcome
    if op.outcome == "fallback-ok":
        return "fallback-ok"
    if op.outcome == "fallback-error":
        return f"fallback-{op.code}"
    if op.outcome == "ok":
        return "ok"
    if op.code in INIT_FAILED and any(
        Path(p.replace("\\", "/")).name.lower() == _basename(op.arg) for p, _kind in op.loaded
    ):
        return "init-failed"
    return str(op.code)


def _basename(arg: str) -> str:
    return re.split(r"[\\/]", arg)[-1].lower()


# ----- the checks -------------------------------------------------------------------------------------


def compare(
    model: Outcome, wine: Outcome, layout: Layout, names: set[str], adddirs: list[str], system32: Path
) -> list[Check]:
    """The checks for one probe. ``names``: the DLL names the layout provides files for."""
    checks: list[Check] = []
    expected = expected_wine_verdict(model, layout)
    actual = wine.verdict
    note = ""
    if expected != model.verdict:
        note = f"(Wine shows {expected}: {'stubs for missing names' if expected.endswith('ok') else 'bad image'})"
    if actual == "init-failed" and "init-failure" in layout.differences:
        actual = expected if expected in ("ok", "fallback-ok") else actual
        note = (note + " (DllMain failed after every import was bound)").strip()
    checks.append(Check("verdict", "", model.verdict, wine.verdict, expected == actual, note=note))
    if model.verdict in ("126", "193", "bad-image", "fallback-126") and model.failing:
        checks.append(Check("failing", "", model.failing, wine.failing or "-", model.failing == wine.failing))
    if expected in ("ok", "fallback-ok") and model.errors and not model.unresolved:
        checks.append(
            Check(
                "findings",
                "",
                "; ".join(model.errors),
                "loads",
                False,
                note="(an error finding for a load that succeeds)",
            )
        )
    ours_unresolved, theirs_unresolved = model.unresolved, wine.unresolved
    if "builtin-preferred" in layout.differences:
        # Where Wine bound its builtin and dlldoctor another file, their exports differ by construction.
        other = {
            n
            for n, loc in wine.bindings.items()
            if loc.startswith("builtin:") and model.bindings.get(n) != loc[8:]
        }
        ours_unresolved = {p for p in ours_unresolved if p[0] not in other}
        theirs_unresolved = {p for p in theirs_unresolved if p[0] not in other}
    if (ours_unresolved or theirs_unresolved) and wine.verdict not in ("7E", "7F", "returned"):
        # (GetProcAddress, as the delay-load helper calls it, fails without a 'No implementation' trace)
        checks.append(
            Check(
                "unresolved",
                "",
                _fmt(ours_unresolved),
                _fmt(theirs_unresolved),
                ours_unresolved == theirs_unresolved,
            )
        )
    if model.verdict in BOUND:
        checks.extend(_bindings(model, wine, layout, names, adddirs, system32))
    return checks


def _fmt(pairs: set[tuple[str, str]]) -> str:
    if not pairs:
        return "none"
    listed = sorted(f"{d}!{s}" for d, s in pairs)
    return ", ".join(listed[:4]) + (f" (+{len(listed) - 4})" if len(listed) > 4 else "")


def _bindings(
    model: Outcome, wine: Outcome, layout: Layout, names: set[str], adddirs: list[str], system32: Path
) -> list[Check]:
    checks = []
    for name in sorted(set(model.bindings) & (names | _probe_names(layout))):
        ours = model.bindings[name]
        theirs = wine.bindings.get(name, "-")
        if theirs == "-" and name.startswith(API_SET_PREFIXES):
            continue  # Wine loads the host under its own name; the name: probes compare hosts
        if theirs.startswith("builtin:"):
            theirs = theirs.removeprefix("builtin:")
            if "builtin-preferred" in layout.differences:
                checks.append(
                    Check(
                        "binding",
                        name,
                        _short(ours),
                        "builtin " + _short(theirs),
                        True,
                        False,
                        "(Wine prefers its builtin: cannot decide)",
                    )
                )
                continue
        if (
            "add-dll-directory-order" in layout.differences
            and any(ours.startswith(d) for d in adddirs)
            and any(theirs.startswith(d) for d in adddirs)
        ):
            checks.append(
                Check(
                    "binding",
                    name,
                    _short(ours),
                    _short(theirs),
                    True,
                    False,
                    "(add_dll_directory order is unspecified)",
                )
            )
            continue
        checks.append(Check("binding", name, _short(ours), _short(theirs), ours == theirs))
    for name in sorted((names & wine.new) - set(model.bindings)):
        if name in model.forward_targets:
            checks.append(
                Check(
                    "binding",
                    name,
                    "(forwarder target)",
                    _short(wine.bindings[name]),
                    True,
                    False,
                    "(dlldoctor resolves forwarder targets to check names but lists them nowhere)",
                )
            )
        elif model.verdict in BOUND:
            checks.append(
                Check(
                    "binding",
                    name,
                    "-",
                    _short(wine.bindings[name]),
                    False,
                    note="(Wine loaded a file dlldoctor did not bind)",
                )
            )
    return checks


def _probe_names(layout: Layout) -> set[str]:
    return {
        op.probe.split(":", 1)[1].lower() for op in layout.ops if op.probe and op.probe.startswith("name:")
    }


def _short(location: str) -> str:
    marker = "/layout/"
    return location.split(marker, 1)[1] if marker in location else location
