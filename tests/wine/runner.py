"""Drive Wine: a private prefix, the harness build, one harness process per layout, its output parsed.

The prefix is made once with ``wineboot -i`` (the slow part, ~15 s) and kept in the test cache
(``$DLLDOCTOR_TEST_CACHE/wine/``, next to the downloaded wheels), keyed by the Wine version. Each test
session works on its own copy (System32 entries hard-linked, everything else copied), so that a layout
can put a DLL into System32 without touching the cache or another session, and keeps one wineserver
running for it; the session ends with ``wineserver -k`` on that copy only.

Every harness run gets ``WINEDEBUG=-all,+pid,+loaddll,err+module,warn+module``: ``+loaddll`` names each
file bound (``Loaded L"..." : native|builtin``), ``err+module`` names a missing or unloadable dependency
and its importer, ``warn+module`` the imports Wine bound to a stub. The warm-up run that starts Wine's
own services uses ``WINEDEBUG=-all`` and no pipe, so that those services never hold the harness's
output open.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parents[2]
HARNESS_BUILD = ROOT / "corpus" / "pe" / "harness" / "build.py"

TRACE_CHANNELS = "-all,+pid,+loaddll,err+module,warn+module"
BASE_OVERRIDES = "mscoree,mshtml="  # no Mono or Gecko installer prompts
RUN_TIMEOUT = 120


def cache_dir() -> Path:
    """Next to the downloaded wheels: ``$DLLDOCTOR_TEST_CACHE/wine`` (tests/wheelcache.py)."""
    import wheelcache  # tests/ is on sys.path (tests/conftest.py)

    return wheelcache.CACHE / "wine"


# ----- what the tier needs ---------------------------------------------------------------------------


def wine_loader() -> str | None:
    """The 64-bit Wine loader: ``wine64`` on PATH, or Debian's /usr/lib/wine/wine64 behind ``wine``."""
    for candidate in (shutil.which("wine64"), "/usr/lib/wine/wine64", "/usr/lib64/wine/wine64"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def wine_server() -> str | None:
    for candidate in (shutil.which("wineserver"), "/usr/lib/wine/wineserver", "/usr/lib/wine/wineserver64"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def missing_requirements() -> list[str]:
    missing = []
    if wine_loader() is None:
        missing.append("wine64 (Debian: apt-get install wine64)")
    if wine_server() is None:
        missing.append("wineserver (Debian: apt-get install wine64)")
    for tool in ("x86_64-w64-mingw32-gcc", "x86_64-w64-mingw32-dlltool"):
        if shutil.which(tool) is None:
            missing.append(f"{tool} (Debian: apt-get install gcc-mingw-w64-x86-64)")
    return missing


def require() -> None:
    """Skip the tier with the reason outside CI; fail it in CI, where it must run."""
    missing = missing_requirements()
    if not missing:
        return
    reason = "the Wine tier needs " + "; ".join(missing)
    if os.environ.get("CI"):
        pytest.fail(reason + " (CI is set: this tier must run)")
    pytest.skip(reason)


# ----- paths between Unix and Wine -------------------------------------------------------------------


def to_wine(path: Path | str) -> str:
    """A Unix path as Wine's Z: drive shows it."""
    return "Z:" + str(Path(path).resolve()).replace("/", "\\")


def wine_string(text: str) -> str:
    r"""A path as a Wine trace quotes it (L"Z:\\tmp\\x.dll") back to plain text."""
    return text.replace("\\\\", "\\")


# ----- the prefix ------------------------------------------------------------------------------------


def _env(prefix: Path, debug: str, overrides: str = "") -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        WINEPREFIX=str(prefix),
        WINEARCH="win64",
        WINEDEBUG=debug,
        WINEDLLOVERRIDES=";".join(x for x in (BASE_OVERRIDES, overrides) if x),
        WINELOADER=wine_loader() or "wine64",
        WINESERVER=wine_server() or "wineserver",
        DISPLAY="",
        LANG="C.UTF-8",
    )
    return env


def wine_version() -> str:
    done = subprocess.run(
        [wine_loader() or "wine64", "--version"], capture_output=True, text=True, check=False
    )
    return done.stdout.strip() or "unknown"


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def template_prefix() -> Path:
    """The cached, initialised prefix for this Wine version (made once: ``wineboot -i``)."""
    slug = re.sub(r"[^A-Za-z0-9.]+", "-", wine_version()).strip("-")
    prefix = cache_dir() / f"prefix-{slug}"
    ready = prefix / ".dlldoctor-ready"
    with _locked(cache_dir() / "prefix.lock"):
        if ready.exists():
            return prefix
        building = prefix.with_name(prefix.name + ".building")
        shutil.rmtree(building, ignore_errors=True)
        env = _env(building, "-all")
        subprocess.run(
            [wine_loader() or "wine64", "wineboot", "-i"],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=True,
            timeout=600,
        )
        subprocess.run([wine_server() or "wineserver", "-k"], env=env, check=False, timeout=60)
        subprocess.run([wine_server() or "wineserver", "-w"], env=env, check=False, timeout=60)
        shutil.rmtree(prefix, ignore_errors=True)
        building.rename(prefix)
        ready.write_text(wine_version() + "\n")
    return prefix


def _copy_prefix(template: Path, dest: Path) -> None:
    """A private copy: the big DLL folders hard-linked (never written to), everything else copied."""
    linked = {template / "drive_c" / "windows" / name for name in ("system32", "syswow64")}

    def copy_tree(src: Path, dst: Path) -> None:
        dst.mkdir(parents=True, exist_ok=True)
        for item in src.iterdir():
            target = dst / item.name
            if item.is_symlink():
                target.symlink_to(item.readlink())
            elif item.is_dir():
                if item in linked:
                    shutil.copytree(item, target, symlinks=True, copy_function=os.link)
                else:
                    copy_tree(item, target)
            else:
                shutil.copy2(item, target)

    copy_tree(template, dest)


# ----- the harness build ------------------------------------------------------------------------------


def harness_build() -> Path:
    """The harness and its DLLs, built into the cache unless the same sources were built before."""
    spec = importlib.util.spec_from_file_location("dlldoctor_wine_harness_build", HARNESS_BUILD)
    assert spec is not None and spec.loader is not None
    harness_build_script = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = harness_build_script
    spec.loader.exec_module(harness_build_script)
    out = cache_dir() / f"harness-{harness_build_script.source_digest()}"
    with _locked(cache_dir() / "harness.lock"):
        if not (out / "harness.exe").exists():
            tmp = out.with_name(out.name + ".building")
            shutil.rmtree(tmp, ignore_errors=True)
            harness_build_script.build(tmp)
            tmp.rename(out)
            for stale in cache_dir().glob("harness-*"):
                if stale != out:
                    shutil.rmtree(stale, ignore_errors=True)
    return out


# ----- a harness run ------------------------------------------------------------------------------------


@dataclass
class OpRun:
    """What one harness operation did, from the harness's records and Wine's traces."""

    index: int
    kind: str
    arg: str
    outcome: str = ""  # ok, error, fallback-ok, fallback-error, exception, returned
    code: int | None = None  # the error code, the exception code or the returned value
    path: str | None = None  # the module the operation returned (Wine path)
    first_code: int | None = None  # torch: the code of the LoadLibraryExW attempt before the fallback
    modules: list[tuple[str, str]] = field(default_factory=list)  # (name, Wine path), newly loaded
    loaded: list[tuple[str, str]] = field(default_factory=list)  # (Wine path, native|builtin), traced
    unloaded: list[str] = field(default_factory=list)
    not_found: list[tuple[str, str]] = field(default_factory=list)  # (dll, importer path)
    failed: list[tuple[str, str, str]] = field(default_factory=list)  # (dll, importer, NTSTATUS)
    failures: list[str] = field(default_factory=list)  # the DLL names of both, in the order Wine saw them
    unresolved: list[tuple[str, str, str]] = field(default_factory=list)  # (dll, symbol, importer)

    @property
    def succeeded(self) -> bool:
        return self.outcome in ("ok", "fallback-ok", "returned")


@dataclass
class HarnessRun:
    ops: list[OpRun]
    stopped: bool
    done: bool
    output: str
    exit_code: int

    def op(self, index: int) -> OpRun:
        return self.ops[index]


_TRACE = re.compile(
    r"^(?P<pid>[0-9a-f]{4}):(?P<tid>[0-9a-f]{4}):(?P<cls>\w+):(?P<channel>\w+):(?P<func>\w+) (?P<text>.*)$"
)
_LOADED = re.compile(r'^Loaded L"(?P<path>.*)" at [0-9A-Fa-f]+: (?P<kind>native|builtin)')
_UNLOADED = re.compile(r'^Unloaded module L"(?P<path>.*)" : (?P<kind>native|builtin)')
_NOT_FOUND = re.compile(r'^Library (?P<dll>\S+) \(which is needed by L"(?P<importer>.*)"\) not found')
_FAILED = re.compile(
    r'^Loading library (?P<dll>\S+) \(which is needed by L"(?P<importer>.*)"\) failed \(error (?P<status>[0-9a-fA-F]+)\)'
)
_NO_IMPL = re.compile(
    r'^No implementation for (?P<dll>\S+)\.(?P<symbol>[^.\s]+) imported from L"(?P<importer>.*)", setting'
)


def parse(output: str, exit_code: int) -> HarnessRun:
    ops = [OpRun(0, "start", "")]
    pid = None
    stopped = done = False
    for line in output.splitlines():
        trace = _TRACE.match(line)
        if trace:
            if pid is None or trace["pid"] != pid:
                continue  # another process (Wine's own services)
            _trace(ops[-1], trace["channel"], trace["text"])
            continue
        words = line.split(" ", 3)
        if words[0] == "process":
            pid = words[1].lower()
        elif words[0] == "op":
            ops.append(OpRun(int(words[1]), words[2], words[3] if len(words) > 3 else ""))
        elif words[0] == "result":
            _result(ops[int(words[1])], words[2], words[3] if len(words) > 3 else "")
        elif words[0] == "module":
            name, _, path = (words[2] + " " + words[3]).partition(" ")
            ops[int(words[1])].modules.append((name, path))
        elif words[0] == "stopped":
            stopped = True
        elif words[0] == "done":
            done = True
    return HarnessRun(ops, stopped, done, output, exit_code)


def _result(op: OpRun, outcome: str, rest: str) -> None:
    if op.kind == "torch" and outcome in ("fallback-ok", "fallback-error"):
        op.first_code = op.code
    op.outcome = outcome
    if outcome in ("ok", "fallback-ok"):
        op.path = rest or None
        op.code = None
    elif outcome == "exception":
        op.code = int(rest, 16)
    elif outcome in ("error", "fallback-error", "returned"):
        op.code = int(rest)


def _trace(op: OpRun, channel: str, text: str) -> None:
    if channel == "loaddll":
        if m := _LOADED.match(text):
            op.loaded.append((wine_string(m["path"]), m["kind"]))
        elif m := _UNLOADED.match(text):
            op.unloaded.append(wine_string(m["path"]))
    elif channel == "module":
        if m := _NOT_FOUND.match(text):
            op.not_found.append((m["dll"], wine_string(m["importer"])))
            op.failures.append(m["dll"])
        elif m := _FAILED.match(text):
            op.failed.append((m["dll"], wine_string(m["importer"]), m["status"].lower()))
            op.failures.append(m["dll"])
        elif m := _NO_IMPL.match(text):
            op.unresolved.append((m["dll"], m["symbol"], wine_string(m["importer"])))


# ----- the session ------------------------------------------------------------------------------------


class WineSession:
    """A private prefix with a running wineserver, and the harness build."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.prefix = workdir / "prefix"
        self.build = harness_build()
        _copy_prefix(template_prefix(), self.prefix)
        self.system32 = self.prefix / "drive_c" / "windows" / "system32"
        self.wine_version = wine_version()
        self._warm_up()

    def _warm_up(self) -> None:
        """Start wineserver and Wine's services once, with no pipe for them to inherit."""
        env = _env(self.prefix, "-all")
        subprocess.run([wine_server() or "wineserver", "-p"], env=env, check=True, timeout=60)
        empty = self.workdir / "warm-up"
        empty.mkdir(exist_ok=True)
        shutil.copy(self.build / "harness.exe", empty / "harness.exe")
        subprocess.run(
            [wine_loader() or "wine64", to_wine(empty / "harness.exe")],
            env=env,
            cwd=empty,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
            timeout=RUN_TIMEOUT,
        )

    def close(self) -> None:
        env = _env(self.prefix, "-all")
        subprocess.run([wine_server() or "wineserver", "-k"], env=env, check=False, timeout=60)
        subprocess.run([wine_server() or "wineserver", "-w"], env=env, check=False, timeout=60)
        shutil.rmtree(self.prefix, ignore_errors=True)

    def unix_path(self, wine_path: str) -> str:
        """A path as Wine printed it, as a lower-case Unix path (Windows compares names case-blind)."""
        text = wine_path.replace("\\", "/")
        drive, _, rest = text.partition(":")
        if drive.lower() == "z":
            return str(PurePosixPath("/" + rest.lstrip("/"))).lower()
        if drive.lower() == "c":
            return str(PurePosixPath(str(self.prefix / "drive_c")) / rest.lstrip("/")).lower()
        return text.lower()

    def run(self, exe: Path, args: Sequence[str], cwd: Path, overrides: str = "") -> HarnessRun:
        env = _env(self.prefix, TRACE_CHANNELS, overrides)
        with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as out:
            process = subprocess.Popen(
                [wine_loader() or "wine64", to_wine(exe), *args],
                env=env,
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
            try:
                code = process.wait(timeout=RUN_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                raise
            out.seek(0)
            output = out.read()
        return parse(output, code)

    def run_program(self, exe: Path, cwd: Path, path_value: str) -> HarnessRun:
        """Start a fixture EXE itself (the "program start" context); PATH comes from WINEPATH."""
        env = _env(self.prefix, TRACE_CHANNELS)
        env["WINEPATH"] = path_value
        with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as out:
            process = subprocess.Popen(
                [wine_loader() or "wine64", to_wine(exe)],
                env=env,
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
            code = process.wait(timeout=RUN_TIMEOUT)
            out.seek(0)
            output = out.read()
        return _program_run(output, code)


def _program_run(output: str, exit_code: int) -> HarnessRun:
    """A program's traces, read as one operation: the pid is the one that loaded the EXE."""
    op = OpRun(1, "program", "")
    pid = None
    for line in output.splitlines():
        trace = _TRACE.match(line)
        if not trace:
            continue
        loaded = _LOADED.match(trace["text"]) if trace["channel"] == "loaddll" else None
        if (
            pid is None
            and loaded
            and loaded["path"].lower().endswith(".exe")
            and "\\windows\\" not in loaded["path"].lower()
        ):
            pid = trace["pid"]
        if trace["pid"] == pid:
            _trace(op, trace["channel"], trace["text"])
    if not op.not_found and not op.failed:
        op.modules = [(path.replace("\\", "/").rsplit("/", 1)[-1], path) for path, _kind in op.loaded]
    # The program's exit code is its own (a_func's value); a failed start shows in the traces.
    op.outcome = "error" if op.not_found or op.failed else "ok"
    op.code = (126 if op.not_found else exit_code) if op.outcome == "error" else None
    return HarnessRun([OpRun(0, "start", ""), op], False, True, output, exit_code)
