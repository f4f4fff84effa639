"""The layouts of the Wine tier: a Python install in miniature, the load operations, what to compare.

A layout is a folder tree:

``py/``      the application directory: harness.exe (playing python.exe) and python311.dll, always
``site/``    what dlldoctor scans (a copied site-packages)
``cwd/``     the process's current directory (empty unless a layout puts a file there)
``sys/``     files copied into Wine's System32 for the layout's run (and removed after it)
other        any folder a layout names: ``site/pkg.libs`` (added with add_dll_directory, as delvewheel's
             patch does), ``path1``, ``path2`` (on PATH) ...

File sources: ``x64/…``, ``x86/…``, ``corrupt/…`` are the committed fixtures (corpus/pe/bin);
``h/…`` the harness build (corpus/pe/harness); ``torch/…`` and ``msvc/…`` members of the cached
torch 2.13.0 and msvc-runtime 14.44 wheels.

Before a layout's own operations the harness does what python.exe has done by the time it imports
anything: PATH set to the layout's ``path`` folders (then System32 and the Windows folder),
``plain python311.dll`` and ``plain vcruntime140.dll``. A ``probe`` on an operation says which
dlldoctor result it is compared with:

``scan:REL``        the tree dlldoctor builds for ``site/REL`` (its context follows from the layout: an
                    extension module, torch's preload, a DLL loaded by full path)
``name:DLL``        dlldoctor resolving DLL in the standard search order (plain LoadLibrary by name)
``plain:PATH``      dlldoctor loading the layout file PATH in the standard search order
``delay:REL:DLL``   the delay-load edge to DLL in the tree of ``site/REL``
``program:REL``     the "program start" tree of the EXE ``site/REL`` (the EXE itself is run, no harness)
``ext-dirs:REL``    dlldoctor's extension-module load of ``site/REL`` with exactly the layout's
                    add_dll_directory folders, in the order added (dlldoctor.loader.resolution used directly)

``expect`` is Wine's outcome of that operation (``ok``, ``126``, ``193``, ``fallback-ok``,
``fallback-126``, ``init-failed``, ``returned``, ``7E``, ``7F``) and ``bound`` where Wine binds the
named DLLs by
the end (a folder, ``builtin`` or ``-`` for nowhere): both state the layout's point plainly and guard
the tier against a harness that quietly does something else. ``differences`` name the documented ways Wine differs from Windows that the layout runs
into (see ``DIFFERENCES``); ``hidden`` and ``swap`` change the layout for the model Wine can decide,
and ``windows`` states dlldoctor's own answer there (a folder, ``sys``, ``-``, or ``193:<folder>``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field

PYD = "pymod.cp311-win_amd64.pyd"
CHAIN = ("chain_a.dll", "chain_b.dll", "chain_c.dll")


@dataclass(frozen=True)
class Op:
    kind: str
    arg: str  # "@folder/file" is a layout path, passed to the harness as a Wine path
    probe: str | None = None
    expect: str = "ok"


@dataclass(frozen=True)
class Layout:
    id: str
    title: str
    files: Mapping[str, str]
    ops: tuple[Op, ...]
    path: tuple[str, ...] = ()
    python: str = "3.11"
    overrides: str = ""
    bound: Mapping[str, str] = field(default_factory=dict)  # dll → layout folder, "builtin" or "-" (none)
    differences: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()  # removed for the model Wine can decide
    swap: Mapping[str, str] = field(default_factory=dict)  # replaced for the model Wine can decide
    windows: Mapping[str, str] = field(default_factory=dict)  # dlldoctor's own answer where Wine differs
    wheels: bool = False
    program: str | None = None
    known_gap: str | None = None

    def with_removed(self, *paths: str) -> Layout:
        """The layout without some of the files a helper put in (e.g. the same-folder copy)."""
        return dataclasses.replace(self, files={k: v for k, v in self.files.items() if k not in paths})


# Documented differences between Wine 8 and Windows that a layout may run into. Each says what Wine
# does, what Windows does (with the source) and what the tier checks instead.
DIFFERENCES = {
    "stub-export": (
        "Wine binds an import the DLL does not export (by name, by ordinal, or through a forwarder whose "
        "target is missing) to a stub and loads; Windows fails with 127 (ERROR_PROC_NOT_FOUND) or 182 "
        "(ERROR_INVALID_ORDINAL). Checked: Wine's list of stubbed imports ('No implementation for D.S') "
        "equals dlldoctor's missing names, and Wine found the same DLL."
    ),
    "wrong-machine-skip": (
        "While searching for a dependency Wine skips a candidate of the wrong machine type and goes on; "
        "Windows stops at it with 193 / 0xC000007B (REFERENCE.md §1 open question; field reports). "
        "Checked: dlldoctor reports the wrong-machine file first in its order, and Wine binds what "
        "dlldoctor binds once that file is removed (the next candidate, or 126 if there is none)."
    ),
    "bad-image-126": (
        "A dependency that is found but is not a loadable image (empty, truncated, not MZ) fails the "
        "load in Wine too, without searching on, but Wine reports 126 for the whole load where Windows "
        "reports 193 (ERROR_BAD_EXE_FORMAT) / 0xC000007B. Checked: Wine failed on that DLL name "
        "('Loading library X … failed (error c…)') and never loaded the valid copy later in the order."
    ),
    "dependent-load-flags": (
        "Wine 8 ignores a module's load-config DependentLoadFlags; Windows 10 1607+ uses them for the "
        "module's static imports (Microsoft, /DEPENDENTLOADFLAG). Checked: Wine binds what dlldoctor "
        "binds for the same DLL with the flags zeroed (dlf_0000.dll); dlldoctor's own answer with the "
        "flags follows the documented LOAD_LIBRARY_SEARCH_* order and is asserted separately."
    ),
    "builtin-preferred": (
        "For a DLL Wine implements itself (version.dll, msvcp140.dll, vcruntime140.dll, psapi.dll, …) "
        "Wine loads its builtin even when a native file of that name comes first in the search (+loaddll "
        "shows the native file's path with ': builtin'), unless WINEDLLOVERRIDES says native first. Wine "
        "has no KnownDLLs list; its builtins give KnownDLLs' effect for the names it implements. Checked: "
        "only that the name was found, and that it is a system copy where Windows uses the KnownDLL."
    ),
    "init-failure": (
        "torch_python.dll's DllMain needs a real python311.dll; with the harness's stand-in it fails "
        "(998) after every import was resolved (+loaddll traces it as Loaded, then Unloaded). dlldoctor "
        "does not run initialisers. Checked: the resolution (Loaded trace, stubbed imports), not the "
        "initialisation."
    ),
    "add-dll-directory-order": (
        "Microsoft: 'If more than one directory is added using AddDllDirectory, the order in which those "
        "directories are searched is unspecified' (AddDllDirectory). Wine 8 searches the most recently "
        "added first; dlldoctor takes them in the order added. Checked: both bind one of the added folders."
    ),
}

# Model gaps this tier found and that are kept, each with its reason (docs/loader-model.md).
KNOWN_GAPS = {
    "current-directory": (
        "Plain LoadLibrary searches the current directory (after the Windows folder, before PATH; "
        "Microsoft, Dynamic-link library search order). dlldoctor does not know a process's current "
        "directory and leaves it out of the standard order."
    ),
}


def fixtures(folder: str, *names: str, arch: str = "x64") -> dict[str, str]:
    return {f"{folder}/{name}": f"{arch}/{name}" for name in names}


def ext(rel: str, expect: str = "ok") -> Op:
    return Op("ext", f"@site/{rel}", f"scan:{rel}", expect)


def adddir(folder: str) -> Op:
    return Op("adddir", f"@{folder}")


def pyd_with(chain_folder: str, **more: str) -> dict[str, str]:
    """The fixture extension module in site/pkg and its chain a → b → c in ``chain_folder``."""
    return {"site/pkg/" + PYD: "x64/" + PYD, **fixtures(chain_folder, *CHAIN), **more}


def _extension_modules() -> list[Layout]:
    pyd = "pkg/" + PYD
    return [
        Layout(
            "ext-same-folder",
            "An extension module's dependencies next to it: [same folder]",
            pyd_with("site/pkg"),
            (ext(pyd),),
            bound={"chain_c.dll": "site/pkg"},
        ),
        Layout(
            "ext-python-exe-folder",
            "Dependencies next to python.exe: [python.exe folder]",
            pyd_with("py"),
            (ext(pyd),),
            bound={"chain_a.dll": "py", "chain_c.dll": "py"},
        ),
        Layout(
            "ext-add-dll-directory",
            "Dependencies in a folder given to os.add_dll_directory (delvewheel's .libs)",
            pyd_with("site/pkg.libs"),
            (adddir("site/pkg.libs"), ext(pyd)),
            bound={"chain_c.dll": "site/pkg.libs"},
        ),
        Layout(
            "ext-system32",
            "Dependencies in System32",
            pyd_with("sys"),
            (ext(pyd),),
            bound={"chain_b.dll": "sys"},
        ),
        Layout(
            "ext-path-not-searched",
            "Python >= 3.8 does not search PATH for an extension module's dependencies",
            pyd_with("path1"),
            (ext(pyd, "126"),),
            path=("path1",),
            bound={"chain_a.dll": "-"},
        ),
        Layout(
            "ext-cwd-not-searched",
            "... nor the current directory",
            pyd_with("cwd"),
            (ext(pyd, "126"),),
            bound={"chain_a.dll": "-"},
        ),
        Layout(
            "ext-same-folder-beats-python-exe-folder",
            "Same folder first, then python.exe's folder",
            {**pyd_with("site/pkg"), **fixtures("py", "chain_c.dll")},
            (ext(pyd),),
            bound={"chain_c.dll": "site/pkg"},
        ),
        Layout(
            "ext-python-exe-folder-beats-add-dll-directory",
            "python.exe's folder before add_dll_directory folders",
            {
                **pyd_with("site/pkg"),
                **fixtures("py", "chain_c.dll"),
                **fixtures("site/pkg.libs", "chain_c.dll"),
            },
            (adddir("site/pkg.libs"), ext(pyd)),
            bound={"chain_c.dll": "py"},
        ).with_removed("site/pkg/chain_c.dll"),
        Layout(
            "ext-add-dll-directory-beats-system32",
            "add_dll_directory folders before System32",
            {
                **pyd_with("site/pkg"),
                **fixtures("site/pkg.libs", "chain_c.dll"),
                **fixtures("sys", "chain_c.dll"),
            },
            (adddir("site/pkg.libs"), ext(pyd)),
            bound={"chain_c.dll": "site/pkg.libs"},
        ).with_removed("site/pkg/chain_c.dll"),
        Layout(
            "ext-system32-beats-path",
            "System32 is searched, PATH is not",
            {**pyd_with("site/pkg"), **fixtures("sys", "chain_c.dll"), **fixtures("path1", "chain_c.dll")},
            (ext(pyd),),
            path=("path1",),
            bound={"chain_c.dll": "sys"},
        ).with_removed("site/pkg/chain_c.dll"),
        Layout(
            "ext-load-dir-serves-whole-graph",
            "The extension's folder is searched for every DLL of its graph, also those a DLL from another folder needs",
            {
                "site/pkg/" + PYD: "x64/" + PYD,
                **fixtures("site/pkg.libs", "chain_a.dll", "chain_b.dll"),
                **fixtures("site/pkg", "chain_c.dll"),
            },
            (adddir("site/pkg.libs"), ext(pyd)),
            bound={"chain_b.dll": "site/pkg.libs", "chain_c.dll": "site/pkg"},
        ),
        Layout(
            "ext-two-add-dll-directories",
            "Two add_dll_directory folders holding the same DLL",
            {
                **pyd_with("site/pkg"),
                **fixtures("site/dirA", "chain_c.dll"),
                **fixtures("site/dirB", "chain_c.dll"),
            },
            (adddir("site/dirA"), adddir("site/dirB"), Op("ext", f"@site/{pyd}", f"ext-dirs:{pyd}")),
            differences=("add-dll-directory-order",),
        ).with_removed("site/pkg/chain_c.dll"),
        Layout(
            "ext-other-python-version",
            "A .pyd built for Python 3.12 in a 3.11 process: python312.dll is nowhere",
            {
                "site/pkg/pymod312.cp312-win_amd64.pyd": "x64/pymod312.cp312-win_amd64.pyd",
                **fixtures("site/pkg", *CHAIN),
            },
            (ext("pkg/pymod312.cp312-win_amd64.pyd", "126"),),
            bound={"python312.dll": "-"},
        ),
    ]


def _missing() -> list[Layout]:
    pyd = "pkg/" + PYD
    return [
        Layout(
            "missing-leaf-deep",
            "A leaf missing three levels down: 126, and the chain that leads to it",
            pyd_with("site/pkg"),
            (ext(pyd, "126"),),
            bound={"chain_c.dll": "-"},
        ).with_removed("site/pkg/chain_c.dll"),
        Layout(
            "missing-middle",
            "The middle of the chain missing",
            pyd_with("site/pkg"),
            (ext(pyd, "126"),),
            bound={"chain_b.dll": "-"},
        ).with_removed("site/pkg/chain_b.dll"),
        Layout(
            "missing-leaf-on-path-only",
            "The missing leaf exists, but only on PATH",
            {**pyd_with("site/pkg"), **fixtures("path1", "chain_c.dll")},
            (ext(pyd, "126"),),
            path=("path1",),
            bound={"chain_c.dll": "-"},
        ).with_removed("site/pkg/chain_c.dll"),
        Layout(
            "missing-dll-loaded-by-full-path",
            "A DLL nothing imports, loaded by full path (ctypes): its import is missing",
            {"site/needs_missing.dll": "x64/needs_missing.dll"},
            (ext("needs_missing.dll", "126"),),
            bound={"does_not_exist.dll": "-"},
        ),
        Layout(
            "plain-full-path-does-not-search-its-folder",
            "LoadLibrary(full path) searches for dependencies as if loaded by name: not in the DLL's folder",
            fixtures("site/pkg", *CHAIN),
            (Op("plain", "@site/pkg/chain_a.dll", "plain:site/pkg/chain_a.dll", "126"),),
            bound={"chain_b.dll": "-"},
        ),
    ]


def _already_loaded() -> list[Layout]:
    pyd = "pkg/" + PYD
    return [
        Layout(
            "loaded-python-dll-wins",
            "A stray python311.dll in the package: the interpreter's, already loaded, is used",
            {**pyd_with("site/pkg"), "site/pkg/python311.dll": "x64/chain_c.dll"},
            (ext(pyd),),
            bound={"python311.dll": "py"},
        ),
        Layout(
            "loaded-vcruntime-wins",
            "python.exe loaded vcruntime140.dll first: a package's own copy is never used",
            {"site/pkg/ucrt_user.dll": "x64/ucrt_user.dll", "site/pkg/vcruntime140.dll": "x64/chain_c.dll"},
            (ext("pkg/ucrt_user.dll"),),
            bound={"vcruntime140.dll": "builtin"},
        ),
        Layout(
            "loaded-vcruntime-from-python-exe-folder",
            "python.exe's own vcruntime140.dll (real, 14.44) is the one every extension gets",
            {
                "site/pkg/ucrt_user.dll": "x64/ucrt_user.dll",
                "site/pkg/vcruntime140.dll": "x64/chain_c.dll",
                "py/vcruntime140.dll": "msvc/msvc_runtime-14.44.35112.data/data/Scripts/vcruntime140.dll",
            },
            (ext("pkg/ucrt_user.dll"),),
            overrides="vcruntime140=n,b",
            wheels=True,
            bound={"vcruntime140.dll": "py"},
        ),
    ]


def _wrong_machine() -> list[Layout]:
    pyd = "pkg/" + PYD
    return [
        Layout(
            "wrong-machine-module-itself",
            "A 32-bit DLL loaded by full path in a 64-bit process: 193",
            {**pyd_with("site/pkg"), "site/helper32.dll": "x86/chain_c.dll"},
            (ext("helper32.dll", "193"),),
        ),
        Layout(
            "wrong-machine-first-same-folder",
            "A 32-bit copy first in the order (same folder), a 64-bit one later",
            {
                **pyd_with("site/pkg"),
                "site/pkg/chain_c.dll": "x86/chain_c.dll",
                **fixtures("site/pkg.libs", "chain_c.dll"),
            },
            (adddir("site/pkg.libs"), ext(pyd)),
            differences=("wrong-machine-skip",),
            hidden=("site/pkg/chain_c.dll",),
            bound={"chain_c.dll": "site/pkg.libs"},
            windows={"chain_c.dll": "193:site/pkg"},
        ),
        Layout(
            "wrong-machine-first-python-exe-folder",
            "A 32-bit copy next to python.exe, a 64-bit one in System32",
            {**pyd_with("site/pkg"), "py/chain_c.dll": "x86/chain_c.dll", **fixtures("sys", "chain_c.dll")},
            (ext(pyd),),
            differences=("wrong-machine-skip",),
            hidden=("py/chain_c.dll",),
            bound={"chain_c.dll": "sys"},
            windows={"chain_c.dll": "193:py"},
        ).with_removed("site/pkg/chain_c.dll"),
        Layout(
            "wrong-machine-only-candidate",
            "Only a 32-bit copy exists",
            {**pyd_with("site/pkg"), "site/pkg/chain_c.dll": "x86/chain_c.dll"},
            (ext(pyd, "126"),),
            differences=("wrong-machine-skip",),
            hidden=("site/pkg/chain_c.dll",),
            bound={"chain_c.dll": "-"},
            windows={"chain_c.dll": "193:site/pkg"},
        ),
    ]


def _corrupt() -> list[Layout]:
    pyd = "pkg/" + PYD
    return [
        Layout(
            f"bad-image-{name.removesuffix('.dll')}",
            f"A {what} chain_c.dll first, a good one later: the load fails there",
            {
                **pyd_with("site/pkg"),
                "site/pkg/chain_c.dll": f"corrupt/{name}",
                **fixtures("site/pkg.libs", "chain_c.dll"),
            },
            (adddir("site/pkg.libs"), ext(pyd, "126")),
            differences=("bad-image-126",),
            bound={"chain_c.dll": "-"},
        )
        for name, what in (
            ("zero.dll", "zero-byte"),
            ("truncated_body.dll", "truncated"),
            ("bad_mz.dll", "non-MZ"),
        )
    ]


def _delay_loads() -> list[Layout]:
    def delay(expect: str, **more: str) -> tuple[Op, ...]:
        return (
            ext("pkg/delay_user.dll"),
            Op("call", "delay_user.dll:du_func", "delay:pkg/delay_user.dll:delayed_missing.dll", expect),
        )

    base = {"site/pkg/delay_user.dll": "x64/delay_user.dll", **fixtures("site/pkg", "chain_c.dll")}
    return [
        Layout(
            "delay-load-missing",
            "A delay-loaded DLL that exists nowhere: the load succeeds, the first call raises",
            base,
            delay("7E"),
            bound={"delayed_missing.dll": "-"},
        ),
        Layout(
            "delay-load-python-exe-folder",
            "The delay-load helper finds it next to python.exe",
            {**base, "py/delayed_missing.dll": "h/delayed_missing.dll"},
            delay("returned"),
            bound={"delayed_missing.dll": "py"},
        ),
        Layout(
            "delay-load-not-in-importer-folder",
            "The helper's LoadLibrary(name) does not look next to the importer",
            {**base, "site/pkg/delayed_missing.dll": "h/delayed_missing.dll"},
            delay("7E"),
            bound={"delayed_missing.dll": "-"},
        ),
        Layout(
            "delay-load-path",
            "... but it does search PATH",
            {**base, "path1/delayed_missing.dll": "h/delayed_missing.dll"},
            delay("returned"),
            path=("path1",),
            bound={"delayed_missing.dll": "path1"},
        ),
        Layout(
            "delay-load-not-add-dll-directory",
            "... and not the add_dll_directory folders",
            {**base, "site/pkg.libs/delayed_missing.dll": "h/delayed_missing.dll"},
            (adddir("site/pkg.libs"), *delay("7E")),
            bound={"delayed_missing.dll": "-"},
        ),
        Layout(
            "delay-load-missing-name",
            "The delay-loaded DLL is found but lacks the name: the load succeeds, the call raises",
            {**base, "py/delayed_missing.dll": "x64/chain_c.dll"},
            delay("7F"),
            bound={"delayed_missing.dll": "py"},
        ),
        Layout(
            "delay-load-wrong-machine",
            "The delay-loaded DLL is 32-bit: the load succeeds, the call raises",
            {**base, "py/delayed_missing.dll": "x86/chain_c.dll"},
            delay("7E"),
            bound={"delayed_missing.dll": "-"},
        ),
    ]


def _api_sets() -> list[Layout]:
    return [
        Layout(
            "api-set-crt",
            "api-ms-win-crt-* resolves to ucrtbase.dll by the API set schema",
            {"site/pkg/ucrt_user.dll": "x64/ucrt_user.dll"},
            (
                ext("pkg/ucrt_user.dll"),
                Op("plain", "api-ms-win-crt-runtime-l1-1-0.dll", "name:api-ms-win-crt-runtime-l1-1-0.dll"),
            ),
        ),
        Layout(
            "api-set-file-ignored",
            "A file named like the API set next to the DLL is never used",
            {
                "site/pkg/ucrt_user.dll": "x64/ucrt_user.dll",
                "site/pkg/api-ms-win-crt-runtime-l1-1-0.dll": "x64/chain_c.dll",
            },
            (ext("pkg/ucrt_user.dll"),),
            bound={"api-ms-win-crt-runtime-l1-1-0.dll": "-"},
        ),
        Layout(
            "api-set-core-synch",
            "api-ms-win-core-synch-l1-2-0 resolves to kernelbase.dll",
            {"site/pkg/uses_synch.dll": "h/uses_synch.dll"},
            (
                ext("pkg/uses_synch.dll"),
                Op("plain", "api-ms-win-core-synch-l1-2-0.dll", "name:api-ms-win-core-synch-l1-2-0.dll"),
            ),
        ),
        Layout(
            "api-set-core-winrt",
            "api-ms-win-core-winrt-l1-1-0 resolves to combase.dll, not kernelbase.dll",
            {"site/pkg/uses_winrt.dll": "h/uses_winrt.dll"},
            (
                ext("pkg/uses_winrt.dll"),
                Op("plain", "api-ms-win-core-winrt-l1-1-0.dll", "name:api-ms-win-core-winrt-l1-1-0.dll"),
            ),
        ),
    ]


def _system_names() -> list[Layout]:
    return [
        Layout(
            "knowndll-not-shadowed",
            "psapi.dll is a KnownDLL: a package's own psapi.dll is never loaded",
            {"site/pkg/uses_psapi.dll": "h/uses_psapi.dll", "site/pkg/psapi.dll": "x64/chain_c.dll"},
            (ext("pkg/uses_psapi.dll"),),
            differences=("builtin-preferred", "stub-export"),
            bound={"psapi.dll": "builtin"},
            windows={"psapi.dll": "sys"},
        ),
        Layout(
            "system-dll-shadowed",
            "version.dll is not a KnownDLL: a package's copy next to the importer wins",
            {"site/pkg/uses_version.dll": "h/uses_version.dll", "site/pkg/version.dll": "x64/chain_c.dll"},
            (ext("pkg/uses_version.dll"),),
            overrides="version=n,b",
            bound={"version.dll": "site/pkg"},
        ),
        Layout(
            "system-dll-shadowed-wine-default",
            "The same without a native-first override: Wine keeps its builtin",
            {"site/pkg/uses_version.dll": "h/uses_version.dll", "site/pkg/version.dll": "x64/chain_c.dll"},
            (ext("pkg/uses_version.dll"),),
            differences=("builtin-preferred",),
            bound={"version.dll": "builtin"},
            windows={"version.dll": "site/pkg"},
        ),
        Layout(
            "msvcp140-package-copy",
            "A package's own msvcp140.dll beats System32's (same folder first)",
            {"site/pkg/uses_msvcp140.dll": "h/uses_msvcp140.dll", "site/pkg/msvcp140.dll": "x64/chain_c.dll"},
            (ext("pkg/uses_msvcp140.dll"),),
            overrides="msvcp140=n,b",
            bound={"msvcp140.dll": "site/pkg"},
        ),
        Layout(
            "msvcp140-python-exe-folder",
            "msvcp140.dll next to python.exe (as in conda) beats System32's",
            {"site/pkg/uses_msvcp140.dll": "h/uses_msvcp140.dll", "py/msvcp140.dll": "x64/chain_c.dll"},
            (ext("pkg/uses_msvcp140.dll"),),
            overrides="msvcp140=n,b",
            bound={"msvcp140.dll": "py"},
        ),
        Layout(
            "msvcp140-real-python-exe-folder",
            "torch's c10.dll against a real msvcp140.dll (14.44) next to python.exe",
            {
                "site/c10.dll": "torch/torch/lib/c10.dll",
                "py/msvcp140.dll": "msvc/msvc_runtime-14.44.35112.data/data/Scripts/msvcp140.dll",
            },
            (ext("c10.dll"),),
            overrides="msvcp140=n,b",
            wheels=True,
            bound={"msvcp140.dll": "py"},
        ),
    ]


def _standard_order() -> list[Layout]:
    def plain(name: str, expect: str = "ok") -> Op:
        return Op("plain", name, f"name:{name}", expect)

    return [
        Layout(
            "plain-path",
            "Plain LoadLibrary by name finds a DLL on PATH",
            fixtures("path1", "chain_c.dll"),
            (plain("chain_c.dll"),),
            path=("path1",),
            bound={"chain_c.dll": "path1"},
        ),
        Layout(
            "plain-python-exe-folder-beats-path",
            "The application folder comes before PATH",
            {**fixtures("py", "chain_c.dll"), **fixtures("path1", "chain_c.dll")},
            (plain("chain_c.dll"),),
            path=("path1",),
            bound={"chain_c.dll": "py"},
        ),
        Layout(
            "plain-system32-beats-path",
            "System32 comes before PATH",
            {**fixtures("sys", "chain_c.dll"), **fixtures("path1", "chain_c.dll")},
            (plain("chain_c.dll"),),
            path=("path1",),
            bound={"chain_c.dll": "sys"},
        ),
        Layout(
            "plain-python-exe-folder-beats-system32",
            "The application folder comes before System32",
            {**fixtures("py", "chain_c.dll"), **fixtures("sys", "chain_c.dll")},
            (plain("chain_c.dll"),),
            bound={"chain_c.dll": "py"},
        ),
        Layout(
            "plain-path-order",
            "PATH entries in order",
            {**fixtures("path1", "chain_c.dll"), **fixtures("path2", "chain_c.dll")},
            (plain("chain_c.dll"),),
            path=("path2", "path1"),
            bound={"chain_c.dll": "path2"},
        ),
        Layout(
            "plain-add-dll-directory-not-searched",
            "Plain LoadLibrary ignores add_dll_directory folders",
            fixtures("site/pkg.libs", "chain_c.dll"),
            (adddir("site/pkg.libs"), plain("chain_c.dll", "126")),
            bound={"chain_c.dll": "-"},
        ),
        Layout(
            "plain-dependencies-on-path",
            "Plain LoadLibrary of a DLL on PATH finds its dependencies there too",
            fixtures("path1", *CHAIN),
            (plain("chain_a.dll"),),
            path=("path1",),
            bound={"chain_c.dll": "path1"},
        ),
        Layout(
            "plain-current-directory",
            "Plain LoadLibrary searches the current directory before PATH",
            {**fixtures("cwd", "chain_c.dll"), **fixtures("path1", "chain_c.dll")},
            (plain("chain_c.dll"),),
            path=("path1",),
            bound={"chain_c.dll": "cwd"},
            known_gap="current-directory",
        ),
    ]


def torch_ops(
    lib: str,
    dlls: tuple[str, ...],
    extension: str | None,
    expects: Mapping[str, str] | None = None,
    keep_going: bool = False,
) -> tuple[Op, ...]:
    """torch/__init__.py's _load_dll_libraries, then the import of torch._C."""
    expects = expects or {}
    ops = [adddir(lib), Op("torchdir", f"@{lib}")]
    if keep_going:
        ops.append(Op("keepgoing", "1"))
    ops += [Op("cdll", name) for name in ("vcruntime140.dll", "msvcp140.dll", "vcruntime140_1.dll")]
    rel = lib.removeprefix("site/")
    for dll in sorted(dlls, key=str.lower):
        ops.append(Op("torch", f"@{lib}/{dll}", f"scan:{rel}/{dll}", expects.get(dll, "ok")))
    if extension:
        ops.append(ext(extension, expects.get(extension, "ok")))
    return tuple(ops)


