"""The Windows loader, modelled as load operations inside one Python process.

A load operation (one ``LoadLibraryExW`` call, an extension-module import, one step of torch's
preload) has a search list fixed by its flags. Every dependency in its graph is resolved by that same
list, after the checks Windows makes before any folder is searched: API sets, the loaded-module list,
KnownDLLs. A module's own ``DependentLoadFlags`` replace the list for its direct imports. Each resolved
edge carries the reason it resolved where it did, as users read it: ``[same folder]``,
``[python.exe folder]``, ``[add_dll_directory: torch\\lib]``, ``[System32]``, ``[KnownDLL]``,
``[API set → ucrtbase.dll]``, ``[PATH fallback]``, ``[already loaded]``, ``[delay-load]``.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from dlldoctor.cache.pe_facts import Catalog
from dlldoctor.install.sources import Entry
from dlldoctor.loader.environment import Environment, Folder
from dlldoctor.pe.layout import DefectError
from dlldoctor.pe.model import Import, PEImage
from dlldoctor.vocabulary import LoadContext, ResolutionStatus, SearchKind

# LoadLibraryEx search flags (DependentLoadFlags uses the same bits).
LOAD_DIR = 0x100
APPLICATION_DIR = 0x200
USER_DIRS = 0x400
SYSTEM32 = 0x800
DEFAULT_DIRS = 0x1000
SYSTEM32_NO_FORWARDER = 0x2000

MAX_FORWARDS = 16  # forwarders followed from one import; real chains are one or two long

COMPATIBLE = {
    "x64": frozenset({"x64", "arm64x"}),
    "x86": frozenset({"x86"}),
    "arm64": frozenset({"arm64", "arm64x"}),
    "arm64ec": frozenset({"x64", "arm64ec", "arm64x"}),
}


@dataclass(frozen=True)
class SearchDir:
    folder: Folder | None  # None: the System32 of the built-in profile
    kind: SearchKind
    label: str = ""  # which folder of that kind, as users read it ("torch\\lib")

    @property
    def reason(self) -> str:
        return f"{self.kind}: {self.label}" if self.label else self.kind


@dataclass(frozen=True)
class Resolution:
    """Where one imported name binds, and why."""

    name: str
    status: ResolutionStatus
    reason: str
    location: str
    entry: Entry | None = None
    considered: tuple[str, ...] = ()
    assumed: str | None = None  # the assumption it rests on, if any
    system: bool = False  # provided by Windows or the interpreter, not by the target


@dataclass
class Node:
    """A module in a load operation's dependency tree."""

    resolution: Resolution
    imported: Import | None
    image: PEImage | None = None
    defect: DefectError | None = None
    children: list[Node] = field(default_factory=list)
    repeat: bool = False
    missing_symbols: tuple[str, ...] = ()

    def walk(self) -> list[Node]:
        """This node and every node below it."""
        stack, out = [self], []
        while stack:
            current = stack.pop()
            out.append(current)
            stack.extend(current.children)
        return out


@dataclass
class Process:
    """The state a Python process carries from one load operation to the next."""

    loaded: dict[str, Resolution] = field(default_factory=dict)
    user_dirs: list[SearchDir] = field(default_factory=list)


@dataclass(frozen=True)
class Operation:
    """One load operation: its label, its search list, and the fallback after error 126 (torch)."""

    context: LoadContext
    search: tuple[SearchDir, ...]
    fallback: tuple[SearchDir, ...] = ()


