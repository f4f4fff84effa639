"""The load operations of one Python process over a target: torch's preload, each extension module's
import, programs started, and full-path loads of the DLLs nothing imports."""

from __future__ import annotations

from dataclasses import replace

from dlldoctor.cache.pe_facts import Catalog
from dlldoctor.install.registrations import Registration
from dlldoctor.install.sources import Entry
from dlldoctor.loader.environment import Environment
from dlldoctor.loader.resolution import Loader, Node, Operation, Process, SearchDir
from dlldoctor.pe.model import PEImage
from dlldoctor.scan.layout import InstallLayout, label
from dlldoctor.vocabulary import LoadContext

TORCH_CORE = ("c10.dll", "torch_cpu.dll", "torch_python.dll")


def _within(folder: str, scope: str) -> bool:
    """Whether a module in ``folder`` belongs to the package at ``scope`` ("" is every module)."""
    folder, scope = folder.lower(), scope.lower()
    return not scope or folder == scope or folder.startswith(scope + "/")


class ProcessModel:
    def __init__(
        self,
        layout: InstallLayout,
        env: Environment,
        catalog: Catalog,
        registrations: tuple[Registration, ...] = (),
    ) -> None:
        self.layout = layout
        self.env = env
        self.loader = Loader(env, catalog, layout.folders, layout.install_folder)
        self.catalog = catalog
        self.registrations = registrations
        self.uncertain: set[str] = set()  # roots nothing in the target is known to load
        self._folder_keys = {key.lower(): key for key in layout.folders}
        self._preloaded: dict[str, Node] = {}
        self._host_dirs: dict[str, list[tuple[str, SearchDir]]] = {}

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
            SearchDir(self.layout.folders[k], "conda", label(k)) for k in keys if k in self.layout.folders
        ]

    def torch_lib(self) -> str | None:
        for key, folder in sorted(self.layout.folders.items()):
            if key.endswith("torch/lib") and any(folder.get(n) for n in TORCH_CORE):
                return key
        return None

    def torch_preload(self, lib_key: str, results: list[tuple[str, LoadContext, Node]]) -> Process:
        """torch/__init__.py on Windows: add_dll_directory, CDLL of the VC++ runtime, then every torch\\lib DLL."""
        lib = self.layout.folders[lib_key]
        torch_dirs = [SearchDir(lib, "add_dll_directory", label(lib_key))]
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
        """The folders the package's own code adds with os.add_dll_directory before ``entry`` loads (read
        from its ``__init__.py`` files and the .pth files), else delvewheel's ``<package>.libs``."""
        folder = self.layout.install_folder[entry]
        dirs: dict[str, SearchDir] = {}
        own = False
        for reg in self.registrations:
            key = self._folder_keys.get(reg.path.lower())
            if reg.kind == "dll-directory" and key is not None and _within(folder, reg.scope):
                dirs.setdefault(key, SearchDir(self.layout.folders[key], "add_dll_directory", label(key)))
                own = own or bool(reg.scope)
        if not own:
            key = self._libs_folder(folder)
            if key is not None:
                dirs.setdefault(key, SearchDir(self.layout.folders[key], "add_dll_directory", label(key)))
        return list(dirs.values())

    def _top_package(self, folder: str) -> str | None:
        """The top-level package folder ``folder`` belongs to (``Lib/site-packages/x`` in an environment
        root), or None outside any (the target root, a wheel's data files)."""
        parts = folder.split("/") if folder else []
        if self.layout.env_root and folder.lower().startswith("lib/site-packages/"):
            return "/".join(parts[:3]) if len(parts) > 2 else None
        if parts and parts[0] == "<prefix>":
            return None
        return parts[0] if parts else None

    def _libs_folder(self, folder: str) -> str | None:
        """delvewheel's ``<package>.libs`` beside the package, as Windows matches names: in any case."""
        top = self._top_package(folder)
        return self._folder_keys.get(f"{top}.libs".lower()) if top else None

    def package_host_dirs(self, entry: Entry) -> tuple[SearchDir, ...]:
        """The other folders of the entry's top-level package that hold DLLs, searched last: what the
        package loaded before (a Qt plugin binds the Qt DLLs its host already loaded)."""
        own = self.layout.install_folder[entry]
        top = self._top_package(own)
        if top is None:
            return ()
        if top not in self._host_dirs:  # once per package: a stack has thousands of folders
            self._host_dirs[top] = [
                (key, SearchDir(folder, "loaded by its package", label(key)))
                for key, folder in sorted(self.layout.folders.items())
                if _within(key, top) and folder.files
            ]
        return tuple(d for key, d in self._host_dirs[top] if key != own)

    def preload(self, entry: Entry, process: Process) -> list[tuple[str, LoadContext, Node]]:
        """DLLs the package's code loads with ctypes by full path before ``entry``: loaded once, and
        already in the process for every module of that package."""
        done: list[tuple[str, LoadContext, Node]] = []
        folder = self.layout.install_folder[entry]
        for reg in self.registrations:
            if reg.kind != "preload" or not _within(folder, reg.scope):
                continue
            key = self._folder_keys.get(reg.path.rsplit("/", 1)[0].lower() if "/" in reg.path else "")
            target = (
                self.layout.folders[key].get(reg.path.rsplit("/", 1)[-1].lower()) if key is not None else None
            )
            if target is None:
                continue
            tree = self._preloaded.get(target.relpath)
            if tree is None:
                operation = Operation("loaded by full path", self.loader.extension_search(target, process))
                tree = self._preloaded[target.relpath] = self.loader.load(target, operation, process)
                done.append((target.relpath, "loaded by full path", tree))
            if tree.resolution.status == "found":
                reason = f"ctypes in {reg.module}"
                process.loaded.setdefault(target.name.lower(), replace(tree.resolution, reason=reason))
        return done

    def run(self, entries: list[Entry]) -> list[tuple[str, LoadContext, Node]]:
        results: list[tuple[str, LoadContext, Node]] = []
        lib_key = self.torch_lib()
        legacy_prefix: tuple[SearchDir, ...] = ()
        if lib_key and not self.env.modern_loader:
            # torch releases for Python < 3.8 put torch\lib at the front of PATH instead of preloading.
            legacy_prefix = (SearchDir(self.layout.folders[lib_key], "PATH", label(lib_key)),)
            lib_key = None
        torch_process = self.torch_preload(lib_key, results) if lib_key else None
        torch_names = set(self.layout.folders[lib_key].files) if lib_key else set()
        torch_root = lib_key.rsplit("/", 1)[0] if lib_key else None
        reached = {node.resolution.location for _, _, tree in results for node in tree.walk()}
        for entry in entries:
            if not entry.name.lower().endswith(".pyd"):
                continue
            process = self._process_for(entry, torch_process, torch_names, torch_root)
            for preloaded in self.preload(entry, process):
                results.append(preloaded)
                reached.update(node.resolution.location for node in preloaded[2].walk())
            if self.env.modern_loader:
                search = (*self.loader.extension_search(entry, process), *self.package_host_dirs(entry))
                operation = Operation("extension module", search)
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
                self.uncertain.add(entry.relpath)  # a launcher or helper, not loaded into python.exe
                reached.update(node.resolution.location for node in tree.walk())
        for entry in entries:
            if entry.location in reached or entry.name.lower().endswith(".pyd"):
                continue
            process = self.base_process(self.package_dirs(entry))
            search = (*self.loader.extension_search(entry, process), *self.package_host_dirs(entry))
            tree = self.loader.load(entry, Operation("loaded by full path", search), process)
            results.append((entry.relpath, "loaded by full path", tree))
            self.uncertain.add(entry.relpath)  # a plugin, an alternative build, or loaded by code unseen
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
