"""The broken machine itself: reproduce, read, probe, scan, explain, and one confirmed diagnosis.

:func:`run_doctor` drives a Windows machine through :class:`dlldoctor.platform.interface.WindowsApi`:
the collector's steps (:mod:`dlldoctor.platform.collect`) reproduce each import and read the machine;
the static scan of the interpreter's site-packages, with the machine's own System32, python.exe folder
and PATH, gives the DLL graph and the search plan the live probe follows bottom-up. The bundle it
returns holds everything; :func:`diagnose_bundle` turns a bundle (from here or from the collector)
into one :class:`Conclusion` on any OS, so the same bundle gives the same cause everywhere.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dlldoctor.diagnose.explain import Explanation, explain_text
from dlldoctor.diagnose.verdicts import DiagnoseWithRules, ProbedRule
from dlldoctor.kb.ruleset import RuleSet
from dlldoctor.loader.resolution import Node
from dlldoctor.platform import collect
from dlldoctor.platform.interface import WindowsApi
from dlldoctor.scan.result import ScanOptions, ScanResult
from dlldoctor.scan.target import scan_target
from dlldoctor.vocabulary import ConclusionSource, Severity

SCAN_CONTEXTS = ("torch preload", "extension module", "loaded by full path")
ERROR_MOD_NOT_FOUND, ERROR_PROC_NOT_FOUND, ERROR_BAD_EXE_FORMAT = 126, 127, 193


@dataclass(frozen=True)
class LiveFailure:
    """The first load call of a probe that failed, leaves first: the node that breaks the graph."""

    module: str
    path: str
    code: int
    missing_dll: str | None = None
    missing_name: str | None = None
    in_dll: str | None = None
    bound: str | None = None  # for a 127: the file the DLL that lacks the name was bound to

    @property
    def dll(self) -> str:
        return self.missing_dll or self.in_dll or _base(self.path)


@dataclass(frozen=True)
class Conclusion:
    """One diagnosis for the machine: the cause (a rule), where it came from, and what confirms it."""

    rule_id: str | None  # None: nothing wrong found
    category: str | None
    source: (
        ConclusionSource  # the install confirms it; the probe's failing link; the reproduced text; nothing
    )
    failing: tuple[str, ...]  # modules whose import failed in the child process
    live: LiveFailure | None
    evidence: tuple[str, ...] = ()
    severity: Severity = "error"  # a warning: only the scan's warnings, with every import working

    @property
    def confirmed(self) -> bool:
        """The import really fails there and the cause rests on the install, not on the text alone."""
        return bool(self.failing) and self.source == "scan"


# ----- the plan the live probe follows --------------------------------------------------------------


def probe_plan(result: ScanResult[Any], site: str, package: str) -> dict[str, Any]:
    """Load calls for the package's PE files as the scan resolved them, leaves first, with the folders
    the process adds (os.add_dll_directory, torch's lib, delvewheel's .libs, conda's folders)."""
    top = posixpath.basename(package.replace("\\", "/").rstrip("/")).lower()
    calls: list[dict[str, Any]] = []
    done: set[str] = set()
    dirs: dict[str, None] = {}
    trees = sorted(
        ((rel, ctx, tree) for rel, (ctx, tree) in result.trees.items() if _owned(rel, top)),
        key=lambda item: (_context_rank(item[1]), item[0]),
    )
    own = {report.entry.location for report in result.files}  # the install's files, not the machine's
    system_dlls: set[str] = set()
    preloaded = {_node_path(tree, site).lower() for _, ctx, tree in trees if ctx.startswith("torch preload")}
    for _, _, tree in trees:
        for node in _post_order(tree):
            entry = node.resolution.entry
            if node.resolution.reason.endswith(
                ("System32", "KnownDLL")
            ) and not node.resolution.name.lower().startswith(("api-ms-", "ext-ms-")):
                system_dlls.add(node.resolution.name.lower())
            if entry is None or node.resolution.system or entry.location not in own:
                continue
            path = _node_path(node, site)
            if node.resolution.reason.startswith(("add_dll_directory", "conda", "PATH fallback")):
                dirs.setdefault(str(Path(path).parent))
            if path.lower() in done:
                continue
            done.add(path.lower())
            imports = {i.dll: list(i.names) for i in node.image.imports} if node.image else {}
            calls.append({"path": path, "flags": collect.EXTENSION_FLAGS, "imports": imports})
    system = result.environment.system_dir
    kept = [d for d in dirs if system is None or not _same(d, system.label)]
    for call in calls:  # a step of torch's preload retries with PATH after 126, as torch does
        if call["path"].lower() in preloaded:
            call["fallback"] = kept
    return {"source": "scan", "dirs": kept, "calls": calls, "system_dlls": sorted(system_dlls)}


def _node_path(node: Node, site: str) -> str:
    entry = node.resolution.entry
    if entry is None:
        return ""
    return entry.location if Path(entry.location).is_absolute() else str(Path(site) / entry.relpath)


def _owned(relpath: str, top: str) -> bool:
    """Whether a scanned file belongs to the package ``top`` (in site-packages, or under an environment
    root's ``Lib/site-packages``)."""
    lowered = relpath.lower().removeprefix("lib/site-packages/")
    return lowered.split("/", 1)[0] in (top, f"{top}.libs")


def _context_rank(context: str) -> int:
    return next((i for i, c in enumerate(SCAN_CONTEXTS) if context.startswith(c)), len(SCAN_CONTEXTS))


def _post_order(tree: Node) -> list[Node]:
    """Every module of a load operation, each after the modules it imports (the order to load them)."""
    out: list[Node] = []
    stack: list[tuple[Node, bool]] = [(tree, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            out.append(node)
            continue
        stack.append((node, True))
        if not node.repeat:
            stack.extend((child, False) for child in reversed(node.children) if child.resolution.entry)
    return out


# ----- doctor on a live machine ---------------------------------------------------------------------


def run_doctor(
    api: WindowsApi, python: str, modules: Sequence[str], rules_root: Path | None = None
) -> dict[str, Any]:
    """Reproduce, read, scan and probe; the bundle (not yet redacted), with the scan's diagnoses."""
    scans: dict[str, ScanResult[ProbedRule]] = {}

    def scan(interpreter: dict[str, Any]) -> ScanResult[ProbedRule] | None:
        site = interpreter.get("site_packages")
        if not isinstance(site, str) or not Path(site).is_dir():
            return None
        if site not in scans:
            scans[site] = _scan(api, _target(interpreter, site), interpreter, rules_root)
        return scans[site]

    def plan_for(module: str, package: str, interpreter: dict[str, Any]) -> dict[str, Any]:
        result = scan(interpreter)
        if result is None:
            return collect.collector_plan(package)
        return probe_plan(result, str(interpreter["site_packages"]), package)

    bundle = collect.build_bundle(api, python, list(modules), plan_for)
    bundle["tool"] = {"name": "dlldoctor", "version": collect.BUNDLE_VERSION}
    result = scan(bundle["facts"]["interpreter"])
    bundle["scan"] = _scan_summary(result) if result is not None else None
    return bundle


def system_folder(interpreter: dict[str, Any], system32: str) -> str:
    """The system folder the target interpreter's loader searches: a 32-bit process on 64-bit Windows
    sees SysWOW64 under the name System32 (file system redirection)."""
    wow = Path(system32).parent / "SysWOW64"
    return str(wow) if interpreter.get("bits") == 32 and wow.is_dir() else system32


def _target(interpreter: dict[str, Any], site: str) -> str:
    """What to scan: a conda environment whole (its Library\\bin and the rest are searched at start-up,
    and the scan models them from the environment root), else the site-packages folder."""
    prefix = interpreter.get("prefix")
    if (
        interpreter.get("kind") == "conda"
        and isinstance(prefix, str)
        and (Path(prefix) / "python.exe").is_file()
    ):
        return prefix
    return site


def _scan(
    api: WindowsApi, target: str, interpreter: dict[str, Any], rules_root: Path | None
) -> ScanResult[ProbedRule]:
    """The static scan of the target against the machine: its System32, python.exe folder, PATH and
    KnownDLLs (the registry's; its ``DllDirectory`` value is a folder, not a DLL)."""
    version = str(interpreter.get("version") or "")
    system = system_folder(interpreter, api.system_dir())
    # PATH holds System32 on every Windows; the scan searches System32 as such, not as a PATH folder.
    path = [
        p for p in api.environ().get("PATH", "").split(";") if p and Path(p).is_dir() and not _same(p, system)
    ]
    app_dir = interpreter.get("app_dir")
    registry = api.registry_values(collect.KNOWN_DLLS_KEY).values()
    known = frozenset(str(v).lower() for v in registry if str(v).lower().endswith(".dll"))
    whole = target == interpreter.get("prefix")  # an environment root holds its python.exe folder
    options = ScanOptions(
        python=".".join(version.split(".")[:2]) or None,
        app_dir=app_dir if isinstance(app_dir, str) and Path(app_dir).is_dir() and not whole else None,
        path=tuple(path),
        system_dir=system,
        rules_root=rules_root,
        known_dlls=known or None,
    )
    result: ScanResult[ProbedRule] = scan_target(target, options)
    DiagnoseWithRules(rules_root)([result])
    return result


def _scan_summary(result: ScanResult[ProbedRule]) -> dict[str, Any]:
    """What the scan concluded on the machine, kept in the bundle (the DLLs themselves stay there)."""
    return {
        "target": result.target,
        "findings": [
            {"kind": f.kind, "severity": f.severity, "file": f.file, "dll": f.dll, "symbol": f.symbol,
             "message": f.message, "chain": list(f.chain)}
            for f in result.findings if f.severity == "error"
        ][:200],
        "diagnoses": [
            {"rule_id": d.rule.id, "category": d.rule.category, "severity": d.rule.severity,
             "evidence": list(d.evidence)[:20]}
            for d in result.diagnoses
        ],
        "assumptions": list(result.environment.assumptions),
    }  # fmt: skip


# ----- a bundle, anywhere -----------------------------------------------------------------------------


def live_failures(bundle: dict[str, Any]) -> list[LiveFailure]:
    """The first failed call of each probe, in the order the probe made them (leaves first)."""
    found = []
    for probe in bundle.get("probes") or []:
        for call in probe.get("calls") or []:
            code = call.get("fallback_code", call.get("code"))  # torch's retry decides, when it made one
            if code:
                found.append(
                    LiveFailure(
                        str(probe.get("module")),
                        str(call.get("path")),
                        int(code),
                        call.get("missing_dll"),
                        call.get("missing_name"),
                        call.get("in_dll"),
                        call.get("dll_bound"),
                    )
                )
                break
    return found


def reproduced_text(bundle: dict[str, Any]) -> str:
    """The exact error text of every import that failed, one after the other."""
    return "\n".join(str(r.get("text")) for r in bundle.get("reproduced") or [] if r.get("ok") is False)


def diagnose_bundle(
    bundle: dict[str, Any], rule_set: RuleSet, lang: str | None = None
) -> tuple[Conclusion, Explanation | None]:
    """One conclusion from a bundle: the scan's confirmed cause when it has one, else the first cause of
    the probe's failing link, else the reproduced text's first."""
    failing = tuple(str(r.get("module")) for r in bundle.get("reproduced") or [] if r.get("ok") is False)
    text = reproduced_text(bundle)
    explanation = explain_text(text, rule_set, lang=lang) if text.strip() else None
    lives = live_failures(bundle)
    live = lives[0] if lives else None
    scan = bundle.get("scan") or {}
    errors = [d for d in scan.get("diagnoses") or [] if d.get("severity") == "error"]
    chosen = _matching_live(errors, live)
    if chosen is not None:
        evidence = tuple(str(e) for e in chosen.get("evidence") or ())
        return Conclusion(chosen["rule_id"], chosen["category"], "scan", failing, live, evidence), explanation
    if live is not None:
        # The failing link, written as Windows reports it, read by the same rules as a paste: more
        # precise than the reproduced text, which names the DLL being loaded, not the one that broke.
        seen = explain_text(live_text(live), rule_set, lang=lang)
        if seen.diagnoses:
            top = seen.diagnoses[0].rule
            return Conclusion(top.id, top.category, "probe", failing, live), explanation
    if explanation is not None and explanation.diagnoses:
        top = explanation.diagnoses[0].rule
        return Conclusion(top.id, top.category, "text", failing, live), explanation
    warnings = [d for d in scan.get("diagnoses") or [] if d.get("severity") == "warning"]
    if warnings and not failing:  # e.g. a plugin that would fail when loaded: worth a line, not a fault
        first = warnings[0]
        evidence = tuple(str(e) for e in first.get("evidence") or ())
        return Conclusion(
            first["rule_id"], first["category"], "scan", failing, live, evidence, "warning"
        ), explanation
    return Conclusion(None, None, "none", failing, live), explanation


def live_text(live: LiveFailure) -> str:
    """A failed load call as Windows words it (en-US system messages and pop-ups, docs/doctor.md)."""
    if live.code == ERROR_MOD_NOT_FOUND:
        return (
            f"The code execution cannot proceed because {live.missing_dll or _base(live.path)} was not found."
        )
    if live.code == ERROR_PROC_NOT_FOUND and live.missing_name:
        where = live.bound or live.in_dll or live.path
        return f"The procedure entry point {live.missing_name} could not be located in the dynamic link library {where}."
    text = "%1 is not a valid Win32 application." if live.code == ERROR_BAD_EXE_FORMAT else ""
    return f'OSError: [WinError {live.code}] {text} Error loading "{live.path}" or one of its dependencies.'


def _matching_live(diagnoses: list[dict[str, Any]], live: LiveFailure | None) -> dict[str, Any] | None:
    """The scan's first error diagnosis, preferring one whose evidence names the DLL the probe saw fail."""
    if not diagnoses:
        return None
    if live is not None:
        names = {live.dll.lower(), _base(live.path).lower()}
        for diagnosis in diagnoses:
            if any(n in str(e).lower() for e in diagnosis.get("evidence") or () for n in names):
                return diagnosis
    return diagnoses[0]


def _same(a: str, b: str) -> bool:
    return Path(a).resolve() == Path(b).resolve()


def _base(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1]