class Loader:
    def __init__(
        self,
        env: Environment,
        catalog: Catalog,
        folders: dict[str, Folder],
        install_folder: dict[Entry, str] | None = None,
    ) -> None:
        self.env = env
        self.catalog = catalog
        self.folders = folders  # target folders by posix path, as installed
        self.install_folder = install_folder or {}  # a wheel member's folder once installed
        self.assumptions: dict[str, str] = {}
        self._system_names = env.profile.system_dlls | env.profile.known_dlls

    # ----- search lists -------------------------------------------------------------------------

    def app_dir(self) -> SearchDir:
        return SearchDir(self.env.app_dir or Folder("<python.exe folder>"), "python.exe folder")

    def system32(self) -> SearchDir:
        return SearchDir(self.env.system_dir, "System32")

    def folder(self, relpath: str) -> Folder:
        return self.folders.get(relpath) or Folder(relpath)

    def load_dir(self, entry: Entry) -> SearchDir:
        return SearchDir(self.folder(self.install_folder.get(entry, entry.folder)), "same folder")

    def extension_search(self, root: Entry, process: Process) -> tuple[SearchDir, ...]:
        """CPython >= 3.8: LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR."""
        return (self.load_dir(root), self.app_dir(), *process.user_dirs, self.system32())

    def legacy_search(self, root: Entry, path_prefix: tuple[SearchDir, ...] = ()) -> tuple[SearchDir, ...]:
        """Python < 3.8: LOAD_WITH_ALTERED_SEARCH_PATH, then System32, the Windows folder and PATH."""
        return (self.load_dir(root), self.system32(), *path_prefix, *self.path_dirs())

    def standard_search(self, prefix: tuple[SearchDir, ...] = ()) -> tuple[SearchDir, ...]:
        """Plain LoadLibrary: python.exe folder, System32, Windows, current dir, then PATH."""
        return (self.app_dir(), self.system32(), *prefix, *self.path_dirs())

    def path_dirs(self) -> tuple[SearchDir, ...]:
        return tuple(SearchDir(f, "PATH") for f in self.env.path_dirs)

    def flags_search(self, flags: int, importer: Entry, process: Process) -> tuple[SearchDir, ...]:
        dirs: list[SearchDir] = []
        if flags & LOAD_DIR:
            dirs.append(self.load_dir(importer))
        if flags & (APPLICATION_DIR | DEFAULT_DIRS):
            dirs.append(self.app_dir())
        if flags & (USER_DIRS | DEFAULT_DIRS):
            dirs.extend(process.user_dirs)
        if flags & (SYSTEM32 | DEFAULT_DIRS | SYSTEM32_NO_FORWARDER):
            dirs.append(self.system32())
        return tuple(dirs)

    # ----- resolving one name -------------------------------------------------------------------

    def resolve(self, name: str, search: tuple[SearchDir, ...], process: Process) -> Resolution:
        lowered = name.lower()
        api_set = self.env.profile.api_set(lowered)
        if api_set is not None:
            return self._api_set(name, api_set.host, api_set.optional, process)
        loaded = process.loaded.get(lowered)
        if loaded is not None:
            first = loaded.reason.removeprefix("already loaded; ")
            return Resolution(
                name,
                loaded.status,
                f"already loaded; {first}",
                loaded.location,
                loaded.entry,
                assumed=loaded.assumed,
                system=loaded.system,
            )
        if lowered in self.env.profile.known_dlls and self.env.system_dir is None:
            return Resolution(name, "found", "KnownDLL", f"System32\\{name}", system=True)
        if lowered in self.env.profile.known_dlls and self.env.system_dir is not None:
            entry = self.env.system_dir.get(lowered)
            if entry is not None:
                return Resolution(name, "found", "KnownDLL", entry.location, entry, system=True)
        considered: list[str] = []
        for directory in search:
            found = self._look_in(name, directory, considered)
            if found is not None:
                return found
        others = sum(1 for d in search if d.kind == "loaded by its package")
        if others:  # one line for them: a package can hold hundreds of folders (Qt's plugins)
            considered.append(f"{others} other folder(s) of the package")
        return Resolution(name, "missing", "not found", "", considered=tuple(considered))

    def _api_set(self, name: str, host: str | None, optional: bool, process: Process) -> Resolution:
        reason = f"API set → {host}" if host else "API set"
        system = self.env.system_dir
        if system is None or host is None:
            return Resolution(name, "found", reason, host or "API set schema", system=True)
        host_entry = system.get(host)
        if host_entry is not None or host in process.loaded:
            location = host_entry.location if host_entry is not None else host
            return Resolution(name, "found", reason, location, system=True)
        status: ResolutionStatus = "found" if optional else "missing"
        return Resolution(name, status, reason, "", considered=(f"{system.label}\\{host}",), system=True)

    def _look_in(self, name: str, directory: SearchDir, considered: list[str]) -> Resolution | None:
        lowered = name.lower()
        folder = directory.folder
        if folder is None:
            considered.append(f"System32\\{name}")
            return self._profile_system32(name)
        if directory.reason == "python.exe folder":
            interpreter = self._interpreter_dll(name, folder)
            if interpreter is not None:
                return interpreter
        if directory.kind != "loaded by its package":
            considered.append(_join(folder.label, name))
        entry = folder.get(lowered)
        if entry is None:
            return None
        facts = self.catalog.facts(entry)
        if isinstance(facts, DefectError):
            return Resolution(name, "corrupt", directory.reason, entry.location, entry, tuple(considered))
        if facts.machine not in COMPATIBLE.get(self.env.machine, frozenset({self.env.machine})):
            return Resolution(
                name, "wrong-machine", directory.reason, entry.location, entry, tuple(considered)
            )
        note = None
        if directory.kind == "loaded by its package":
            note = (
                "DLLs that only another folder of the same package holds are taken as loaded by that "
                "package before they are needed (a Qt plugin binds the Qt DLLs its host loaded)"
            )
            self.assumptions["<package-loaded>"] = note
        return Resolution(name, "found", directory.reason, entry.location, entry, tuple(considered), note)

    def _profile_system32(self, name: str) -> Resolution | None:
        lowered = name.lower()
        profile = self.env.profile
        if lowered in self._system_names:
            return Resolution(name, "found", "System32", f"System32\\{name}", system=True)
        if lowered in profile.vc_runtime:
            note = (
                f"{name}: assumed installed in System32 by the Microsoft Visual C++ 2015-2022 "
                "Redistributable (no copy of System32 was given; pass --system-dir to check)"
            )
            self.assumptions[lowered] = note
            return Resolution(name, "found", "System32", f"System32\\{name}", assumed=note, system=True)
        if lowered in profile.driver_dlls:
            note = f"{name}: assumed installed by the NVIDIA display driver"
            self.assumptions[lowered] = note
            return Resolution(name, "found", "System32", f"System32\\{name}", assumed=note, system=True)
        return None

    def _interpreter_dll(self, name: str, folder: Folder) -> Resolution | None:
        lowered = name.lower()
        if folder.get(lowered) is not None or not lowered.startswith("python3"):
            return None
        wanted = self.env.python_dll
        if lowered == "python3.dll" or lowered == wanted or (wanted is None and lowered.endswith(".dll")):
            if wanted is None:
                note = f"{name}: assumed to be the running interpreter's DLL (Python version unknown)"
                self.assumptions[lowered] = note
            else:
                note = None
            return Resolution(
                name, "found", "python.exe folder", f"<python.exe folder>\\{name}", assumed=note, system=True
            )
        return None

    # ----- walking a load operation -------------------------------------------------------------

    def load(self, root: Entry, operation: Operation, process: Process) -> Node:
        """Load ``root`` by full path and everything it needs; record what got loaded in ``process``.

        With a fallback (torch's preload), a first attempt that fails with 126 is followed by a new,
        complete ``LoadLibraryW``: the whole graph is searched again in the fallback order, not only the
        DLL that was missing, so a DLL found in torch\\lib the first time may now bind in System32 or
        next to python.exe (Wine shows it; tests/test_wine_loader.py). The failed first attempt leaves
        nothing loaded; what the second one bound stays.
        """
        node, attempt = self._attempt(root, operation.context, operation.search, process)
        if operation.fallback and _first_failure(node) == "missing":
            first = node
            node, attempt = self._attempt(root, operation.context, operation.fallback, process)
            reasons = {d.reason for d in operation.fallback}
            _mark_fallback(node, reasons, _missing_considered(first))
            for name, resolution in attempt.loaded.items():
                if resolution.reason in reasons:
                    attempt.loaded[name] = _retag(resolution, f"PATH fallback, {resolution.reason}")
        for name, resolution in attempt.loaded.items():
            process.loaded.setdefault(name, resolution)
        return node

    def _attempt(
        self, root: Entry, context: LoadContext, search: tuple[SearchDir, ...], process: Process
    ) -> tuple[Node, Process]:
        """One LoadLibrary call with one search list, on a copy of the process's loaded modules."""
        attempt = Process(dict(process.loaded), process.user_dirs)
        image = self.catalog.facts(root)
        resolution = Resolution(root.name, "found", context, root.location, root)
        node = Node(resolution, None)
        if isinstance(image, DefectError):
            node.defect = image
            return node, attempt
        node.image = image
        if image.machine not in COMPATIBLE.get(self.env.machine, frozenset({self.env.machine})):
            node.resolution = Resolution(root.name, "wrong-machine", context, root.location, root)
            return node, attempt
        attempt.loaded.setdefault(root.name.lower(), resolution)
        self._expand(node, root, image, Operation(context, search), attempt, set())
        return node, attempt

    def _expand(
        self, node: Node, entry: Entry, image: PEImage, operation: Operation, process: Process, seen: set[str]
    ) -> None:
        """Bind every import under ``node``, depth first in table order, with an explicit stack.

        Each child is expanded completely before its next sibling is resolved (what it loads is then in
        the process, as in the real loader); thousands of levels need no Python recursion.
        """
        stack = [self._frame(node, entry, image, operation, process, seen)]
        while stack:
            parent, search, pending = stack[-1]
            imported = next(pending, None)
            if imported is None:
                stack.pop()
                continue
            child = self._edge(imported, search, operation, process)
            parent.children.append(child)
            if child.resolution.entry is None or child.resolution.status != "found":
                continue
            child_facts = self.catalog.facts(child.resolution.entry)
            if isinstance(child_facts, DefectError):
                child.defect = child_facts
                continue
            child.image = child_facts
            child.missing_symbols = self.missing_symbols(imported, child_facts, search, process)
            if imported.delayed:
                # Loaded at the first call, not now: checked, but its own imports bind later.
                continue
            if child.resolution.entry.location in seen:
                child.repeat = True
                continue
            stack.append(self._frame(child, child.resolution.entry, child_facts, operation, process, seen))

    def _frame(
        self, node: Node, entry: Entry, image: PEImage, operation: Operation, process: Process, seen: set[str]
    ) -> tuple[Node, tuple[SearchDir, ...], Iterator[Import]]:
        seen.add(entry.location)
        search = operation.search
        if image.dependent_load_flags:
            search = self.flags_search(image.dependent_load_flags, entry, process)
        return node, search, iter((*image.imports, *image.delay_imports))

    def _edge(
        self, imported: Import, search: tuple[SearchDir, ...], operation: Operation, process: Process
    ) -> Node:
        if imported.delayed:
            # The delay-load helper calls LoadLibraryExA(name, NULL, 0): the standard search order.
            resolution = self.resolve(imported.dll, self.standard_search(), process)
            resolution = _retag(resolution, f"delay-load, {resolution.reason}")
            return Node(resolution, imported)
        resolution = self.resolve(imported.dll, search, process)
        if resolution.status == "found":
            process.loaded.setdefault(imported.dll.lower(), resolution)
        return Node(resolution, imported)

    def missing_symbols(
        self,
        imported: Import,
        image: PEImage,
        search: tuple[SearchDir, ...],
        process: Process,
        seen: frozenset[str] = frozenset(),
    ) -> tuple[str, ...]:
        """Names and ordinals ``imported`` needs that ``image`` does not provide, following forwarders."""
        missing: list[str] = []
        forwarders = image.forwarder_map
        for name in imported.names:
            if name not in image.exports:
                missing.append(name)
            elif name in forwarders and not self._forward_ok(forwarders[name], search, process, seen):
                missing.append(f"{name} (forwarded to {forwarders[name]})")
        for ordinal in imported.ordinals:
            if ordinal not in image.export_ordinals:
                missing.append(f"#{ordinal}")
        return tuple(missing)

    def _forward_ok(
        self, target: str, search: tuple[SearchDir, ...], process: Process, seen: frozenset[str]
    ) -> bool:
        """Whether a forwarder binds. A loop, or a chain longer than :data:`MAX_FORWARDS`, does not."""
        library, _, function = target.rpartition(".")
        if not library:
            return True
        if target.lower() in seen or len(seen) >= MAX_FORWARDS:
            return False
        dll = library if library.lower().endswith(".dll") else f"{library}.dll"
        resolution = self.resolve(dll, search, process)
        if resolution.status != "found":
            return False
        if resolution.entry is None:
            return True  # a system DLL: its exports are not modelled
        image = self.catalog.image(resolution.entry)
        if image is None:
            return False
        if function.startswith("#") and function[1:].isdigit():
            wanted = Import(dll, (), (int(function[1:]),))
        else:
            wanted = Import(dll, (function,))
        return not self.missing_symbols(wanted, image, search, process, seen | {target.lower()})


