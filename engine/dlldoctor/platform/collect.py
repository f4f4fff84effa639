"""dlldoctor's collector: what a Windows machine says about a failing ``import``, as one JSON bundle.

Standard library only, runs with any Python >= 3.8: save it (``dlldoctor collector > collect.py``) and
run ``py collect.py torch --report bundle.json`` with the Python whose import fails. It only reads: the
registry, file version resources, environment variables and the DLLs of the failing package (loaded in
child processes of that Python, with error pop-ups switched off). Nothing is sent anywhere. Then, on any
machine: ``dlldoctor explain --bundle bundle.json``.

Every Windows call sits behind one object (``Win32``; tests pass a fake). The steps: reproduce each
import in a child process, read the machine, load the failing package's DLLs leaves first in a child
process, recording each error code, the file that bound and, for a 127, the name that is missing.
"""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import sys
from typing import Any

BUNDLE_VERSION = 1
CHILD_TIMEOUT = 300  # seconds for one child process (importing torch cold can take a minute)
MAX_PLAN_FILES = 400  # PE files of one package the collector probes; the biggest real package has ~250

# LoadLibraryExW flags (learn.microsoft.com, "LoadLibraryExW function"); CPython's: Python/dynload_win.c.
LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR, LOAD_LIBRARY_SEARCH_DEFAULT_DIRS = 0x100, 0x1000
EXTENSION_FLAGS = LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR
QUIET_ERROR_MODE = 0x0001 | 0x8000  # SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX ("SetErrorMode")
ERROR_MOD_NOT_FOUND, ERROR_PROC_NOT_FOUND = 126, 127
ANSWER = "\n--- dlldoctor answer ---\n"  # the child's JSON follows it: what the import printed comes before