def _fake_torch() -> list[Layout]:
    """torch's preload on fixture DLLs: torch/lib holds c10.dll (a stub) and the chain."""
    lib = "site/torch/lib"
    base = {
        f"{lib}/c10.dll": "x64/versioned.dll",
        "site/torch/_C.cp311-win_amd64.pyd": "x64/" + PYD,
        **fixtures(lib, *CHAIN),
    }

    def ops(dlls: tuple[str, ...], **expects: str) -> tuple[Op, ...]:
        return torch_ops(lib, ("c10.dll", *dlls), "torch/_C.cp311-win_amd64.pyd", expects)

    return [
        Layout(
            "torch-preload-healthy",
            "torch's preload binds torch\\lib; _C then reuses what is loaded",
            base,
            ops(CHAIN),
            bound={"chain_a.dll": lib, "chain_c.dll": lib},
        ),
        Layout(
            "torch-preload-path-fallback",
            "A DLL missing from torch\\lib is found by the PATH fallback after 126",
            {**base, **fixtures("path1", "chain_c.dll")},
            ops(CHAIN[:2], **{"chain_a.dll": "fallback-ok"}),
            path=("path1",),
            bound={"chain_c.dll": "path1"},
        ).with_removed(f"{lib}/chain_c.dll"),
        Layout(
            "torch-preload-fallback-fails",
            "Missing everywhere: 126, the fallback's 126, torch raises",
            base,
            torch_ops(lib, ("c10.dll", "chain_a.dll"), None, {"chain_a.dll": "fallback-126"}),
            bound={"chain_c.dll": "-"},
        ).with_removed(f"{lib}/chain_c.dll"),
        Layout(
            "torch-preload-fallback-rebinds",
            "The fallback is a new LoadLibraryW: System32 now comes before torch\\lib",
            {**base, **fixtures("path1", "chain_c.dll"), **fixtures("sys", "chain_b.dll")},
            ops(CHAIN[:2], **{"chain_a.dll": "fallback-ok"}),
            path=("path1",),
            bound={"chain_b.dll": "sys", "chain_c.dll": "path1"},
        ).with_removed(f"{lib}/chain_c.dll"),
        Layout(
            "torch-preload-wrong-machine",
            "A 32-bit DLL in torch\\lib, a good one on PATH",
            {**base, f"{lib}/chain_c.dll": "x86/chain_c.dll", **fixtures("path1", "chain_c.dll")},
            torch_ops(lib, ("c10.dll", *CHAIN), None, {"chain_a.dll": "fallback-ok", "chain_c.dll": "193"}),
            path=("path1",),
            differences=("wrong-machine-skip",),
            hidden=(f"{lib}/chain_c.dll",),
            bound={"chain_c.dll": "path1"},
            windows={"chain_c.dll": f"193:{lib}"},
        ),
        Layout(
            "torch-extension-reuses-preloaded",
            "_C's own folder has chain_a.dll too: the preloaded one is reused",
            {**base, "site/torch/chain_a.dll": "x64/chain_a.dll"},
            ops(CHAIN),
            bound={"chain_a.dll": lib},
        ),
    ]


