"""Probes: small questions a rule asks of a scanned install, each answered yes, no, or unknown.

Every probe kind of the rule schema has one function here. An answer carries its evidence (the
findings and facts it rests on) and, when unknown, what to collect to decide. Probes read a
``ScanResult``; none of them touches the target again except ``file-intact``'s RECORD check on folders.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import re2

from dlldoctor.install.sources import Entry
from dlldoctor.kb.families import Families, FamilyHit
from dlldoctor.kb.model import Probe
from dlldoctor.loader.environment import Folder
from dlldoctor.loader.findings import Finding
from dlldoctor.loader.resolution import Node
from dlldoctor.pe.model import PEImage
from dlldoctor.scan.target import ScanResult

_CONTEXTS = {
    "extension": ("extension module",),
    "torch-preload": ("torch preload",),
    "loadlibrary": ("loaded by full path", "program start"),
    "path": ("torch preload", "extension module (Python < 3.8)"),  # with other contexts in a list
}
_CP_TAG = re.compile(r"\.cp3(\d{1,2})[-_]", re.IGNORECASE)
_PY_DLL = re.compile(r"^python3(\d{1,2})\.dll$", re.IGNORECASE)
_VERSION = re.compile(r"^(\d+)\.(\d+)")


@dataclass(frozen=True)
class ProbeAnswer:
    probe: Probe
    value: bool | str | None  # None: the target lacks the data to decide
    evidence: tuple[str, ...] = ()
    collect: str | None = None  # what would decide an unknown answer

    @property
    def decided(self) -> bool:
        return self.value is not None

    @property
    def as_expected(self) -> bool:
        return self.decided and self.value == self.probe.expect


class ProbeContext:
    """One scan, with the indexes the probes share."""

    def __init__(self, result: ScanResult, families: Families) -> None:
        self.result = result
        self.families = families
        self._classified: dict[str, tuple[FamilyHit, ...]] = {}
        self._digests: dict[Entry, str] = {}

    def digest(self, entry: Entry) -> str:
        """sha256 of an entry, read once however many rules compare it with RECORD."""
        found = self._digests.get(entry)
        if found is None:
            found = self._digests[entry] = entry.sha256()
        return found

    def classify(self, name: str) -> tuple[FamilyHit, ...]:
        """Family hits of a lower-case DLL name, once per name (probes ask for the same few hundred)."""
        hits = self._classified.get(name)
        if hits is None:
            hits = self._classified[name] = self.families.classify(name)
        return hits

    def in_family(self, name: str, probe: Probe) -> bool:
        dll, family = probe.arg("dll"), probe.arg("family")
        lowered = name.lower()
        if dll:
            return bool(lowered == str(dll).lower())
        if family:
            return any(hit.family == family for hit in self.classify(lowered))
        return True

    def edges(self) -> Iterator[tuple[str, Node, Node]]:
        """(context, importer node, imported node) for every edge of every load operation."""
        for context, tree in self.result.trees.values():
            stack = [tree]
            while stack:
                node = stack.pop()
                for child in node.children:
                    yield context, node, child
                    if not child.repeat:
                        stack.append(child)

    def findings(self, *kinds: str) -> list[Finding]:
        return [f for f in self.result.findings if f.kind in kinds]

    def all_copies(self) -> dict[str, list[str]]:
        """Where each PE file name exists: the target, the described machine's folders, and the
        System32 copies the built-in profile assumes (the VC++ runtime), by lower-case name."""
        copies: dict[str, list[str]] = defaultdict(list)
        for report in self.result.files:
            copies[report.entry.name.lower()].append(report.entry.location)
        env = self.result.environment
        folders: list[Folder] = [f for f in (env.app_dir, env.system_dir) if f is not None]
        folders.extend(env.path_dirs)
        for folder in folders:
            for name, entry in folder.files.items():
                if entry.location not in copies[name]:
                    copies[name].append(entry.location)
        if env.system_dir is None:
            for name in env.profile.vc_runtime:
                if name in copies:
                    copies[name].append(f"System32\\{name} (assumed: VC++ Redistributable)")
        return copies

    def image(self, entry: Entry) -> PEImage | None:
        return self.result.catalog.image(entry)


def dll_resolves(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    contexts = probe.arg("context")
    only_path = _is_path_context(contexts)
    wanted = () if only_path else _load_contexts(contexts)
    needed = False
    missing: list[str] = []
    path_only: list[str] = []
    for context, importer, child in ctx.edges():
        if not ctx.in_family(child.resolution.name, probe) or (wanted and not context.startswith(wanted)):
            continue
        if child.imported is not None and child.imported.delayed:
            continue
        needed = True
        res = child.resolution
        if res.status == "missing":
            missing.append(f"{res.name} not found, needed by {importer.resolution.name} [{context}]")
        elif res.entry is not None and _on_user_path(ctx, res.name, res.entry):
            path_only.append(f"{res.name} found only through PATH [{res.reason}]: {res.location}")
    if only_path:
        return _only_on_path(ctx, probe, path_only)
    if not needed:
        return ProbeAnswer(probe, None, collect="no module of the target imports it")
    if missing:
        return ProbeAnswer(probe, False, tuple(sorted(set(missing))))
    return ProbeAnswer(probe, True, ("every importer finds it",))


def _on_user_path(ctx: ProbeContext, name: str, entry: Entry) -> bool:
    """Bound to a copy in one of the user's PATH folders (not torch's own PATH prefix)."""
    return any(folder.get(name) == entry for folder in ctx.result.environment.path_dirs)


def _only_on_path(ctx: ProbeContext, probe: Probe, path_only: list[str]) -> ProbeAnswer:
    """Is a dependency reachable only through PATH (which Python >= 3.8 does not search)?"""
    evidence = list(path_only)
    path_dirs = ctx.result.environment.path_dirs
    for finding in ctx.findings("missing-dll"):
        if not ctx.in_family(finding.dll or "", probe):
            continue
        for folder in path_dirs:
            entry = folder.get(finding.dll or "")
            if entry is not None:
                evidence.append(f"{finding.dll} is not found by the loader but is on PATH: {entry.location}")
    if evidence:
        return ProbeAnswer(probe, True, tuple(evidence))
    if not path_dirs:
        return ProbeAnswer(probe, None, collect="the PATH folders: pass each with --path (copies are enough)")
    return ProbeAnswer(probe, False, ("no missing DLL is on the given PATH folders",))


def _is_path_context(value: Any) -> bool:
    """``context: path`` (or ``[path]``): the question is whether PATH alone reaches the DLL."""
    return value == "path" or (isinstance(value, list | tuple) and list(value) == ["path"])


def _load_contexts(value: Any) -> tuple[str, ...]:
    """The scan's operation labels for the rule's context names."""
    if not value:
        return ()
    names = [value] if isinstance(value, str) else list(value)
    return tuple(c for name in names for c in _CONTEXTS.get(name, ()))


def symbol_exported(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    pattern = probe.arg("symbol")
    compiled = re2.compile(pattern) if pattern else None
    bad = []
    checked = False
    for finding in ctx.findings("missing-symbol"):
        if not ctx.in_family(finding.dll or "", probe):
            continue
        symbols = [s for s in finding.symbols if compiled is None or compiled.search(s)]
        if symbols:
            bad.append(f"{finding.dll} at the bound copy lacks {symbols[0]} (needed by {finding.chain[-2]})")
    if bad:
        return ProbeAnswer(probe, False, tuple(bad))
    for _, _, child in ctx.edges():
        if ctx.in_family(child.resolution.name, probe) and child.image is not None:
            checked = True
    if checked:
        return ProbeAnswer(probe, True, ("every imported name is exported by the copy the loader binds",))
    return ProbeAnswer(
        probe,
        None,
        collect="the DLL binds to a system copy whose exports are not known: pass --system-dir or --app-dir",
    )


def machine_matches(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    subjects = probe.arg("subject") or ("dependency", "python")
    subjects = (subjects,) if isinstance(subjects, str) else tuple(subjects)
    bad = []
    for finding in ctx.findings("arch-mismatch"):
        is_root = len(finding.chain) == 1
        if (is_root and "python" in subjects) or (not is_root and "dependency" in subjects):
            bad.append(finding.message)
    if bad:
        return ProbeAnswer(probe, False, tuple(bad))
    if not ctx.result.files:
        return ProbeAnswer(probe, None, collect="the target holds no PE file")
    return ProbeAnswer(probe, True, (f"every module is {ctx.result.environment.machine}",))


def file_intact(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    checks = probe.arg("checks") or ("pe", "present", "record-hash")
    checks = (checks,) if isinstance(checks, str) else tuple(checks)
    package = probe.arg("package")
    bad: list[str] = []
    looked = False
    if "pe" in checks:
        for finding in ctx.findings("corrupt-file"):
            if ctx.in_family(finding.dll or "", probe):
                bad.append(finding.message)
        looked = looked or bool(ctx.result.files)
    records = ctx.result.install.records
    by_path = {r.entry.relpath.lower(): r.entry for r in ctx.result.files}
    for key, record in records.items():
        if not key.endswith((".dll", ".pyd", ".exe")) or not ctx.in_family(key.rsplit("/", 1)[-1], probe):
            continue
        if package and not record.owner.lower().startswith(str(package).lower().replace("-", "_")):
            continue
        entry = by_path.get(key)
        if entry is None:
            if "present" in checks and not ctx.result.target.lower().endswith(".whl"):
                looked = True
                bad.append(f"{record.path} is listed in {record.owner}/RECORD but absent")
            continue
        if "record-hash" in checks and record.sha256 and not ctx.result.target.lower().endswith(".whl"):
            looked = True
            if ctx.digest(entry) != record.sha256:
                bad.append(f"{record.path} differs from the sha256 in {record.owner}/RECORD")
    if bad:
        return ProbeAnswer(probe, False, tuple(bad))
    if looked:
        return ProbeAnswer(probe, True, ("files are readable PE files matching their RECORD",))
    return ProbeAnswer(probe, None, collect="scan the installed site-packages folder (with its .dist-info)")


def mixed_install(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    kinds = probe.arg("kind") or ("dist-info", "conda-pip", "cuda-cpu")
    kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    package = probe.arg("package")
    install = ctx.result.install
    evidence: list[str] = []
    decided = bool(install.dist_infos)
    if "dist-info" in kinds:
        for project, infos in install.projects().items():
            if (not package or project == str(package).lower()) and len(infos) > 1:
                versions = ", ".join(sorted(i.version for i in infos))
                evidence.append(f"{len(infos)} installed versions of {project}: {versions}")
    if "conda-pip" in kinds and install.conda_files:
        decided = True
        both = sorted(k for k in install.records if _conda_key(k) in install.conda_files)
        pe_both = [k for k in both if k.endswith((".dll", ".pyd"))]
        if pe_both:
            owner = install.conda_files[_conda_key(pe_both[0])]
            evidence.append(f"{len(pe_both)} DLLs claimed by both pip and conda ({owner}), e.g. {pe_both[0]}")
    if "cuda-cpu" in kinds:
        strays = _stray_torch_dlls(ctx)
        if strays:
            evidence.append("DLLs not listed in torch's RECORD: " + ", ".join(strays[:5]))
        build = cuda_build_of(ctx, "torch")
        version = install.version_of("torch") or ""
        if build == "cuda" and "+cpu" in version:
            evidence.append(f"torch {version} is a CPU build but CUDA DLLs are present")
        if build == "cpu" and re.search(r"\+cu\d+", version):
            evidence.append(f"torch {version} is a CUDA build but torch_cuda.dll is missing")
    if evidence:
        return ProbeAnswer(probe, True, tuple(evidence))
    if decided:
        return ProbeAnswer(probe, False, ("one build of each package",))
    return ProbeAnswer(probe, None, collect="scan the site-packages folder with its .dist-info folders")


def _conda_key(record_key: str) -> str:
    return f"lib/site-packages/{record_key}" if not record_key.startswith("lib/") else record_key


def _stray_torch_dlls(ctx: ProbeContext) -> list[str]:
    records = ctx.result.install.records
    owners = {r.owner for r in records.values() if r.owner.startswith("torch-")}
    if not owners:
        return []
    return sorted(
        r.entry.relpath
        for r in ctx.result.files
        if "torch/lib/" in r.entry.relpath.lower() and r.entry.relpath.lower() not in records
    )


def duplicate_dll(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    members = {name: copies for name, copies in ctx.all_copies().items() if ctx.in_family(name, probe)}
    if not members:
        return ProbeAnswer(probe, None, collect="no copy of it in the target or the given folders")
    evidence = []
    for name, copies in sorted(members.items()):
        if len(copies) > 1:
            where = "; ".join(copies)
            evidence.append(f"{len(copies)} copies of {name}: {where}")
    family = probe.arg("family")
    if family and len(members) > 1 and family.startswith("openmp"):
        evidence.append("several OpenMP runtimes: " + ", ".join(sorted(members)))
    if evidence:
        return ProbeAnswer(probe, True, tuple(evidence))
    return ProbeAnswer(probe, False, ("one copy of each",))


def vcruntime_version(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    importer_filter = probe.arg("importer")
    too_old: list[str] = []
    compared = False
    for _, importer, child in ctx.edges():
        name = child.resolution.name.lower()
        if not name.startswith(("msvcp140", "vcruntime140")):
            continue
        if importer.image is None or importer.image.linker_version[0] != 14:
            continue
        if importer_filter and importer.resolution.name.lower() != str(importer_filter).lower():
            continue
        runtime = child.resolution.entry
        image = ctx.image(runtime) if runtime is not None else None
        if image is None or not image.file_version:
            continue
        compared = True
        runtime_version = _major_minor(image.file_version)
        if runtime_version is not None and runtime_version < importer.image.linker_version:
            too_old.append(
                f"{importer.resolution.name} was built with toolset {importer.image.linker} but binds "
                f"{child.resolution.name} {image.file_version} at {child.resolution.location} [{child.resolution.reason}]"
            )
    if too_old:
        return ProbeAnswer(probe, False, tuple(sorted(set(too_old))))
    if compared:
        return ProbeAnswer(probe, True, ("the VC++ runtime bound is as new as the toolsets",))
    return ProbeAnswer(
        probe,
        None,
        collect="the runtime binds to System32, whose version is unknown: pass --system-dir (a copy of System32)",
    )


def _major_minor(version: str) -> tuple[int, int] | None:
    match = _VERSION.match(version)
    return (int(match.group(1)), int(match.group(2))) if match else None


def cuda_major(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    family = probe.arg("family")
    wanted: dict[str, str] = {}
    for _, _, child in ctx.edges():
        for hit in ctx.classify(child.resolution.name.lower()):
            if hit.version and (not family or hit.family == family) and hit.component in ("cuda", "cudnn"):
                wanted[child.resolution.name.lower()] = f"{hit.component} {hit.version}"
    if not wanted:
        return ProbeAnswer(probe, None, collect="no module of the target links a versioned CUDA DLL")
    available = set(ctx.all_copies())
    mismatched, absent = [], []
    for name in sorted(wanted):
        if name in available:
            continue
        stem = re.sub(r"\d+(_\d+)?\.dll$", "", name)
        others = sorted(a for a in available if a.startswith(stem) and a != name)
        if others:
            mismatched.append(
                f"{name} ({wanted[name]}) is linked but absent; present instead: {', '.join(others)}"
            )
        else:
            absent.append(f"{name} ({wanted[name]}) is absent, and no other version of it is present")
    if mismatched:
        return ProbeAnswer(probe, False, tuple(mismatched))
    # Absent altogether is a missing DLL, not a version mismatch.
    return ProbeAnswer(probe, True, tuple(absent) or tuple(f"{n} present" for n in sorted(wanted)))


def cuda_build_of(ctx: ProbeContext, package: str) -> str | None:
    names = {r.entry.relpath.lower() for r in ctx.result.files}
    if not any(n.startswith(f"{package}/") or f"/{package}/" in n for n in names):
        return None
    cuda = any(n.endswith(("/torch_cuda.dll", "/c10_cuda.dll")) for n in names)
    return "cuda" if cuda else "cpu"


def cuda_build(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    package = str(probe.arg("package") or "torch")
    build = cuda_build_of(ctx, package)
    if build is None:
        return ProbeAnswer(probe, None, collect=f"{package} is not in the target")
    return ProbeAnswer(probe, build, (f"{package} is a {build.upper()} build",))


def python_abi(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    env = ctx.result.environment
    if env.python is None:
        return ProbeAnswer(probe, None, collect="the interpreter version: pass --python X.Y")
    minor = env.python[1]
    bad = []
    for report in ctx.result.files:
        if report.role != "extension":
            continue
        match = _CP_TAG.search(report.entry.name)
        if match and int(match.group(1)) != minor:
            bad.append(f"{report.entry.relpath} is built for Python 3.{match.group(1)}")
        image = report.facts if isinstance(report.facts, PEImage) else None
        for imported in image.imports if image else ():
            dll = _PY_DLL.match(imported.dll)
            if dll and int(dll.group(1)) != minor:
                bad.append(f"{report.entry.relpath} imports {imported.dll}")
    if bad:
        return ProbeAnswer(probe, False, tuple(sorted(set(bad))))
    if any(r.role == "extension" for r in ctx.result.files):
        return ProbeAnswer(probe, True, (f"every extension module targets Python 3.{minor}",))
    return ProbeAnswer(probe, None, collect="the target holds no extension module")


def environment(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    env_type = ctx.result.environment.env_type
    if env_type == "unknown":
        return ProbeAnswer(probe, None, collect="scan the environment root (the folder of python.exe)")
    wanted = probe.arg("env") or ()
    wanted = (wanted,) if isinstance(wanted, str) else tuple(wanted)
    return ProbeAnswer(probe, env_type in wanted, (f"environment type: {env_type}",))


def path_ascii(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    bad = []
    for report in ctx.result.files:
        location = report.entry.location
        if not location.isascii():
            bad.append(f"non-ASCII path: {location}")
        elif len(location) >= 260:
            bad.append(f"path longer than MAX_PATH: {location[:80]}…")
    if bad:
        return ProbeAnswer(probe, False, tuple(bad[:5]))
    if ctx.result.files:
        return ProbeAnswer(probe, True, ("every path is ASCII and shorter than 260 characters",))
    return ProbeAnswer(probe, None, collect="the target holds no PE file")


def driver_version(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    system = ctx.result.environment.system_dir
    entry = system.get("nvcuda.dll") if system is not None else None
    image = ctx.image(entry) if entry is not None else None
    if image is None or not image.file_version:
        return ProbeAnswer(probe, None, collect="nvidia-smi output, or a copy of System32 with nvcuda.dll")
    return ProbeAnswer(probe, None, (f"nvcuda.dll {image.file_version}",), collect="nvidia-smi output")


PROBES: dict[str, Callable[[ProbeContext, Probe], ProbeAnswer]] = {
    "dll-resolves": dll_resolves,
    "symbol-exported": symbol_exported,
    "machine-matches": machine_matches,
    "file-intact": file_intact,
    "mixed-install": mixed_install,
    "duplicate-dll": duplicate_dll,
    "vcruntime-version": vcruntime_version,
    "cuda-major": cuda_major,
    "cuda-build": cuda_build,
    "python-abi": python_abi,
    "environment": environment,
    "path-ascii": path_ascii,
    "driver-version": driver_version,
}

# Probes whose expected answer shows something wrong (the others only qualify a rule).
PROBLEM_ANSWERS: dict[str, object] = {
    "dll-resolves": False,
    "symbol-exported": False,
    "machine-matches": False,
    "file-intact": False,
    "mixed-install": True,
    "duplicate-dll": True,
    "vcruntime-version": False,
    "cuda-major": False,
    "python-abi": False,
    "path-ascii": False,
    "driver-version": False,
}


def is_problem(probe: Probe) -> bool:
    """Whether the answer this probe expects shows a fault (rather than only narrowing a rule down).

    "Found only through PATH" is a fault for an extension module since Python 3.8, hence the exception.
    """
    context = probe.arg("context")
    if probe.kind == "dll-resolves" and _is_path_context(context):
        return probe.expect is True
    return probe.kind in PROBLEM_ANSWERS and PROBLEM_ANSWERS[probe.kind] == probe.expect


def answer(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    function = PROBES.get(probe.kind)
    if function is None:
        return ProbeAnswer(probe, None, collect=f"probe kind {probe.kind} is not known to this version")
    return function(ctx, probe)