# Registry values as Microsoft documents them (HKEY_LOCAL_MACHINE).
VC_REDIST_KEY = r"SOFTWARE\Microsoft\VisualStudio\14.0\VC\Runtimes\x64"  # Version, Installed
KNOWN_DLLS_KEY = r"SYSTEM\CurrentControlSet\Control\Session Manager\KnownDLLs"
FILE_SYSTEM_KEY = r"SYSTEM\CurrentControlSet\Control\FileSystem"  # LongPathsEnabled
CI_POLICY_KEY = r"SYSTEM\CurrentControlSet\Control\CI\Policy"  # VerifiedAndReputablePolicyState
CI_ACTIVE = ("CodeIntegrity", "CiPolicies", "Active")  # App Control (WDAC) policies in force: *.cip files
WINDOWS_KEY = r"SOFTWARE\Microsoft\Windows NT\CurrentVersion"
WINDOWS_VALUES = ("ProductName", "DisplayVersion", "CurrentBuild", "UBR")
SYSTEM_VERSIONED = ("msvcp140.dll", "vcruntime140.dll", "vcruntime140_1.dll", "ucrtbase.dll", "nvcuda.dll")
ENV_NAMES = ("PATH", "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "CONDA_SHLVL", "CUDA_PATH", "VIRTUAL_ENV")


class Win32:
    """The real Windows: ctypes and winreg. Only ever constructed on Windows."""

    def __init__(self) -> None:
        import ctypes
        import winreg
        from ctypes import wintypes

        self._ctypes: Any = ctypes  # Any: typeshed has the Windows parts only for sys.platform win32
        self._winreg: Any = winreg
        self._k32 = self._ctypes.WinDLL("kernel32", use_last_error=True)
        self._k32.LoadLibraryExW.restype = wintypes.HMODULE
        self._k32.LoadLibraryExW.argtypes = (wintypes.LPCWSTR, wintypes.HANDLE, wintypes.DWORD)
        self._k32.GetModuleFileNameW.argtypes = (wintypes.HMODULE, wintypes.LPWSTR, wintypes.DWORD)
        self._k32.GetProcAddress.restype = ctypes.c_void_p
        self._k32.GetProcAddress.argtypes = (wintypes.HMODULE, ctypes.c_char_p)
        self._k32.AddDllDirectory.restype = ctypes.c_void_p
        self._k32.AddDllDirectory.argtypes = (wintypes.LPCWSTR,)

    def registry_value(self, key: str, name: str) -> object:
        winreg = self._winreg
        try:
            with winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, key) as handle:
                return winreg.QueryValueEx(handle, name)[0]
        except OSError:
            return None

    def registry_values(self, key: str) -> dict[str, Any]:
        winreg, found = self._winreg, {}
        try:
            with winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, key) as handle:
                index = 0
                while True:
                    name, value, _ = winreg.EnumValue(handle, index)
                    found[name] = value
                    index += 1
        except OSError:
            return found

    def suppress_error_popups(self) -> None:
        self._k32.SetErrorMode(QUIET_ERROR_MODE)
        mode = getattr(self._k32, "SetThreadErrorMode", None)
        if mode is not None:
            mode(QUIET_ERROR_MODE, None)

    def add_dll_directory(self, folder: str) -> None:
        self._k32.AddDllDirectory(folder)

    def prepend_path(self, folders: list[str]) -> None:
        os.environ["PATH"] = os.pathsep.join([*folders, os.environ.get("PATH", "")])

    def load_library(self, path: str, flags: int) -> tuple[int, int]:
        """(module handle or 0, GetLastError)."""
        handle = self._k32.LoadLibraryExW(path, None, flags)
        return (handle or 0), (0 if handle else self._ctypes.get_last_error())

    def module_file_name(self, handle: int) -> str:
        buffer = self._ctypes.create_unicode_buffer(32768)
        self._k32.GetModuleFileNameW(handle, buffer, 32768)
        return str(buffer.value)

    def exports(self, handle: int, name: str) -> bool:
        return bool(self._k32.GetProcAddress(handle, name.encode("ascii", "replace")))

    def file_version(self, path: str) -> str | None:
        ctypes = self._ctypes
        version = ctypes.WinDLL("version")
        size = version.GetFileVersionInfoSizeW(path, None)
        if not size:
            return None
        data = ctypes.create_string_buffer(size)
        if not version.GetFileVersionInfoW(path, 0, size, data):
            return None
        pointer, length = ctypes.c_void_p(), ctypes.c_uint()
        if not version.VerQueryValueW(data, "\\", ctypes.byref(pointer), ctypes.byref(length)):
            return None
        fixed = ctypes.string_at(pointer.value, length.value)
        ms, ls = struct.unpack_from("<II", fixed, 8)  # VS_FIXEDFILEINFO.dwFileVersionMS/LS
        return f"{ms >> 16}.{ms & 0xFFFF}.{ls >> 16}.{ls & 0xFFFF}"

    def console_code_page(self) -> int | None:
        return int(self._k32.GetConsoleOutputCP()) or None

    def system_dir(self) -> str:
        return os.path.join(os.environ.get("SystemRoot", r"C:\Windows"), "System32")

    def environ(self) -> dict[str, str]:
        return dict(os.environ)

    def run_child(self, python: str, step: str, payload: dict[str, Any]) -> dict[str, Any]:
        """Run one step of this file in a new process of ``python``: JSON in on stdin, JSON out."""
        command = [python, os.path.abspath(__file__), "--child", step]
        data = json.dumps(payload).encode("utf-8")
        try:  # CREATE_NO_WINDOW: no console flashes up
            done = subprocess.run(
                command, input=data, capture_output=True, timeout=CHILD_TIMEOUT, creationflags=0x08000000
            )
        except subprocess.TimeoutExpired:
            return {"crashed": True, "exit_code": None, "stderr": [f"no answer after {CHILD_TIMEOUT} s"]}
        out = done.stdout.decode("utf-8", "replace")
        try:
            answer = json.loads(out[out.rfind(ANSWER) + len(ANSWER) :] if ANSWER in out else "null")
        except ValueError:
            answer = None
        if isinstance(answer, dict):
            return answer
        tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
        return {"crashed": True, "exit_code": done.returncode, "stderr": tail}


