"""Where a target's files land once installed, and the Windows machine they would run on."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from pathlib import Path

from dlldoctor.cache.pe_facts import Catalog
from dlldoctor.install.sources import Entry, FileSource, Source, WheelSource, wheel_install_folder
from dlldoctor.loader.environment import (
    Environment,
    Folder,
    copied_folder,
    folder_of,
    infer_machine,
    infer_python,
    parse_python_version,
)
from dlldoctor.loader.sysprofile import load_profile
from dlldoctor.scan.result import ScanOptions


class InstallLayout:
    """A target's files grouped by the folder they sit in once installed."""

    def __init__(self, source: Source, entries: list[Entry]) -> None:
        self.is_wheel = isinstance(source, WheelSource) or bool(getattr(source, "is_wheel", False))
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
            key: folder_of(items, label(key) if key else root_label or ".")
            for key, items in self.by_folder.items()
        }
        self.env_root = not self.is_wheel and any(
            e.relpath.lower() == "python.exe" for e in self.by_folder.get("", [])
        )


def label(key: str) -> str:
    if key == "<prefix>":
        return "<python.exe folder>"
    return key.replace("/", "\\") if key else "."


def build_environment(
    options: ScanOptions, layout: InstallLayout, catalog: Catalog, names: frozenset[str], entries: list[Entry]
) -> Environment:
    profile = load_profile(options.rules_root)
    if options.known_dlls is not None:
        profile = replace(profile, known_dlls=frozenset(n.lower() for n in options.known_dlls))
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
    path_dirs = tuple(copied_folder(p, "--path") for p in options.path)
    # Every real PATH holds System32, which the loader searches before PATH anyway: a system folder among
    # the --path folders is that, not a folder that DLLs are "only on PATH" in.
    system_like = [f for f in path_dirs if all(f.get(n) is not None for n in _SYSTEM_CORE)]
    if system_like:
        path_dirs = tuple(f for f in path_dirs if f not in system_like)
        labels = ", ".join(f.label for f in system_like)
        if system_dir is None:
            system_dir = system_like[0]
            assumptions.append(f"{labels}: a Windows system folder on PATH, searched as System32")
        else:
            assumptions.append(f"{labels}: a Windows system folder on PATH, searched as System32 is")
    if system_dir is None:
        assumptions.append(
            "System32 is a stock Windows 10/11 (built-in profile; pass --system-dir to use a copy)"
        )
    env_type = _env_type(names, layout.env_root)
    return Environment(python, machine, env_type, app_dir, path_dirs, system_dir, profile, tuple(assumptions))


# DLLs every Windows system folder (System32, SysWOW64) holds and no other folder does.
_SYSTEM_CORE = ("ntdll.dll", "kernel32.dll")


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
