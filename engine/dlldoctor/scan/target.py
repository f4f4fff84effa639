"""Scan a target: find its PE files, lay out the process that would load them, collect findings.

The load operations follow what really happens in ``python.exe``: torch's preload of ``torch\\lib``
(when torch is in the target), each extension module's import, and, for DLLs nothing imports, a load
by full path as ``ctypes`` does it.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

from dlldoctor.cache.pe_facts import Catalog
from dlldoctor.install.metadata import read_install_facts
from dlldoctor.install.sources import (
    Entry,
    FileSource,
    Source,
    WheelSource,
    open_target,
    wheel_install_folder,
)
from dlldoctor.loader.environment import (
    Environment,
    Folder,
    copied_folder,
    folder_of,
    infer_machine,
    infer_python,
    parse_python_version,
)
from dlldoctor.loader.findings import Finding, from_tree
from dlldoctor.loader.resolution import Loader, Node, Operation, Process, SearchDir
from dlldoctor.loader.sysprofile import load_profile
from dlldoctor.pe.layout import DefectError
from dlldoctor.pe.model import PEImage
from dlldoctor.scan.result import FileReport, ScanOptions, ScanResult
from dlldoctor.vocabulary import LoadContext

TORCH_CORE = ("c10.dll", "torch_cpu.dll", "torch_python.dll")
CONTEXT_PRIORITY: tuple[LoadContext, ...] = (
    "extension module",
    "torch preload",
    "program start",
    "loaded by full path",
)


def _role(entry: Entry, facts: PEImage | DefectError) -> str:
    suffix = posixpath.splitext(entry.name)[1].lower()
    if suffix == ".pyd":
        return "extension"
    if isinstance(facts, PEImage) and not facts.is_dll:
        return "exe"
    return "exe" if suffix == ".exe" else "dll"


def module_name(relpath: str) -> str:
    """``torch/_C.cp311-win_amd64.pyd`` → ``torch._C``."""
    stem = posixpath.splitext(relpath)[0].split(".")[0]
    return stem.replace("/", ".")


class _Layout:
    """A target's files grouped by the folder they sit in once installed."""

    def __init__(self, source: Source, entries: list[Entry]) -> None:
        self.is_wheel = isinstance(source, WheelSource)
        self.by_folder: dict[str, list[Entry]] = defaultdict(list)
        self.install_folder: dict[Entry, str] = {}
        for entry in entries:
            folder = wheel_install_folder(entry.relpath) if self.is_wheel else entry.folder
            self.install_folder[entry] = folder
            self.by_folder[folder].append(entry)
        if isinstance(source, FileSource):
            for sibling in source.siblings():
                self.by_folder[""].append(sibling)
        root_label = Path(source.label).name if not isinstance(source, FileSource) else source.root.name
        self.folders = {
            key: folder_of(items, _label(key) if key else root_label or ".")
            for key, items in self.by_folder.items()
        }
        self.env_root = not self.is_wheel and any(
            e.relpath.lower() == "python.exe" for e in self.by_folder.get("", [])
        )


def _label(key: str) -> str:
    if key == "<prefix>":
        return "<python.exe folder>"
    return key.replace("/", "\\") if key else "."


def build_environment(
    options: ScanOptions, layout: _Layout, catalog: Catalog, names: frozenset[str], entries: list[Entry]
) -> Environment:
    profile = load_profile(options.rules_root)
    assumptions: list[str] = []
    pyds = [e for e in entries if e.name.lower().endswith(".pyd")]
    imported = [i.dll for e in pyds if (img := catalog.image(e)) for i in img.imports]
    app_entries = layout.by_folder.get("", []) if layout.env_root else []
    python: tuple[int, int] | None
    if options.python:
        python = parse_python_version(options.python)
    else:
        votes = [e.name for e in app_entries if e.name.lower().startswith("python3")]
        python, how = infer_python([*names, *votes], imported)
        if python is None:
            assumptions.append(
                "Python version unknown: any pythonXY.dll is taken as the interpreter's (pass --python X.Y)"
            )
        else:
            assumptions.append(f"Python {python[0]}.{python[1]}: {how}")
    exe = next((e for e in app_entries if e.name.lower() == "python.exe"), None)
    exe_image = catalog.image(exe) if exe else None
    if exe_image is not None:
        machine, how = exe_image.machine, "from python.exe"
    else:
        machines = [img.machine for e in pyds if (img := catalog.image(e))]
        if not machines:
            machines = [img.machine for e in entries if (img := catalog.image(e))]
        machine, how = infer_machine(names, machines)
    assumptions.append(f"process machine {machine}: {how}")
    app_dir: Folder | None = None
    if options.app_dir:
        app_dir = copied_folder(options.app_dir, "--app-dir")
    elif layout.env_root:
        app_dir = layout.folders[""]
    elif "<prefix>" in layout.folders:
        app_dir = layout.folders["<prefix>"]
        assumptions.append("the wheel's data files (.data/data) are installed next to python.exe")
    else:
        assumptions.append(
            "python.exe folder unknown: only the interpreter's own DLLs are assumed there "
            "(pass --app-dir or scan the environment root)"
        )
    system_dir = copied_folder(options.system_dir, "--system-dir") if options.system_dir else None
    if system_dir is None:
        assumptions.append(
            "System32 is a stock Windows 10/11 (built-in profile; pass --system-dir to use a copy)"
        )
    path_dirs = tuple(copied_folder(p, "--path") for p in options.path)
    env_type = _env_type(names, layout.env_root)
    return Environment(python, machine, env_type, app_dir, path_dirs, system_dir, profile, tuple(assumptions))