# ----- steps that run in the child process -----------------------------------------------------------


def child_interpreter(api: Any, payload: dict[str, Any]) -> dict[str, Any]:
    """Who this interpreter is, and where each named module's package lies (found, not imported)."""
    import importlib.util
    import site
    import sysconfig

    packages: dict[str, Any] = {}
    for name in payload.get("modules") or []:
        try:
            spec = importlib.util.find_spec(str(name).split(".")[0])
        except (ImportError, ValueError):
            spec = None
        folders = list(spec.submodule_search_locations or []) if spec else []
        packages[str(name)] = folders[0] if folders else (spec.origin if spec else None)
    exe = sys.executable
    base = getattr(sys, "_base_executable", exe) or exe
    return {
        "version": ".".join(str(n) for n in sys.version_info[:3]), "implementation": sys.implementation.name,
        "bits": 64 if sys.maxsize > 2**32 else 32, "executable": exe, "app_dir": os.path.dirname(base),
        "prefix": sys.prefix, "base_prefix": sys.base_prefix, "site_packages": sysconfig.get_paths().get("platlib"),
        "user_site": site.getusersitepackages() if site.ENABLE_USER_SITE else None,
        "kind": interpreter_kind(exe, sys.prefix, sys.base_prefix), "packages": packages,
    }  # fmt: skip


def interpreter_kind(exe: str, prefix: str, base_prefix: str) -> str:
    """python.org, conda, Store, embedded or venv, from the files around the interpreter."""
    folder = os.path.dirname(exe)
    if os.path.isdir(os.path.join(prefix, "conda-meta")):
        return "conda"
    if "windowsapps" in exe.lower() or "pythonsoftwarefoundation" in base_prefix.lower():
        return "store"
    if any(name.lower().endswith("._pth") for name in _names(folder)):
        return "embedded"
    if os.path.normcase(prefix) != os.path.normcase(base_prefix):
        return "venv"
    return "python.org"


def child_reproduce(api: Any, payload: dict[str, Any]) -> dict[str, Any]:
    """Import the module here, keeping the exact error text and Windows error code."""
    import importlib
    import traceback

    suppress = getattr(api, "suppress_error_popups", None)
    if suppress is not None:
        suppress()
    name = str(payload.get("module"))
    try:
        importlib.import_module(name)
    except BaseException as e:  # anything an import raises is the answer, even SystemExit
        text = "".join(traceback.format_exception_only(type(e), e)).strip()
        return {"module": name, "ok": False, "error_type": type(e).__name__, "text": text,
                "winerror": getattr(e, "winerror", None)}  # fmt: skip
    return {"module": name, "ok": True, "error_type": None, "text": "", "winerror": None}


def child_probe(api: Any, plan: dict[str, Any]) -> dict[str, Any]:
    """Carry out a plan of load calls in this process; record what each one did.

    ``plan``: ``dirs`` (folders added with AddDllDirectory first, as os.add_dll_directory does) and
    ``calls``, leaves first: ``{"path", "flags", "imports": {dll: [names]}, "fallback": [folders]}``. A
    ``fallback`` call is a step of torch's preload: on 126, PATH is prefixed with those folders and
    LoadLibraryW (the standard search, PATH included) is tried. For a failed call, each imported DLL is
    loaded on its own to name the one that is missing (126), and for 127 the name it lacks.
    """
    api.suppress_error_popups()
    for folder in plan.get("dirs") or []:
        api.add_dll_directory(str(folder))
    results = []
    for call in plan.get("calls") or []:
        path, flags = str(call["path"]), int(call.get("flags", EXTENSION_FLAGS))
        handle, code = api.load_library(path, flags)
        record: dict[str, Any] = {"path": path, "flags": flags, "code": code}
        if code == ERROR_MOD_NOT_FOUND and call.get("fallback"):
            api.prepend_path([str(f) for f in call["fallback"]])
            handle, code = api.load_library(path, 0)
            record["fallback_code"] = code
        if handle:
            record["bound"] = api.module_file_name(handle)
        else:
            record.update(
                _why(api, path, call.get("imports") or {}, code, 0 if "fallback_code" in record else 0x1000)
            )
        results.append(record)
    return {"calls": results}


