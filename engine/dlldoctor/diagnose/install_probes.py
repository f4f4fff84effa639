"""Probes about the install as a whole: builds mixed in one package, duplicate runtimes, the VC++ runtime's
version, CUDA builds and majors, the Python ABI, the environment type, paths and the NVIDIA driver."""

from __future__ import annotations

import re

from dlldoctor.diagnose.probe_context import ProbeAnswer, ProbeContext
from dlldoctor.install.sources import Entry
from dlldoctor.kb.families import base_name
from dlldoctor.kb.model import Probe
from dlldoctor.pe.model import PEImage

_CP_TAG = re.compile(r"\.cp3(\d{1,2})[-_]", re.IGNORECASE)
_PY_DLL = re.compile(r"^python3(\d{1,2})\.dll$", re.IGNORECASE)
_VERSION = re.compile(r"^(\d+)\.(\d+)")


def mixed_install(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    kinds = probe.arg("kind") or ("dist-info", "conda-pip", "cuda-cpu")
    kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    package = probe.arg("package")
    install = ctx.result.install
    evidence: list[str] = []
    decided = bool(install.dist_infos)
    if "dist-info" in kinds:
        for project, infos in install.projects().items():
            infos = [i for i in infos if _installed(i.folder)]
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


def _installed(dist_info_folder: str) -> bool:
    """A ``.dist-info`` at the root of a site-packages (one that pip installed), not one a package vendors
    inside its own folder (``setuptools/_vendor/packaging-26.3.dist-info``)."""
    parent = dist_info_folder.rsplit("/", 1)[0] if "/" in dist_info_folder else ""
    return parent == "" or parent.lower().endswith("site-packages")


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
    if _is_openmp(ctx, probe):
        return _openmp_in_one_process(ctx, probe)
    return _shadowed(ctx, probe)


def _shadowed(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    """A shared DLL's copy found first shadows the one meant for the importer: the importer binds one copy
    while another sits in System32 (given, or the VC++ runtime the profile assumes) or in the importer's
    own package. Copies that belong to other packages, each bound by its own modules, shadow nothing."""
    copies = {name: where for name, where in ctx.all_copies().items() if ctx.in_family(name, probe)}
    if not copies:
        return ProbeAnswer(probe, None, collect="no copy of it in the target or the given folders")
    system_dir = ctx.result.environment.system_dir
    in_system = {e.location for e in system_dir.files.values()} if system_dir is not None else set()
    package_of = {r.entry.location: _package(r.entry.relpath) for r in ctx.result.files}
    evidence = []
    for _, importer, child in ctx.edges():
        res = child.resolution
        name = res.name.lower()
        if res.status != "found" or res.entry is None or name not in copies:
            continue  # a copy Windows or the interpreter provides shadows nothing the profile knows of
        own = package_of.get(importer.resolution.location)
        for other in copies[name]:
            meant = other.startswith("System32\\") or other in in_system
            meant = meant or (own is not None and package_of.get(other) == own)
            if other != res.location and meant:
                evidence.append(
                    f"{importer.resolution.name} binds {res.name} at {res.location} [{res.reason}], "
                    f"not the copy at {other}"
                )
    if evidence:
        counts = [
            f"{len(copies[n])} copies of {n}: {'; '.join(copies[n])}"
            for n in sorted(copies)
            if len(copies[n]) > 1
        ]
        return ProbeAnswer(probe, True, (*counts, *sorted(set(evidence))[:5]))
    return ProbeAnswer(probe, False, ("each importer binds the copy meant for it",))


def _package(relpath: str) -> str:
    """The top-level folder of a file inside site-packages (``PyQt6`` for ``PyQt6/Qt6/bin/Qt6Core.dll``)."""
    parts = relpath.split("/")
    if len(parts) > 2 and parts[0].lower() == "lib" and parts[1].lower() == "site-packages":
        parts = parts[2:]
    return parts[0].lower() if len(parts) > 1 else ""


def _is_openmp(ctx: ProbeContext, probe: Probe) -> bool:
    family, dll = probe.arg("family"), probe.arg("dll")
    if family:
        return str(family).startswith("openmp")
    return bool(dll) and any(hit.family.startswith("openmp") for hit in ctx.classify(str(dll).lower()))


def _openmp_in_one_process(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    """Two different files of one OpenMP runtime that both end up loaded in python.exe.

    Windows keeps one module per base name: a second same-name copy found by search binds the one already
    loaded, so same-name copies are both loaded only when one of them is loaded by full path (torch's
    preload of torch\\lib, a ``ctypes`` load a package makes). Copies under different names (``libiomp5md.dll``
    and delvewheel's ``libiomp5md-<hash>.dll``) are loaded side by side. A copy counts when a module binds
    it, when it is loaded by full path, or when it sits in a conda environment's DLL folders, which serve
    every package of the environment. Different runtimes (Microsoft's vcomp140, Intel's libiomp5md, LLVM's
    libomp140) are no duplicates of one another, and a System32 copy that the built-in profile only
    assumes is no copy at all.
    """
    copies: dict[str, dict[str, tuple[str, bool]]] = {}  # runtime → location → (file name, by full path)

    def add(entry: Entry, by_path: bool) -> None:
        where = copies.setdefault(base_name(entry.name), {})
        name, earlier = where.get(entry.location, (entry.name.lower(), False))
        where[entry.location] = (name, earlier or by_path)

    for context, tree in ctx.process_trees():
        for node in tree.walk():
            res = node.resolution
            if res.status != "found" or res.entry is None or not ctx.in_family(res.name, probe):
                continue
            if node is not tree:
                add(res.entry, "ctypes in " in res.reason)
            elif context.startswith("torch preload"):
                add(res.entry, True)
    if ctx.result.environment.env_type == "conda":
        for report in ctx.result.files:
            folder = report.entry.folder.lower()
            if folder in _CONDA_DLL_FOLDERS and ctx.in_family(report.entry.name, probe):
                add(report.entry, False)
    if not copies:
        return ProbeAnswer(probe, None, collect="no module of the target loads an OpenMP runtime")
    evidence = []
    for runtime, where in sorted(copies.items()):
        names = {name for name, _ in where.values()}
        if len(where) > 1 and (len(names) > 1 or any(by_path for _, by_path in where.values())):
            places = "; ".join(
                f"{location}{' (by full path)' if by_path else ''}"
                for location, (_, by_path) in sorted(where.items())
            )
            evidence.append(f"{len(where)} copies of {runtime} loaded in one process: {places}")
    if evidence:
        return ProbeAnswer(probe, True, tuple(evidence))
    return ProbeAnswer(probe, False, ("one copy of each OpenMP runtime is loaded",))


_CONDA_DLL_FOLDERS = frozenset({"library/bin", "library/mingw-w64/bin", "library/usr/bin"})


# The VC++ runtime DLLs every module of a process shares by name. delvewheel's renamed private copies
# (``msvcp140-<hash>.dll``) serve only the modules of their wheel: nothing loaded earlier can shadow them.
_SHARED_RUNTIME = re.compile(
    r"^(msvcp140(_1|_2|_atomic_wait|_codecvt_ids)?|vcruntime140(_1|_threads)?)\.dll$"
)
# Toolsets whose code breaks on an older runtime even though every name it imports is exported: VS 17.10
# (14.40) made std::mutex's constructor constexpr, so such code crashes or fails with 1114 on a runtime
# before 14.40. An older runtime that lacks a name is a missing-symbol finding, which symbol-exported reads.
ABI_BREAKS: tuple[tuple[int, int], ...] = ((14, 40),)


def _breaks(toolset: tuple[int, int], runtime: tuple[int, int]) -> bool:
    """Code built with ``toolset`` cannot run on ``runtime``: a silent ABI change lies between them."""
    return any(runtime < boundary <= toolset for boundary in ABI_BREAKS)


def vcruntime_version(ctx: ProbeContext, probe: Probe) -> ProbeAnswer:
    importer_filter = probe.arg("importer")
    too_old: list[str] = []
    compared = private = False
    for _, importer, child in ctx.edges():
        name = child.resolution.name.lower()
        if not base_name(name).startswith(("msvcp140", "vcruntime140")):
            continue
        if importer.image is None or importer.image.linker_version[0] != 14:
            continue
        if importer_filter and importer.resolution.name.lower() != str(importer_filter).lower():
            continue
        runtime = child.resolution.entry
        image = ctx.image(runtime) if runtime is not None else None
        if image is None or not image.file_version:
            continue
        if not _SHARED_RUNTIME.match(name):
            # A renamed private copy: its version is the wheel's own choice; a name it lacks is a
            # missing-symbol finding, which symbol-exported reports.
            private = private or not child.missing_symbols
            continue
        compared = True
        runtime_version = _major_minor(image.file_version)
        if runtime_version is not None and _breaks(importer.image.linker_version, runtime_version):
            too_old.append(
                f"{importer.resolution.name} was built with toolset {importer.image.linker} but binds "
                f"{child.resolution.name} {image.file_version} at {child.resolution.location} [{child.resolution.reason}]"
            )
    if too_old:
        return ProbeAnswer(probe, False, tuple(sorted(set(too_old))))
    if compared:
        return ProbeAnswer(
            probe, True, ("the VC++ runtime bound runs the code of every toolset that imports it",)
        )
    if private:
        return ProbeAnswer(
            probe,
            True,
            ("the modules bind renamed private copies of the runtime that export what they import",),
        )
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