def _env_type(names: frozenset[str], env_root: bool) -> str:
    lowered = {n.lower() for n in names}
    if not env_root:
        return "unknown"
    if any(n.startswith("conda-meta/") for n in lowered):
        return "conda"
    if "pyvenv.cfg" in lowered:
        return "venv"
    if any(n.endswith("._pth") for n in lowered):
        return "embedded"
    return "system"


class _Scanner:
    def __init__(self, layout: _Layout, env: Environment, catalog: Catalog) -> None:
        self.layout = layout
        self.env = env
        self.loader = Loader(env, catalog, layout.folders, layout.install_folder)
        self.catalog = catalog

    def base_process(self, package_dirs: list[SearchDir]) -> Process:
        process = Process(user_dirs=list(package_dirs))
        python_dll = self.env.python_dll
        if python_dll:
            found = self.loader.resolve(python_dll, (self.loader.app_dir(),), process)
            process.loaded[python_dll] = found
        vcruntime = self.loader.resolve(
            "vcruntime140.dll", (self.loader.app_dir(), self.loader.system32()), process
        )
        if vcruntime.status == "found":
            process.loaded["vcruntime140.dll"] = replace(vcruntime, reason="python.exe", considered=())
        return process

    def conda_dirs(self) -> list[SearchDir]:
        if self.env.env_type != "conda":
            return []
        keys = ("Library/mingw-w64/bin", "Library/usr/bin", "Library/bin", "Scripts", "bin")
        return [
            SearchDir(self.layout.folders[k], "conda", _label(k)) for k in keys if k in self.layout.folders
        ]

    def torch_lib(self) -> str | None:
        for key, folder in sorted(self.layout.folders.items()):
            if key.endswith("torch/lib") and any(folder.get(n) for n in TORCH_CORE):
                return key
        return None

    def torch_preload(self, lib_key: str, results: list[tuple[str, LoadContext, Node]]) -> Process:
        """torch/__init__.py on Windows: add_dll_directory, CDLL of the VC++ runtime, then every torch\\lib DLL."""
        lib = self.layout.folders[lib_key]
        torch_dirs = [SearchDir(lib, "add_dll_directory", _label(lib_key))]
        prefix_bin = "Library/bin" if self.layout.env_root else None
        if prefix_bin and prefix_bin in self.layout.folders:
            torch_dirs.append(SearchDir(self.layout.folders[prefix_bin], "add_dll_directory", "Library\\bin"))
        process = self.base_process([*self.conda_dirs(), *torch_dirs])
        default_dirs = (self.loader.app_dir(), *process.user_dirs, self.loader.system32())
        for name in ("vcruntime140.dll", "msvcp140.dll", "vcruntime140_1.dll"):
            found = self.loader.resolve(name, default_dirs, process)
            if found.status == "found":
                process.loaded.setdefault(name, found)
        path_prefix = tuple(SearchDir(d.folder, "PATH", d.label) for d in torch_dirs)
        for entry in sorted(lib.files.values(), key=lambda e: e.name.lower()):
            if not entry.name.lower().endswith(".dll") or entry not in self.layout.install_folder:
                continue
            operation = Operation(
                "torch preload",
                (
                    self.loader.load_dir(entry),
                    self.loader.app_dir(),
                    *process.user_dirs,
                    self.loader.system32(),
                ),
                fallback=self.loader.standard_search(path_prefix),
            )
            results.append((entry.relpath, "torch preload", self.loader.load(entry, operation, process)))
        return process

    def package_dirs(self, entry: Entry) -> list[SearchDir]:
        """delvewheel's ``<package>.libs`` folder, added with os.add_dll_directory by the package's patch."""
        folder = self.layout.install_folder[entry]
        top = folder.split("/")[0] if folder else ""
        site = ""
        if self.layout.env_root and folder.lower().startswith("lib/site-packages/"):
            site, top = "Lib/site-packages/", folder.split("/")[2]
        key = f"{site}{top}.libs"
        if top and key in self.layout.folders:
            return [SearchDir(self.layout.folders[key], "add_dll_directory", _label(key))]
        return []

    def run(self, entries: list[Entry]) -> list[tuple[str, LoadContext, Node]]:
        results: list[tuple[str, LoadContext, Node]] = []
        lib_key = self.torch_lib()
        legacy_prefix: tuple[SearchDir, ...] = ()
        if lib_key and not self.env.modern_loader:
            # torch releases for Python < 3.8 put torch\lib at the front of PATH instead of preloading.
            legacy_prefix = (SearchDir(self.layout.folders[lib_key], "PATH", _label(lib_key)),)
            lib_key = None
        torch_process = self.torch_preload(lib_key, results) if lib_key else None
        torch_names = set(self.layout.folders[lib_key].files) if lib_key else set()
        torch_root = lib_key.rsplit("/", 1)[0] if lib_key else None
        reached = {node.resolution.location for _, _, tree in results for node in tree.walk()}
        for entry in entries:
            if not entry.name.lower().endswith(".pyd"):
                continue
            process = self._process_for(entry, torch_process, torch_names, torch_root)
            if self.env.modern_loader:
                operation = Operation("extension module", self.loader.extension_search(entry, process))
            else:
                operation = Operation(
                    "extension module (Python < 3.8)", self.loader.legacy_search(entry, legacy_prefix)
                )
            tree = self.loader.load(entry, operation, process)
            results.append((entry.relpath, "extension module", tree))
            reached.update(node.resolution.location for node in tree.walk())
        for entry in entries:
            facts = self.catalog.facts(entry)
            if isinstance(facts, PEImage) and not facts.is_dll and not entry.name.lower().endswith(".pyd"):
                # A program's folder is its application directory, then the standard order.
                operation = Operation(
                    "program start",
                    (
                        self.loader.load_dir(entry),
                        self.loader.system32(),
                        *self.loader.path_dirs(),
                    ),
                )
                tree = self.loader.load(entry, operation, Process())
                results.append((entry.relpath, "program start", tree))
                reached.update(node.resolution.location for node in tree.walk())
        for entry in entries:
            if entry.location in reached or entry.name.lower().endswith(".pyd"):
                continue
            process = self.base_process(self.package_dirs(entry))
            operation = Operation("loaded by full path", self.loader.extension_search(entry, process))
            tree = self.loader.load(entry, operation, process)
            results.append((entry.relpath, "loaded by full path", tree))
            reached.update(node.resolution.location for node in tree.walk())
        return results

    def _process_for(
        self, entry: Entry, torch_process: Process | None, torch_names: set[str], torch_root: str | None
    ) -> Process:
        image = self.catalog.image(entry)
        uses_torch = torch_process is not None and (
            (torch_root is not None and self.layout.install_folder[entry].startswith(torch_root))
            or (image is not None and any(i.dll.lower() in torch_names for i in image.imports))
        )
        if uses_torch and torch_process is not None:
            return Process(dict(torch_process.loaded), [*torch_process.user_dirs, *self.package_dirs(entry)])
        return self.base_process([*self.conda_dirs(), *self.package_dirs(entry)])


