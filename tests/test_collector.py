"""The collector: one file, standard library only, Python 3.8 syntax, and its child steps really run."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dlldoctor.cli.collector import source
from dlldoctor.platform import collect

FILE = Path(collect.__file__)


def test_the_collector_parses_as_python_3_8() -> None:
    ast.parse(FILE.read_text(encoding="utf-8"), feature_version=(3, 8))


def interpreters() -> dict[tuple[int, int], str]:
    """Every Python 3 on this machine that really runs, by version (PATH, then pyenv's versions)."""
    candidates = [shutil.which(f"python3.{minor}") for minor in range(8, 20)]
    candidates += [str(p) for p in sorted(Path.home().glob(".pyenv/versions/3.*/bin/python3"))]
    found: dict[tuple[int, int], str] = {}
    for candidate in filter(None, candidates):
        done = subprocess.run(
            [candidate, "-c", "import sys; print(*sys.version_info[:2])"], capture_output=True, text=True
        )
        if done.returncode == 0:
            major, minor = map(int, done.stdout.split())
            found.setdefault((major, minor), candidate)
    return found


def oldest_python() -> str:
    """The oldest Python >= 3.8 here (the collector promises 3.8; pyenv may also hold 2.7 or 3.6)."""
    found = {v: p for v, p in interpreters().items() if v >= (3, 8)}
    return found[min(found)] if found else sys.executable


def test_the_oldest_python_here_compiles_it(tmp_path: Path) -> None:
    copy = tmp_path / "collect.py"
    copy.write_text(source(), encoding="utf-8")
    done = subprocess.run([oldest_python(), "-m", "py_compile", str(copy)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_it_imports_only_the_standard_library() -> None:
    tree = ast.parse(FILE.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "a relative import would need the package"
            names.add((node.module or "").split(".")[0])
    assert names - set(sys.stdlib_module_names) == set()
    assert "winreg" in names and "ctypes" in names  # the Windows side is really in this file


def test_dlldoctor_collector_prints_the_file_itself() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dlldoctor", "collector"], capture_output=True, text=True, check=True
    )
    assert done.stdout == FILE.read_text(encoding="utf-8")


def run_saved(
    tmp_path: Path, *args: str, stdin: str = "", python: str = sys.executable
) -> subprocess.CompletedProcess[str]:
    saved = tmp_path / "collect.py"
    saved.write_text(source(), encoding="utf-8")
    return subprocess.run(
        [python, "-I", str(saved), *args], input=stdin, capture_output=True, text=True, cwd=tmp_path
    )


def test_outside_windows_it_says_where_to_run_in_one_line(tmp_path: Path) -> None:
    done = run_saved(tmp_path, "torch")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "collect.py: run this on the Windows machine where the import fails\n"


def test_the_child_steps_run_alone_in_the_oldest_interpreter(tmp_path: Path) -> None:
    """What Win32.run_child starts: ``python collect.py --child STEP`` with JSON on stdin."""
    python = oldest_python()

    def step(name: str, data: str) -> dict:
        out = run_saved(tmp_path, "--child", name, stdin=data, python=python).stdout
        return json.loads(out.split(collect.ANSWER)[-1])

    found = step("interpreter", '{"modules": ["json"]}')
    version = subprocess.run([python, "-c", "import sys, json; print(sys.version.split()[0], json.__file__)"],
                             capture_output=True, text=True, check=True).stdout.split()  # fmt: skip
    assert found["version"] == version[0]
    assert found["packages"] == {"json": str(Path(version[1]).parent)}
    assert found["kind"] in ("python.org", "venv")
    ok = step("reproduce", '{"module": "json"}')
    assert ok == {"module": "json", "ok": True, "error_type": None, "text": "", "winerror": None}
    bad = step("reproduce", '{"module": "no_such_mod"}')
    assert (bad["ok"], bad["error_type"], bad["text"]) == (
        False,
        "ModuleNotFoundError",
        "ModuleNotFoundError: No module named 'no_such_mod'",
    )


def test_its_own_import_reader_agrees_with_dlldoctors(pe_bin: Path) -> None:
    from dlldoctor.pe.read import read_pe

    for path in sorted((pe_bin / "x64").iterdir()):
        with path.open("rb") as stream:
            image = read_pe(stream, path.stat().st_size)
        expected = {i.dll: list(i.names) for i in image.imports if not i.delayed}
        assert collect.pe_imports(str(path)) == expected, path.name
    assert collect.pe_imports(str(pe_bin / "corrupt" / "zero.dll")) == {}


def test_nvidia_driver_version_from_nvcuda_file_version() -> None:
    assert collect.nvidia_driver("32.0.15.6094") == "560.94"
    assert collect.nvidia_driver("31.0.15.3623") == "536.23"
    assert collect.nvidia_driver("not a version") is None


def test_redaction_masks_in_any_case_and_keeps_the_rest() -> None:
    env = {"USERPROFILE": "C:\\Users\\Alice", "USERNAME": "Alice"}
    data = {"a": ["c:\\users\\alice\\x.dll", "by Alice"], "C:\\Users\\Alice": 3, "n": 1}
    assert collect.redact(data, env) == {"a": ["<home>\\x.dll", "by <user>"], "<home>": 3, "n": 1}


def test_what_an_import_prints_does_not_spoil_the_answer(tmp_path: Path) -> None:
    """A package that prints on import (to stdout, or to the C-level stream) comes before the answer."""
    (tmp_path / "chatty.py").write_text("import os\nprint('hello')\nos.write(1, b'{not json\\n')\n")
    saved = tmp_path / "tool"
    saved.mkdir()
    (saved / "collect.py").write_text(source(), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(saved / "collect.py"), "--child", "reproduce"],
        input='{"module": "chatty"}', capture_output=True, text=True, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
    )  # fmt: skip
    before, _, answer = done.stdout.rpartition(collect.ANSWER)
    assert "{not json" in before and "hello" not in before  # print() went to stderr, the raw write stayed
    assert json.loads(answer)["ok"] is True and "hello" in done.stderr


def test_the_collectors_folder_never_shadows_an_import(tmp_path: Path) -> None:
    saved = tmp_path / "tool"
    saved.mkdir()
    (saved / "collect.py").write_text(source(), encoding="utf-8")
    (saved / "json_helper_x.py").write_text("raise SystemExit('imported from the collector folder')\n")
    done = subprocess.run(
        [sys.executable, str(saved / "collect.py"), "--child", "reproduce"],
        input='{"module": "json_helper_x"}', capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    answer = json.loads(done.stdout.rpartition(collect.ANSWER)[2])
    assert (answer["ok"], answer["error_type"]) == (False, "ModuleNotFoundError")


def test_it_is_ascii_and_out_writes_it_whole(tmp_path: Path) -> None:
    """ASCII bytes, whatever the console's code page; --out because PowerShell 5.1's `>` writes UTF-16."""
    text = FILE.read_text(encoding="utf-8")
    assert text.isascii()
    out = tmp_path / "collect.py"
    done = subprocess.run(
        [sys.executable, "-m", "dlldoctor", "collector", "--out", str(out)], capture_output=True, text=True
    )
    assert (done.returncode, done.stdout) == (0, "")
    assert out.read_bytes() == text.encode("ascii")
    bad = subprocess.run(
        [sys.executable, "-m", "dlldoctor", "collector", "--out", str(tmp_path / "no" / "x.py")],
        capture_output=True, text=True,
    )  # fmt: skip
    assert (
        bad.returncode == 2
        and bad.stderr.startswith("dlldoctor: error: --out ")
        and len(bad.stderr.splitlines()) == 1
    )


def test_collector_as_json_is_the_same_file_with_its_digest(capsys: pytest.CaptureFixture[str]) -> None:
    import hashlib

    from dlldoctor.cli import main

    assert main(["collector"]) == 0
    text = capsys.readouterr().out
    assert main(["collector", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["version"] == 1 and data["name"] == "collect.py"
    assert data["source"].rstrip("\n") == text.rstrip("\n")
    assert data["sha256"] == hashlib.sha256(data["source"].encode("ascii")).hexdigest()