TORCH_LIB = (
    "c10.dll",
    "libiomp5md.dll",
    "libiompstubs5md.dll",
    "shm.dll",
    "torch.dll",
    "torch_cpu.dll",
    "torch_global_deps.dll",
    "torch_python.dll",
    "uv.dll",
)


def _real_torch() -> list[Layout]:
    lib = "site/torch/lib"
    base = {f"{lib}/{dll}": f"torch/torch/lib/{dll}" for dll in TORCH_LIB}
    base["site/torch/_C.cp311-win_amd64.pyd"] = "torch/torch/_C.cp311-win_amd64.pyd"
    # torch_python.dll's initialisers need the real interpreter: with the stand-in python311.dll its
    # DllMain fails once every import is bound, and a second attempt (importing _C) aborts the process.
    init = {"torch_python.dll": "init-failed"}

    def without(*names: str) -> dict[str, str]:
        return {k: v for k, v in base.items() if k.rsplit("/", 1)[-1] not in names}

    return [
        Layout(
            "torch-real-healthy",
            "The real torch 2.13 preload (torch._C is not imported: see init)",
            base,
            torch_ops(lib, TORCH_LIB, None, init, keep_going=True),
            differences=("init-failure", "stub-export"),
            wheels=True,
            bound={"c10.dll": lib, "torch_cpu.dll": lib},
        ),
        Layout(
            "torch-real-c10-missing",
            "c10.dll deleted: shm.dll's preload fails with 126 twice, torch raises",
            without("c10.dll"),
            torch_ops(
                lib, tuple(d for d in TORCH_LIB if d != "c10.dll")[:3], None, {"shm.dll": "fallback-126"}
            ),
            wheels=True,
            bound={"c10.dll": "-"},
        ),
        Layout(
            "torch-real-c10-on-path",
            "c10.dll moved to PATH: the fallback binds it there, and it sticks",
            {**without("c10.dll"), "path1/c10.dll": "torch/torch/lib/c10.dll"},
            torch_ops(
                lib,
                tuple(d for d in TORCH_LIB if d != "c10.dll"),
                None,
                {**init, "shm.dll": "fallback-ok"},
                keep_going=True,
            ),
            path=("path1",),
            differences=("init-failure", "stub-export"),
            wheels=True,
            bound={"c10.dll": "path1"},
        ),
        Layout(
            "torch-real-c10-32bit",
            "A 32-bit file named c10.dll: its own preload fails with 193",
            {**base, f"{lib}/c10.dll": "x86/chain_c.dll"},
            torch_ops(lib, ("c10.dll",), None, {"c10.dll": "193"}),
            wheels=True,
        ),
        Layout(
            "torch-real-stale-c10-on-path",
            "Another c10.dll on PATH is never used while torch\\lib has one",
            {**base, "path1/c10.dll": "torch/torch/lib/c10.dll"},
            torch_ops(lib, TORCH_LIB, None, init, keep_going=True),
            path=("path1",),
            differences=("init-failure", "stub-export"),
            wheels=True,
            bound={"c10.dll": lib},
        ),
    ]


