"""A fake Windows for the doctor tests: real DLLs, a real System32 folder, registry values as documented.

It implements :class:`dlldoctor.platform.interface.WindowsApi` on Linux. Its loader is written here,
apart from dlldoctor's model, from Microsoft's documentation ("Dynamic-link library search order",
"LoadLibraryExW"): API sets, the loaded-module list, KnownDLLs from the registry, then the folders the
flags name; a DLL that is not found fails the load with 126, another machine's or a damaged file with
193, a name the bound DLL does not export with 127; a failed load leaves nothing loaded. PE files are
read with pefile (dlldoctor reads them with its own reader).

The machine: ``Windows/System32`` holds Wine's PE builds of the system DLLs (hard links) and the VC++
runtime of the real msvc-runtime wheel; ``Python311/`` is python.org's layout (python.exe, the
vcruntime140 DLLs beside it, ``Lib/site-packages``). A child step runs in-process: ``probe`` is the
collector's own code on this fake; ``reproduce`` plays CPython's import: a package whose ``__init__.py``
preloads its ``lib`` folder (torch's) does so in glob order with the 126 fallback, then the package's
extension modules load with LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR.
"""

from __future__ import annotations

import os
import shutil
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import pefile
import pytest
import wheelcache

from dlldoctor.platform import collect

WINE_DLLS = Path("/usr/lib/x86_64-linux-gnu/wine/x86_64-windows")
MESSAGES = {
    126: "The specified module could not be found.",
    127: "The specified procedure could not be found.",
    193: "%1 is not a valid Win32 application.",
}
MACHINES = {0x8664: "x64", 0x14C: "x86", 0xAA64: "arm64"}
KNOWN_DLLS = ("kernel32.dll", "user32.dll", "advapi32.dll", "ole32.dll", "ntdll.dll", "msvcrt.dll")
REGISTRY = {
    (collect.VC_REDIST_KEY, "Version"): "v14.44.35112.01",
    (collect.VC_REDIST_KEY, "Installed"): 1,
    (collect.FILE_SYSTEM_KEY, "LongPathsEnabled"): 0,
    (collect.CI_POLICY_KEY, "VerifiedAndReputablePolicyState"): 0,
    (collect.WINDOWS_KEY, "ProductName"): "Windows 10 Pro",
    (collect.WINDOWS_KEY, "DisplayVersion"): "23H2",
    (collect.WINDOWS_KEY, "CurrentBuild"): "22631",
    (collect.WINDOWS_KEY, "UBR"): 4602,
}


@dataclass(frozen=True)
class Image:
    machine: str
    imports: tuple[tuple[str, tuple[str, ...]], ...]
    exports: frozenset[str]
    version: str | None


_IMAGES: dict[tuple[int, int, int], Image | None] = {}


def image(path: Path) -> Image | None:
    """The facts the fake loader needs, once per file content (hard-linked copies share them)."""
    info = path.stat()
    key = (info.st_ino, info.st_size, info.st_mtime_ns)
    if key not in _IMAGES:
        _IMAGES[key] = _read(path)
    return _IMAGES[key]


def _read(path: Path) -> Image | None:
    try:
        pe = pefile.PE(str(path), fast_load=True, max_symbol_exports=1 << 20)
        pe.parse_data_directories(
            directories=[
                pefile.DIRECTORY_ENTRY[n]
                for n in (
                    "IMAGE_DIRECTORY_ENTRY_IMPORT",
                    "IMAGE_DIRECTORY_ENTRY_EXPORT",
                    "IMAGE_DIRECTORY_ENTRY_RESOURCE",
                )
            ]
        )
    except (pefile.PEFormatError, OSError, ValueError):
        return None
    imports = tuple(
        (
            d.dll.decode("ascii", "replace"),
            tuple(i.name.decode("ascii", "replace") for i in d.imports if i.name),
        )
        for d in getattr(pe, "DIRECTORY_ENTRY_IMPORT", [])
    )
    exports = frozenset(
        s.name.decode("ascii", "replace")
        for s in getattr(getattr(pe, "DIRECTORY_ENTRY_EXPORT", None), "symbols", [])
        if s.name
    )
    version = None
    for fixed in getattr(pe, "VS_FIXEDFILEINFO", []) or []:
        ms, ls = fixed.FileVersionMS, fixed.FileVersionLS
        version = f"{ms >> 16}.{ms & 0xFFFF}.{ls >> 16}.{ls & 0xFFFF}"
    return Image(MACHINES.get(pe.FILE_HEADER.Machine, hex(pe.FILE_HEADER.Machine)), imports, exports, version)


@dataclass
class Process:
    loaded: dict[str, Path] = field(default_factory=dict)  # base name (lower case) → file
    user_dirs: list[Path] = field(default_factory=list)
    popups_off: bool = False


class LoadError(Exception):
    def __init__(self, code: int, name: str) -> None:
        super().__init__(code, name)
        self.code, self.name = code, name


def member(spec: str, suffix: str) -> bytes:
    with zipfile.ZipFile(wheelcache.wheel(spec)) as archive:
        name = next(n for n in sorted(archive.namelist()) if n.lower().endswith(suffix))
        return archive.read(name)


