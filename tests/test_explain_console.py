"""``explain`` at a terminal: a paste read up to an empty line or Ctrl-D; the clipboard option."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys

import pytest

PASTE = (
    "Traceback (most recent call last):\n"
    '  File "<stdin>", line 1, in <module>\n'
    "OSError: [WinError 126] 找不到指定的模块。 Error loading "
    '"C:\\Python311\\Lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.\n'
)


def at_a_terminal(typed: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    """``dlldoctor explain`` (``--format json`` unless other ``args`` are given) with a terminal as its
    standard input, ``typed`` typed into it."""
    master, slave = pty.openpty()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "dlldoctor", "explain", *(args or ("--format", "json"))],
            stdin=slave,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        os.write(master, typed)
        out, err = process.communicate(timeout=60)
    finally:
        os.close(master)
        os.close(slave)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


@pytest.mark.parametrize("end", [b"\n", b"\x04"], ids=["empty line", "ctrl-d"])
def test_a_paste_ends_at_an_empty_line_or_ctrl_d(end: bytes) -> None:
    done = at_a_terminal(b"\n" + PASTE.encode("utf-8") + end + b"ignored after the end\n\x04")
    assert done.returncode == 1, done.stderr
    assert done.stderr.decode().startswith("Paste the error, then an empty line")
    facts = json.loads(done.stdout)["facts"]
    assert (facts["error_code"], facts["dll"], facts["language"]) == (126, "c10.dll", "zh-CN")


def test_the_clipboard_outside_windows_is_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dlldoctor", "explain", "--clipboard"], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert (
        done.stderr
        == "dlldoctor: error: --clipboard reads the Windows clipboard, and it holds no text here\n"
    )


def test_one_source_of_text_at_a_time(tmp_path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dlldoctor", "explain", "--clipboard", "--file", str(tmp_path / "x")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert (
        done.stderr == "dlldoctor: error: give the error text one way only, not with --file and --clipboard\n"
    )