def _legacy() -> list[Layout]:
    mod = "pkg/chain_a.cp37-win_amd64.pyd"

    def legacy(expect: str = "ok") -> Op:
        return Op("flags=8", f"@site/{mod}", f"scan:{mod}", expect)

    base = {f"site/{mod}": "x64/chain_a.dll"}
    return [
        Layout(
            "legacy-python-path",
            "Python 3.7 (LOAD_WITH_ALTERED_SEARCH_PATH) searches PATH",
            {**base, **fixtures("site/pkg", "chain_b.dll"), **fixtures("path1", "chain_c.dll")},
            (legacy(),),
            python="3.7",
            path=("path1",),
            bound={"chain_c.dll": "path1"},
        ),
        Layout(
            "legacy-python-no-application-folder",
            "... but not python.exe's folder (the altered order replaces it)",
            {**base, **fixtures("site/pkg", "chain_b.dll"), **fixtures("py", "chain_c.dll")},
            (legacy("126"),),
            python="3.7",
            bound={"chain_c.dll": "-"},
        ),
        Layout(
            "legacy-python-same-folder-first",
            "... and the module's own folder first",
            {
                **base,
                **fixtures("site/pkg", "chain_b.dll", "chain_c.dll"),
                **fixtures("path1", "chain_c.dll"),
            },
            (legacy(),),
            python="3.7",
            path=("path1",),
            bound={"chain_c.dll": "site/pkg"},
        ),
    ]


