"""A bundle is a stranger's file: every bad one is refused in one line, exit 2, never a traceback."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from clirun import run_dlldoctor

GOOD = {
    "version": 1,
    "kind": "dlldoctor-bundle",
    "python": "C:\\Python311\\python.exe",
    "reproduced": [
        {
            "module": "torch",
            "ok": False,
            "error_type": "OSError",
            "text": 'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\Python311\\Lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.',
            "winerror": 126,
        }
    ],
    "facts": {"interpreter": {"version": "3.11.7"}, "path": [], "system_dir": "C:\\Windows\\System32"},
    "probes": [],
}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_dlldoctor(*args)


def test_a_bundle_without_a_scan_is_explained_from_its_text(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    done = run("explain", "--bundle", str(path), "--format", "json")
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["diagnosis"] == {
        "rule_id": "torch-import-126-vcredist",
        "category": "vcredist-missing",
        "source": "text",
        "confirmed": False,
    }
    shown = run("scan", "--bundle", str(path))
    assert shown.stdout.splitlines()[0].startswith("The bundle holds no scan")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "not a bundle: invalid JSON"),
        (b"\x80garbage", "not a bundle: not UTF-8 or UTF-16 text"),
        (b"\xff\xfe\x00\xd8", "not a bundle: not UTF-8 or UTF-16 text"),
        (b"[" * 100000 + b"]" * 100000, "not a bundle: JSON nested too deeply"),
        (b'{"version": 1}', "not a dlldoctor bundle: at the top level: 'kind' is a required property"),
        (json.dumps({**GOOD, "version": 7}).encode(), "bundle version 7 is newer than this dlldoctor reads (1)"),
        (json.dumps({**GOOD, "probes": [{"module": "x", "calls": [{"path": 1, "code": 126}]}]}).encode(),
         "not a dlldoctor bundle: at probes/0/calls/0/path: 1 is not of type 'string'"),
    ],
)  # fmt: skip
def test_bad_bundles_are_one_line(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "b.json"
    path.write_bytes(content)
    for command in ("explain", "scan"):
        done = run(command, "--bundle", str(path))
        assert done.returncode == 2 and done.stdout == ""
        assert len(done.stderr.splitlines()) == 1 and message in done.stderr, done.stderr


def test_a_missing_a_huge_and_a_fifo_bundle_are_refused(tmp_path: Path) -> None:
    import os

    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(33 << 20)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path, message in (
        (tmp_path / "none.json", "cannot read the bundle: No such file or directory"),
        (huge, "bundle not read:"),
        (fifo, "bundle not read: a FIFO (named pipe), not a regular file"),
    ):
        done = run("explain", "--bundle", str(path))
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and message in done.stderr, (
            done.stderr
        )


def test_a_bundle_redirected_by_powershell_5_is_read(tmp_path: Path) -> None:
    """`dlldoctor doctor --format json > b.json` in PowerShell 5.1 writes UTF-16 with a BOM."""
    path = tmp_path / "b.json"
    path.write_bytes(json.dumps(GOOD, ensure_ascii=False).encode("utf-16"))
    done = run("explain", "--bundle", str(path), "--format", "json")
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["diagnosis"]["category"] == "vcredist-missing"


def test_bundle_goes_alone(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    done = run("explain", "--bundle", str(path), "some text")
    assert done.returncode == 2 and "--bundle brings its own error text" in done.stderr


RICH = {
    **GOOD,
    "tool": {"name": "dlldoctor", "version": 1},
    "redacted": True,
    "probes": [
        {
            "module": "torch",
            "source": "scan",
            "dirs": ["C:\\x\\torch\\lib"],
            "calls": [
                {"path": "C:\\x\\torch\\lib\\c10.dll", "flags": 4352, "code": 0, "bound": "C:\\x\\torch\\lib\\c10.dll"},
                {"path": "C:\\x\\torch\\lib\\torch_cpu.dll", "flags": 4352, "code": 127, "missing_name": "f",
                 "in_dll": "c10.dll", "dll_bound": "C:\\x\\torch\\lib\\c10.dll"},
            ],
        }
    ],
    "scan": {
        "target": "C:\\x",
        "findings": [{"kind": "missing-symbol", "message": "c10.dll lacks f"}],
        "diagnoses": [{"rule_id": "torch-lib-procedure-not-found", "category": "mixed-install", "severity": "error",
                       "evidence": ["c10.dll lacks f"]}],
        "assumptions": [],
    },
    "diagnosis": {"rule_id": None, "category": None, "source": "none", "confirmed": False},
}  # fmt: skip


def _leaves(value: object, path: tuple = ()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))
    yield path


def _with(value: object, path: tuple, new: object) -> object:
    if not path:
        return new
    copy = json.loads(json.dumps(value))
    holder = copy
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = new
    return copy


def test_any_value_of_any_type_anywhere_is_an_answer_or_one_line(tmp_path: Path, capsys) -> None:
    """Every field of a full bundle swapped for a value of another type: exit 0, 1 or 2, never a crash."""
    from dlldoctor.cli import main

    path = tmp_path / "b.json"
    statuses = set()
    for where in _leaves(RICH):
        for new in (None, 7, "x" * 3, [], {}, [{}], -1):
            path.write_text(json.dumps(_with(RICH, where, new)), encoding="utf-8")
            for command in ("explain", "scan"):
                statuses.add(main([command, "--bundle", str(path), "--format", "markdown"]))
                out = capsys.readouterr()
                assert len(out.err.splitlines()) <= 1, (where, new, out.err)
    assert {1, 2} <= statuses <= {0, 1, 2}
