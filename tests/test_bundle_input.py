"""A bundle is a stranger's file: every bad one is refused in one line, exit 2, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

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
    return subprocess.run(
        [sys.executable, "-m", "dlldoctor", *args], capture_output=True, text=True, check=False
    )


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
        (b"\xff\xfe\x00garbage", "not a bundle: not UTF-8 text"),
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


def test_bundle_goes_alone(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    done = run("explain", "--bundle", str(path), "some text")
    assert done.returncode == 2 and "--bundle brings its own error text" in done.stderr