def _dependent_load_flags() -> list[Layout]:
    def dlf(layout_id: str, title: str, flags: str, where: dict[str, str], windows: str) -> Layout:
        files = {"site/pkg/dlf.dll": f"h/dlf_{flags}.dll", **where}
        return Layout(
            layout_id,
            title,
            files,
            (ext("pkg/dlf.dll"),),
            differences=("dependent-load-flags",),
            swap={"site/pkg/dlf.dll": "h/dlf_0000.dll"},
            bound={"chain_c.dll": "site/pkg"},
            windows={"chain_c.dll": windows},
        )

    return [
        dlf(
            "dlf-system32-only-skips-same-folder",
            "DependentLoadFlags 0x800: only System32 for the DLL's imports",
            "0800",
            fixtures("site/pkg", "chain_c.dll"),
            "-",
        ),
        dlf(
            "dlf-system32-only-finds-system32",
            "0x800 with a copy in System32 and one in the same folder",
            "0800",
            {**fixtures("site/pkg", "chain_c.dll"), **fixtures("sys", "chain_c.dll")},
            "sys",
        ),
        dlf(
            "dlf-application-dir",
            "0x200: only python.exe's folder",
            "0200",
            {**fixtures("site/pkg", "chain_c.dll"), **fixtures("py", "chain_c.dll")},
            "py",
        ),
        dlf(
            "dlf-dll-load-dir",
            "0x100: only the DLL's own folder",
            "0100",
            {**fixtures("site/pkg", "chain_c.dll"), **fixtures("py", "chain_c.dll")},
            "site/pkg",
        ),
        dlf(
            "dlf-default-dirs",
            "0x1000: default dirs, not the DLL's own folder",
            "1000",
            {**fixtures("site/pkg", "chain_c.dll"), **fixtures("sys", "chain_c.dll")},
            "sys",
        ),
    ]