def first_failure(node: Node) -> str | None:
    """What stops this load first (None: it loads): see :func:`_first_failure`."""
    return _first_failure(node)


def _first_failure(node: Node) -> str | None:
    """What stops a load first, in the loader's order (depth first, imports in table order): a DLL
    ``missing`` (126), of the ``wrong-machine``, ``corrupt``, or a ``missing-symbol``."""
    if node.defect is not None:
        return "corrupt"
    if node.resolution.status != "found":
        return node.resolution.status
    # An explicit stack in place of recursion; a module's own missing names count after everything
    # below it, as the loader snaps a module's imports once its dependencies are loaded.
    stack: list[tuple[Node | None, Iterator[Node]]] = [(None, iter(node.children))]
    while stack:
        owner, pending = stack[-1]
        child = next(pending, None)
        if child is None:
            stack.pop()
            if owner is not None and owner.missing_symbols:
                return "missing-symbol"
            continue
        if child.imported is not None and child.imported.delayed:
            continue
        status = child.resolution.status
        if status != "found":
            return status
        if child.defect is not None:
            return "corrupt"
        if not child.repeat:
            stack.append((child, iter(child.children)))
        elif child.missing_symbols:
            return "missing-symbol"
    return None


def _missing_considered(node: Node) -> dict[str, tuple[str, ...]]:
    """Where each DLL that was not found was looked for, by name."""
    found: dict[str, tuple[str, ...]] = {}
    for current in node.walk():
        if current.resolution.status == "missing":
            found.setdefault(current.resolution.name.lower(), current.resolution.considered)
    return found


def _mark_fallback(
    node: Node, fallback_reasons: set[str], first_considered: dict[str, tuple[str, ...]]
) -> None:
    """Tag what the fallback's search bound ``PATH fallback, <where>``; a DLL still missing lists both searches."""
    stack = list(node.children)
    while stack:
        child = stack.pop()
        if child.imported is not None and child.imported.delayed:
            continue  # bound at the first call, by the delay-load helper's own search
        res = child.resolution
        if res.status == "missing":
            before = first_considered.get(res.name.lower(), ())
            child.resolution = Resolution(
                res.name, "missing", "not found", "", considered=before + res.considered, system=res.system
            )
        elif res.reason in fallback_reasons:
            child.resolution = _retag(res, f"PATH fallback, {res.reason}")
        stack.extend(child.children)


def _retag(resolution: Resolution, reason: str) -> Resolution:
    return replace(resolution, reason=reason)


def _join(label: str, name: str) -> str:
    """A folder and a file name as a Windows user reads them."""
    if "/" in label and "\\" not in label and not label.startswith("<"):
        return posixpath.join(label, name)  # a real POSIX path of a copied folder
    return f"{label}\\{name}" if label else name
