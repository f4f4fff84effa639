"""A scan's whole answer is remembered by everything it depends on, and trusted only when it is the user's.

Each test runs `dlldoctor scan` as a user does, in a cache folder of its own, and tells a remembered
answer from a fresh scan by a marker only the cache could hold.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dlldoctor.cache import answers

MARK = "remembered answer, not a scan\n"


def scan(cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dlldoctor", "scan", *args, "--python", "3.11", "-q"],
        capture_output=True,
        text=True,
        env={**os.environ, "DLLDOCTOR_CACHE_DIR": str(cache), "NO_COLOR": "1"},
        check=False,
    )


def entries(cache: Path) -> list[Path]:
    return sorted(cache.glob("answer-*.txt"))


def mark(entry: Path) -> None:
    """Replace the remembered text by the marker, keeping the header (key and status)."""
    head = entry.read_bytes().split(b"\n\n", 1)[0]
    entry.write_bytes(head + b"\n\n" + MARK.encode())


@pytest.fixture
def broken(pe_bin: Path, tmp_path: Path) -> Path:
    """A DLL whose import is missing: the scan says so and exits 1."""
    target = tmp_path / "target" / "needs_missing.dll"
    target.parent.mkdir()
    shutil.copy(pe_bin / "x64" / "needs_missing.dll", target)
    return target


def test_a_second_scan_gives_the_first_answer_without_scanning(broken: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = scan(cache, str(broken))
    assert first.returncode == 1 and "missing" in first.stdout
    second = scan(cache, str(broken))
    assert (second.returncode, second.stdout, second.stderr) == (1, first.stdout, "")
    [entry] = entries(cache)
    assert entry.stat().st_mode & 0o777 == 0o600
    mark(entry)
    assert scan(cache, str(broken)).stdout == MARK  # the answer came from the entry
    assert scan(cache, str(broken), "--format", "json").stdout.startswith("{")  # another shape: a scan


def test_a_changed_target_is_scanned_again(broken: Path, pe_bin: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert scan(cache, str(broken)).returncode == 1
    mark(entries(cache)[0])
    shutil.copy(pe_bin / "x64" / "chain_c.dll", broken)  # same name, healthy content
    again = scan(cache, str(broken))
    assert again.returncode == 0 and again.stdout != MARK


def test_a_changed_rule_set_is_scanned_again(broken: Path, tmp_path: Path) -> None:
    from dlldoctor.resources import rules_root

    rules = tmp_path / "rules"
    shutil.copytree(rules_root(), rules)
    cache = tmp_path / "cache"
    assert scan(cache, str(broken), "--rules", str(rules)).returncode == 1
    mark(entries(cache)[0])
    assert scan(cache, str(broken), "--rules", str(rules)).stdout == MARK
    rule = next((rules / "vcredist-missing").glob("*.yaml"))
    rule.write_text(rule.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert scan(cache, str(broken), "--rules", str(rules)).stdout != MARK


def test_nothing_is_remembered_for_folders_option_folders_or_no_cache(
    broken: Path, pe_bin: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    assert scan(cache, str(broken.parent)).returncode == 1  # a folder can change inside unseen
    assert scan(cache, str(broken), "--path", str(pe_bin / "x64")).stdout  # its contents are not in a key
    assert scan(cache, str(broken), "--no-cache").returncode == 1
    assert entries(cache) == []


@pytest.mark.skipif(os.name != "posix", reason="file modes")
def test_an_entry_others_could_have_written_is_not_read(broken: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = scan(cache, str(broken))
    [entry] = entries(cache)
    mark(entry)
    entry.chmod(0o620)  # group-writable: planted, for all we know
    assert scan(cache, str(broken)).stdout == first.stdout


def test_a_damaged_entry_is_a_miss(broken: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = scan(cache, str(broken))
    [entry] = entries(cache)
    for damaged in (b"", b"dlldoctor answer 1\nkey nonsense\nstatus 0\n\n" + MARK.encode(), b"\xff" * 64):
        entry.write_bytes(damaged)
        again = scan(cache, str(broken))
        assert (again.returncode, again.stdout) == (1, first.stdout)


def test_keys_differ_by_target_settings_and_identity(broken: Path, tmp_path: Path) -> None:
    base = answers.answer_key([str(broken)], {"format": "text"})
    assert base is not None and base == answers.answer_key([str(broken)], {"format": "text"})
    assert answers.answer_key([str(broken)], {"format": "json"}) != base
    assert answers.answer_key([str(tmp_path / "missing.dll")], {"format": "text"}) is None
    assert answers.answer_key([str(broken.parent)], {"format": "text"}) is None
    os.utime(broken, ns=(1, 1))
    assert answers.answer_key([str(broken)], {"format": "text"}) != base