class FakeWindows:
    def __init__(self, root: Path, pe_bin: Path, python: str = "3.11", *, conda: bool = False) -> None:
        if not (WINE_DLLS / "kernel32.dll").is_file():
            reason = (
                f"the fake Windows builds its System32 from Wine's DLLs ({WINE_DLLS}; apt-get install wine64)"
            )
            if os.environ.get("CI"):
                pytest.fail(reason)
            pytest.skip(reason)
        self.root = root
        self.python = python
        self.version = tuple(int(x) for x in python.split("."))
        self.system = root / "Windows" / "System32"
        self.conda = conda  # a conda environment: its root is python.exe's folder, conda-meta beside it
        self.app_dir = root / ("conda-env" if conda else f"Python{self.version[0]}{self.version[1]}")
        self.site = self.app_dir / "Lib" / "site-packages"
        for folder in (self.system, self.site):
            folder.mkdir(parents=True)
        for dll in WINE_DLLS.glob("*.dll"):
            _link(dll, self.system / dll.name)
        with zipfile.ZipFile(wheelcache.wheel(wheelcache.MSVC_NEW)) as archive:
            for name in archive.namelist():
                if name.lower().endswith(".dll") and "/scripts/" not in name.lower():
                    target = self.system / name.rsplit("/", 1)[-1].lower()
                    target.unlink(missing_ok=True)
                    target.write_bytes(archive.read(name))
        shutil.copy(pe_bin / "x64" / "app.exe", self.app_dir / "python.exe")
        if conda:
            (self.app_dir / "conda-meta").mkdir()
            (self.app_dir / "conda-meta" / f"python-{python}.7-h0.json").write_text(
                '{"files": ["python.exe"]}'
            )
            (self.app_dir / "Library" / "bin").mkdir(parents=True)
        for name in ("vcruntime140.dll", "vcruntime140_1.dll"):
            shutil.copy(self.system / name, self.app_dir / name)
        self.registry = dict(REGISTRY)
        for index, name in enumerate(KNOWN_DLLS):
            self.registry[(collect.KNOWN_DLLS_KEY, f"dll{index}")] = name
        self.env = {
            "PATH": str(self.system),
            "USERNAME": "alice",
            "USERPROFILE": str(root / "Users" / "alice"),
        }
        self.process = Process()
        self.children: list[str] = []  # every child step run, in order
        self._handles: dict[int, Path] = {}

    # ----- the platform interface ---------------------------------------------------------------------

    def registry_value(self, key: str, name: str) -> object:
        return self.registry.get((key, name))

    def registry_values(self, key: str) -> dict[str, object]:
        return {name: value for (k, name), value in self.registry.items() if k == key}

    def suppress_error_popups(self) -> None:
        self.process.popups_off = True

    def add_dll_directory(self, folder: str) -> None:
        self.process.user_dirs.append(Path(folder))

    def prepend_path(self, folders: list[str]) -> None:
        self.env["PATH"] = ";".join([*folders, self.env.get("PATH", "")])

    def load_library(self, path: str, flags: int) -> tuple[int, int]:
        assert self.process.popups_off, "a load before error pop-ups were switched off"
        try:
            found = self.load(path, flags)
        except LoadError as e:
            return 0, e.code
        return self._handle(found), 0

    def module_file_name(self, handle: int) -> str:
        return str(self._handles[handle])

    def exports(self, handle: int, name: str) -> bool:
        facts = image(self._handles[handle])
        return facts is not None and name in facts.exports

    def file_version(self, path: str) -> str | None:
        facts = image(Path(path))
        return facts.version if facts else None

    def console_code_page(self) -> int | None:
        return 65001

    def system_dir(self) -> str:
        return str(self.system)

    def environ(self) -> dict[str, str]:
        return dict(self.env)

    def run_child(self, python: str, step: str, payload: dict[str, object]) -> dict[str, object]:
        assert python == str(self.app_dir / "python.exe"), python
        self.children.append(step)
        self.process = Process()
        try:
            if step == "probe":
                return collect.child_probe(self, payload)
            if step == "reproduce":
                self.suppress_error_popups()
                return self.reproduce(str(payload["module"]))
            return self.interpreter([str(m) for m in payload.get("modules") or []])  # type: ignore[union-attr]
        finally:
            self.process = Process()

    # ----- the interpreter --------------------------------------------------------------------------

    def interpreter(self, modules: list[str]) -> dict[str, object]:
        exe = str(self.app_dir / "python.exe")
        packages = {
            m: str(self.site / m.split(".")[0]) if (self.site / m.split(".")[0]).is_dir() else None
            for m in modules
        }
        return {
            "version": f"{self.python}.7", "implementation": "cpython", "bits": 64, "executable": exe,
            "app_dir": str(self.app_dir), "prefix": str(self.app_dir), "base_prefix": str(self.app_dir),
            "site_packages": str(self.site), "user_site": None, "kind": "conda" if self.conda else "python.org",
            "packages": packages,
        }  # fmt: skip

    def reproduce(self, module: str) -> dict[str, object]:
        package = self.site / module.split(".")[0]
        outcome = {"module": module, "ok": True, "error_type": None, "text": "", "winerror": None}
        if not package.is_dir():
            return {
                **outcome,
                "ok": False,
                "error_type": "ModuleNotFoundError",
                "text": f"ModuleNotFoundError: No module named '{module}'",
            }
        if self.conda:  # conda-forge's python adds its DLL folders at start-up
            for sub in ("Library/mingw-w64/bin", "Library/usr/bin", "Library/bin", "Scripts", "bin"):
                if (self.app_dir / sub).is_dir():
                    self.add_dll_directory(str(self.app_dir / sub))
        lib = package / "lib"
        init = package / "__init__.py"
        if lib.is_dir() and init.is_file() and "add_dll_directory" in init.read_text(errors="replace"):
            self.add_dll_directory(str(lib))
            for dll in sorted(lib.glob("*.dll")):
                code = self._try(str(dll), 0x1100)
                if code == 126:  # torch: PATH prefixed with its folders, then plain LoadLibraryW
                    self.prepend_path([str(lib)])
                    code = self._try(str(dll), 0)
                if code:
                    text = f'OSError: [WinError {code}] {MESSAGES[code]} Error loading "{dll}" or one of its dependencies.'
                    return {**outcome, "ok": False, "error_type": "OSError", "text": text, "winerror": code}
        libs = package.with_name(package.name + ".libs")
        if libs.is_dir():
            self.add_dll_directory(str(libs))
        for pyd in sorted(package.glob("*.pyd")):
            code = self._try(str(pyd), 0x1100)
            if code:
                stem = pyd.name.split(".")[0]
                text = f"ImportError: DLL load failed while importing {stem}: {MESSAGES[code]}"
                return {**outcome, "ok": False, "error_type": "ImportError", "text": text}
        return outcome

    def _try(self, path: str, flags: int) -> int:
        return self.load_library(path, flags)[1]

    # ----- the loader -------------------------------------------------------------------------------

    def _handle(self, path: Path) -> int:
        handle = 0x10000 + len(self._handles)
        self._handles[handle] = path
        return handle

    def search(self, flags: int, top: Path | None) -> list[Path]:
        if flags & 0x1000 or flags & 0x100:
            dirs = [top.parent] if top is not None and flags & 0x100 else []
            return [*dirs, self.app_dir, *self.process.user_dirs, self.system]
        path = [Path(p) for p in self.env.get("PATH", "").split(";") if p]
        return [self.app_dir, self.system, self.root / "Windows", *path]

    def load(self, name: str, flags: int) -> Path:
        """One LoadLibraryExW call: the file that binds for ``name``, or :class:`LoadError`."""
        loaded = dict(self.process.loaded)
        is_path = "/" in name or "\\" in name
        top = Path(name) if is_path else None
        if top is not None and not top.is_file():
            raise LoadError(126, name)
        first = top if top is not None else self._find(name, self.search(flags, None), loaded)
        search = self.search(flags, first)
        self._bind(first, search, loaded, 0)
        self.process.loaded = loaded
        return first

    def _find(self, name: str, search: list[Path], loaded: dict[str, Path]) -> Path:
        lowered = name.lower()
        if lowered.startswith(("api-ms-", "ext-ms-")):
            return self.system / "ucrtbase.dll" if "-crt-" in lowered else self.system / "kernelbase.dll"
        if lowered in loaded:
            return loaded[lowered]
        if lowered in {str(v).lower() for v in self.registry_values(collect.KNOWN_DLLS_KEY).values()}:
            return self.system / lowered
        if lowered == f"python{self.version[0]}{self.version[1]}.dll" or lowered == "python3.dll":
            return self.app_dir / lowered  # the interpreter's own DLL, always loaded
        for folder in search:
            candidate = _case_insensitive(folder, lowered)
            if candidate is not None:
                return candidate
        raise LoadError(126, name)

    def _bind(self, path: Path, search: list[Path], loaded: dict[str, Path], depth: int) -> None:
        if path.name.lower() in loaded and depth:
            return
        if not path.is_file():  # the interpreter's DLL, not modelled as a file
            loaded[path.name.lower()] = path
            return
        facts = image(path)
        if facts is None or facts.machine != "x64":
            raise LoadError(193, path.name)
        loaded[path.name.lower()] = path
        for dll, names in facts.imports:
            dep = self._find(dll, search, loaded)
            self._bind(dep, search, loaded, depth + 1)
            dep_facts = image(dep) if dep.is_file() else None
            system = dep.parent == self.system  # Wine's system DLLs export less than Windows' do
            if dep_facts is not None and not system and any(n not in dep_facts.exports for n in names):
                raise LoadError(127, dll)


def _case_insensitive(folder: Path, lowered: str) -> Path | None:
    direct = folder / lowered
    if direct.is_file():
        return direct
    try:
        return next((p for p in folder.iterdir() if p.name.lower() == lowered and p.is_file()), None)
    except OSError:
        return None


def _link(src: Path, dest: Path) -> None:
    try:
        dest.hardlink_to(src)
    except OSError:
        shutil.copy(src, dest)