def scan_target(target: str, options: ScanOptions, catalog: Catalog | None = None) -> ScanResult[Any]:
    """Scan one target; pass a ``catalog`` to use a fact cache, a thread count or a progress display."""
    source = open_target(target)
    try:
        entries = list(source.entries())
        names = source.names()
        catalog = Catalog() if catalog is None else catalog
        # Every PE file is read on threads, through the cache, while this thread reads the RECORD.
        catalog.prefetch(entries, wait=False)
        layout = _Layout(source, entries)
        install = read_install_facts(source, layout.is_wheel)
        reports = [
            FileReport(e, facts := catalog.facts(e), _role(e, facts), layout.install_folder[e])
            for e in entries
        ]
        env = build_environment(options, layout, catalog, names | {Path(target).name}, entries)
        scanner = _Scanner(layout, env, catalog)
        trees = scanner.run(entries)
        env = replace(env, assumptions=(*env.assumptions, *sorted(scanner.loader.assumptions.values())))
        findings = _collect(trees, env.machine, reports)
        tree_map = {rel: (ctx, tree) for rel, ctx, tree in trees}
        return ScanResult(target, env, reports, findings, tree_map, install, catalog)
    finally:
        source.close()


def _collect(
    trees: list[tuple[str, LoadContext, Node]], machine: str, files: list[FileReport]
) -> list[Finding]:
    best: dict[tuple[str, str, str], Finding] = {}
    for relpath, context, tree in trees:
        for finding in from_tree(tree, relpath, context, machine):
            current = best.get(finding.key)
            if current is None or _rank(finding) < _rank(current):
                best[finding.key] = finding
    for report in files:
        if isinstance(report.facts, DefectError):
            finding = Finding(
                "corrupt-file",
                "error",
                report.entry.location,
                report.entry.name,
                None,
                f"{report.entry.name} is not a usable PE file: {report.facts}",
                (report.entry.relpath,),
                "file check",
            )
            best.setdefault(finding.key, finding)  # a chain to it, when one was found, says more
    return sorted(
        best.values(), key=lambda f: (f.severity != "error", f.kind, f.file, f.dll or "", f.symbol or "")
    )


def _rank(finding: Finding) -> tuple[int, int]:
    context = next((i for i, c in enumerate(CONTEXT_PRIORITY) if finding.context.startswith(c)), 9)
    return context, len(finding.chain)