def _why(a: Any, path: str, imports: dict[str, list[str]], code: int, by_name: int) -> dict[str, Any]:
    """Which import of a failed load is missing (126) or lacks a name (127); ``by_name``: the flags of
    the first load's search, for an import not beside the file."""
    folder = os.path.dirname(path)
    for dll in imports:
        beside = os.path.join(folder, dll)
        target, flags = (beside, EXTENSION_FLAGS) if os.path.isfile(beside) else (dll, by_name)
        handle, dep_code = a.load_library(target, flags)
        if not handle:
            if dep_code == code or code != ERROR_PROC_NOT_FOUND:
                return {"missing_dll": dll, "dll_code": dep_code}
            continue
        if code == ERROR_PROC_NOT_FOUND:
            for name in imports[dll]:
                if not a.exports(handle, name):
                    bound = a.module_file_name(handle)
                    return {"missing_name": name, "in_dll": dll, "dll_bound": bound}
    return {}


CHILD_STEPS = {"interpreter": child_interpreter, "reproduce": child_reproduce, "probe": child_probe}


# ----- the machine, read from this process -----------------------------------------------------------


def machine_facts(api: Any, interpreter: dict[str, Any], extra_dlls: list[str]) -> dict[str, Any]:
    """What the issue asks about the machine: registry values, System32 file versions, environment."""
    a = api
    value = a.registry_value
    env = a.environ()
    system = a.system_dir()
    versions: dict[str, Any] = {}
    for name in sorted(set(SYSTEM_VERSIONED) | {n.lower() for n in extra_dlls}):
        path = os.path.join(system, name)
        if os.path.isfile(path):
            versions[name] = a.file_version(path) or "present"
    driver = versions.get("nvcuda.dll")
    return {
        "interpreter": interpreter,
        "environment": {k: env[k] for k in ENV_NAMES if k in env},
        "path": [p for p in env.get("PATH", "").split(os.pathsep) if p],
        "windows": {n: value(WINDOWS_KEY, n) for n in WINDOWS_VALUES},
        "vc_redist": {
            "version": value(VC_REDIST_KEY, "Version"),
            "installed": value(VC_REDIST_KEY, "Installed"),
        },
        "known_dlls": sorted(str(v).lower() for v in a.registry_values(KNOWN_DLLS_KEY).values()),
        "long_paths_enabled": value(FILE_SYSTEM_KEY, "LongPathsEnabled"),
        "smart_app_control": value(CI_POLICY_KEY, "VerifiedAndReputablePolicyState"),
        "wdac_policies": sum(n.lower().endswith(".cip") for n in _names(os.path.join(system, *CI_ACTIVE))),
        "console_code_page": a.console_code_page(),
        "system_dir": system,
        "system_dlls": versions,
        "nvidia_driver": nvidia_driver(str(driver)) if isinstance(driver, str) else None,
    }


def nvidia_driver(file_version: str) -> str | None:
    """nvcuda.dll's file version 32.0.15.6094 is driver 560.94: the last five digits, split 3 + 2."""
    parts = file_version.split(".")
    if len(parts) != 4 or not all(p.isdigit() for p in parts):
        return None
    digits = (parts[2][-1:] + parts[3].zfill(4))[-5:]
    return f"{int(digits[:3])}.{digits[3:]}"


# ----- the collector's own plan: imports read from the PE files, leaves first ------------------------