def _symbols() -> list[Layout]:
    return [
        Layout(
            "export-missing-name",
            "An imported name the DLL does not export",
            {"site/pkg/needs_symbol.dll": "x64/needs_symbol.dll", **fixtures("site/pkg", "chain_c.dll")},
            (ext("pkg/needs_symbol.dll"),),
            differences=("stub-export",),
            bound={"chain_c.dll": "site/pkg"},
        ),
        Layout(
            "export-missing-ordinal",
            "An imported ordinal the DLL does not export",
            {"site/pkg/needs_ordinal.dll": "x64/needs_ordinal.dll", **fixtures("site/pkg", "chain_c.dll")},
            (ext("pkg/needs_ordinal.dll"),),
            differences=("stub-export",),
            bound={"chain_c.dll": "site/pkg"},
        ),
        Layout(
            "export-forwarder-dangling",
            "A forwarder to a name its target lacks",
            {
                "site/pkg/uses_forwarder.dll": "x64/uses_forwarder.dll",
                "site/pkg/forwarder.dll": "x64/forwarder.dll",
                **fixtures("site/pkg", "chain_c.dll"),
            },
            (ext("pkg/uses_forwarder.dll"),),
            differences=("stub-export",),
            bound={"forwarder.dll": "site/pkg"},
        ),
        Layout(
            "export-forwarder-target-missing",
            "Forwarders to a DLL that is nowhere",
            {
                "site/pkg/uses_forwarder.dll": "x64/uses_forwarder.dll",
                "site/pkg/forwarder.dll": "x64/forwarder.dll",
            },
            (ext("pkg/uses_forwarder.dll"),),
            differences=("stub-export",),
            bound={"chain_c.dll": "-"},
        ),
    ]