def pe_imports(path: str) -> dict[str, list[str]]:
    """Imported DLL -> imported names of a PE file (ordinals left out); {} for anything unreadable."""
    import mmap

    found: dict[str, list[str]] = {}
    try:
        with open(path, "rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as m:
            pe = struct.unpack_from("<I", m, 0x3C)[0]
            if m[:2] != b"MZ" or m[pe : pe + 4] != b"PE\0\0":
                return found
            count, optional = struct.unpack_from("<H", m, pe + 6)[0], struct.unpack_from("<H", m, pe + 20)[0]
            wide = struct.unpack_from("<H", m, pe + 24)[0] == 0x20B
            rva = struct.unpack_from("<I", m, pe + 24 + (112 if wide else 96) + 8)[0]
            at = pe + 24 + optional
            sections = [struct.unpack_from("<IIII", m, at + 40 * i + 8) for i in range(min(count, 96))]

            def offset(address: int) -> int:
                for size, start, raw_size, raw in sections:
                    if start <= address < start + max(size, raw_size):
                        return int(raw + address - start)
                raise ValueError(address)

            def string(address: int) -> str:
                start = offset(address)
                return m[start : m.find(b"\0", start, start + 512)].decode("ascii", "replace")

            width = 8 if wide else 4
            for index in range(4096):
                lookup, _, _, name_rva, thunks = struct.unpack_from("<IIIII", m, offset(rva + 20 * index))
                if not name_rva:
                    break
                names = found.setdefault(string(name_rva), [])
                table = offset(lookup or thunks)
                for slot in range(65536):
                    value = int.from_bytes(m[table + width * slot : table + width * (slot + 1)], "little")
                    if not value:
                        break
                    if not value >> (width * 8 - 1):  # not an ordinal
                        names.append(string((value & 0x7FFFFFFF) + 2))
    except (OSError, struct.error, ValueError):
        return found
    return found


def collector_plan(package: str) -> dict[str, Any]:
    """Every PE file of a package folder, leaves first; the folders that hold DLLs added, as a
    package's own loader code (or delvewheel's patch beside it) would."""
    files: dict[str, str] = {}
    root = os.path.dirname(package) if os.path.isfile(package) else package
    libs = root.rstrip("\\/") + ".libs"
    for base in (root, libs):
        for folder, _, names in os.walk(base):
            for name in sorted(names):
                if name.lower().endswith((".pyd", ".dll")) and len(files) < MAX_PLAN_FILES:
                    files.setdefault(name.lower(), os.path.join(folder, name))
    imports = {key: pe_imports(path) for key, path in files.items()}
    order: list[str] = []
    for start in sorted(files, key=lambda k: (k.endswith(".pyd"), k)):
        stack, seen = [(start, iter(imports[start]))], {start}
        while stack:
            key, pending = stack[-1]
            dep = next(pending, None)
            if dep is None:
                stack.pop()
                if key not in order:
                    order.append(key)
            elif dep.lower() in files and dep.lower() not in seen and dep.lower() not in order:
                seen.add(dep.lower())
                stack.append((dep.lower(), iter(imports[dep.lower()])))
    dirs = sorted({os.path.dirname(files[k]) for k in files if k.endswith(".dll")})
    calls = [{"path": files[k], "flags": EXTENSION_FLAGS, "imports": imports[k]} for k in order]
    outside = sorted({d.lower() for i in imports.values() for d in i if d.lower() not in files})
    return {"source": "collector", "dirs": dirs, "calls": calls, "system_dlls": outside}


# ----- the bundle ------------------------------------------------------------------------------------


def build_bundle(api: Any, python: str, modules: list[str], plan_for: Any = None) -> dict[str, Any]:
    """Reproduce, read, probe; ``plan_for(module, package, interpreter)`` plans a failing module's loads."""
    run = api.run_child
    interpreter = run(python, "interpreter", {"modules": modules})
    reproduced = [_outcome(m, run(python, "reproduce", {"module": m})) for m in modules]
    probes, needed = [], set()  # type: list[dict[str, Any]], set[str]
    for outcome in reproduced:
        if outcome.get("ok") is not False:
            continue
        module = str(outcome.get("module"))
        package = (interpreter.get("packages") or {}).get(module)
        if not package:
            continue
        plan = plan_for(module, package, interpreter) if callable(plan_for) else collector_plan(package)
        answer = run(python, "probe", plan)
        needed.update(plan.get("system_dlls") or [])
        probes.append({"module": module, "source": plan.get("source"), "dirs": plan.get("dirs"), **answer})
    needed.update(str(c.get("missing_dll") or "") for p in probes for c in p.get("calls", []))
    return {
        "version": BUNDLE_VERSION,
        "kind": "dlldoctor-bundle",
        "python": python,
        "reproduced": reproduced,
        "facts": machine_facts(api, interpreter, sorted(n for n in needed if n)),
        "probes": probes,
    }


def _outcome(module: str, answer: dict[str, Any]) -> dict[str, Any]:  # a child that died: a failed import
    if not answer.get("crashed"):
        return answer
    text = f"the import ended the process (exit code {answer.get('exit_code')}): {' '.join(answer.get('stderr') or [])}"
    return {"module": module, "ok": False, "error_type": None, "text": text.strip(), "winerror": None}


def redact(value: object, environ: dict[str, str]) -> object:
    """Every string with the user's home folder and user name masked: ``<home>``, ``<user>``."""
    masks: list[tuple[str, str]] = []
    for key, mask in (
        ("USERPROFILE", "<home>"),
        ("HOME", "<home>"),
        ("USERNAME", "<user>"),
        ("USER", "<user>"),
    ):
        text = environ.get(key, "")
        if len(text) >= 3 and text not in (m for m, _ in masks):
            masks.append((text, mask))
    masks.sort(key=lambda m: -len(m[0]))
    return _mask(value, masks)


def _mask(value: object, masks: list[tuple[str, str]]) -> object:
    if isinstance(value, str):  # in any case: Windows paths and names ignore it
        for text, mask in masks:
            value = re.sub(re.escape(text), mask, value, flags=re.IGNORECASE)  # masks hold no backslash
        return value
    if isinstance(value, list):
        return [_mask(v, masks) for v in value]
    if isinstance(value, dict):
        return {_mask(k, masks): _mask(v, masks) for k, v in value.items()}
    return value


def _names(folder: str) -> list[str]:
    return os.listdir(folder) if os.path.isdir(folder) else []


def main(argv: list[str], api: Any = None, python: str = sys.executable) -> int:
    if len(argv) == 2 and argv[0] == "--child" and argv[1] in CHILD_STEPS:
        if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
            del sys.path[0]  # this file's folder is not the interpreter's: it must not shadow an import
        payload, real_stdout, sys.stdout = json.loads(sys.stdin.read() or "{}"), sys.stdout, sys.stderr
        answer = CHILD_STEPS[argv[1]](Win32() if sys.platform == "win32" else None, payload)
        real_stdout.write(ANSWER + json.dumps(answer))
        return 0
    args = [a for a in argv if not a.startswith("--")]
    report = argv[argv.index("--report") + 1] if "--report" in argv[:-1] else None
    if report in args:
        args.remove(report)
    api = api or (Win32() if sys.platform == "win32" else None)  # tests pass a fake Windows
    if api is None:
        sys.stderr.write("collect.py: run this on the Windows machine where the import fails\n")
        return 2
    bundle = build_bundle(api, python, args or ["torch"])
    bundle["tool"] = {"name": "collect.py", "version": BUNDLE_VERSION}
    bundle["redacted"] = "--no-redact" not in argv
    text = json.dumps(
        redact(bundle, api.environ()) if bundle["redacted"] else bundle, indent=1, sort_keys=True
    )
    if report:
        with open(report, "w", encoding="utf-8") as handle:  # ASCII JSON: any console, any editor
            handle.write(text + "\n")
        sys.stderr.write(f"bundle written to {report}: read it with dlldoctor explain --bundle {report}\n")
    else:
        sys.stdout.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