def _programs() -> list[Layout]:
    def program(layout_id: str, title: str, files: dict[str, str], expect: str, **kw: object) -> Layout:
        op = Op("program", "@site/app/app.exe", "program:app/app.exe", expect)
        return Layout(
            layout_id,
            title,
            {"site/app/app.exe": "x64/app.exe", **files},
            (op,),
            program="site/app/app.exe",
            **kw,
        )  # type: ignore[arg-type]

    return [
        program(
            "program-own-folder",
            "An EXE finds its dependencies in its own folder",
            fixtures("site/app", *CHAIN),
            "ok",
            bound={"chain_c.dll": "site/app"},
        ),
        program(
            "program-path",
            "... and on PATH",
            {**fixtures("site/app", *CHAIN[:2]), **fixtures("path1", "chain_c.dll")},
            "ok",
            path=("path1",),
            bound={"chain_c.dll": "path1"},
        ),
        program(
            "program-missing",
            "... or fails to start",
            fixtures("site/app", *CHAIN[:2]),
            "126",
            bound={"chain_c.dll": "-"},
        ),
    ]


def all_layouts() -> list[Layout]:
    layouts = [
        *_extension_modules(),
        *_missing(),
        *_already_loaded(),
        *_wrong_machine(),
        *_corrupt(),
        *_delay_loads(),
        *_api_sets(),
        *_system_names(),
        *_standard_order(),
        *_fake_torch(),
        *_real_torch(),
        *_legacy(),
        *_dependent_load_flags(),
        *_symbols(),
        *_programs(),
    ]
    ids = [layout.id for layout in layouts]
    assert len(ids) == len(set(ids)), "layout ids must be unique"
    return layouts
