"""Parallel reading and scanning give exactly the serial results; the member reader equals zipfile."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import pytest

from dlldoctor.cache.pe_facts import Catalog
from dlldoctor.cli.progress import TerminalProgress, wants_display
from dlldoctor.diagnose.verdicts import DiagnoseWithRules
from dlldoctor.errors import InputError
from dlldoctor.install import zipmember
from dlldoctor.install.sources import open_target
from dlldoctor.install.zipmember import MemberReader
from dlldoctor.pe.compact import read_compact
from dlldoctor.pe.layout import DefectError
from dlldoctor.scan.batch import dumps_result, loads_result, scan_all
from dlldoctor.scan.result import ScanOptions
from dlldoctor.scan.target import scan_target

PY311 = ScanOptions(python="3.11")


def make_wheel(path: Path, pe_bin: Path, method: int = zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(path, "w", method) as archive:
        for file in sorted((pe_bin / "x64").iterdir()):
            archive.write(file, f"pkg/{file.name}")
        for file in sorted((pe_bin / "corrupt").iterdir()):
            archive.write(file, f"pkg/corrupt/{file.name}")
        archive.writestr("pkg/big.bin", os.urandom(1 << 16) * 64)  # not PE: never read
    return path


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED])
def test_member_reader_reads_what_zipfile_reads(method: int, pe_bin: Path, tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path / "w.whl", pe_bin, method)
    with zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            expected = archive.read(info)
            with MemberReader(wheel, info) as stream:
                assert stream.read() == expected
            with MemberReader(wheel, info) as stream:  # odd-sized reads and forward seeks
                got = stream.read(7)
                stream.seek(100, 1)
                got += stream.read(1000)
                stream.seek(5000)
                rest = stream.read()
                assert got == expected[:7] + expected[107:1107]
                assert rest == expected[5000:]
                assert stream.tell() == len(expected)  # at the end (a seek past it stops there)
                if expected:
                    with pytest.raises(OSError):
                        stream.seek(0)  # forward only


def test_compact_images_from_the_member_reader_equal_zipfile_ones(pe_bin: Path, tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path / "w.whl", pe_bin)
    with zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            if not info.filename.endswith(".dll") or "corrupt" in info.filename:
                continue
            with archive.open(info) as stream:
                expected = read_compact(stream, info.file_size)
            with MemberReader(wheel, info) as stream:
                assert read_compact(stream, info.file_size) == expected


def test_a_broken_deflate_stream_is_a_defect_not_a_crash(pe_bin: Path, tmp_path: Path) -> None:
    wheel = tmp_path / "broken-1.0-py3-none-win_amd64.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(pe_bin / "x64" / "versioned.dll", "broken/versioned.dll")
    data = bytearray(wheel.read_bytes())
    info = zipfile.ZipFile(wheel).getinfo("broken/versioned.dll")
    start = info.header_offset + 30 + len(info.filename)
    data[start : start + 64] = b"\xff" * 64  # garbage where the deflate stream starts
    wheel.write_bytes(bytes(data))
    (report,) = scan_target(str(wheel), PY311).files
    assert isinstance(report.facts, DefectError)


def test_the_stdlib_inflater_gives_the_same_bytes(pe_bin: Path, tmp_path: Path, monkeypatch) -> None:
    wheel = make_wheel(tmp_path / "w.whl", pe_bin)
    monkeypatch.setattr(zipmember, "INFLATER", zlib)
    with zipfile.ZipFile(wheel) as archive:
        info = archive.getinfo("pkg/versioned.dll")
        with MemberReader(wheel, info) as stream:
            assert stream.read() == archive.read(info)


def facts_of(target: str, threads: int) -> dict[str, object]:
    source = open_target(target)
    try:
        entries = list(source.entries())
        catalog = Catalog(threads=threads)
        catalog.prefetch(entries)
        return {e.relpath: _comparable(catalog.facts(e)) for e in entries}
    finally:
        source.close()


def _comparable(facts: object) -> object:
    return (facts.defect, str(facts)) if isinstance(facts, DefectError) else facts


def test_threads_read_the_same_facts_as_one_thread(pe_bin: Path, tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path / "w.whl", pe_bin)
    for target in (str(wheel), str(pe_bin)):
        assert facts_of(target, 4) == facts_of(target, 1)


def signature(result) -> list[tuple[object, ...]]:
    return sorted((f.kind, f.severity, f.file, f.dll, f.symbol, f.chain, f.context) for f in result.findings)


def test_scan_all_in_workers_equals_serial_scans_in_target_order(pe_bin: Path, tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path / "w-1.0-cp311-cp311-win_amd64.whl", pe_bin)
    targets = [str(pe_bin / "x64"), str(wheel), str(pe_bin / "corrupt"), str(pe_bin / "x64" / "app.exe")]
    serial = [scan_target(t, PY311) for t in targets]
    parallel = scan_all(targets, PY311, jobs=2, diagnose=DiagnoseWithRules())
    assert [r.target for r in parallel] == targets
    for mine, theirs in zip(parallel, serial, strict=True):
        assert signature(mine) == signature(theirs)
        assert [(f.entry.relpath, _comparable(f.facts)) for f in mine.files] == [
            (f.entry.relpath, _comparable(f.facts)) for f in theirs.files
        ]
    assert all(isinstance(r.diagnoses, list) for r in parallel)


def test_the_first_unreadable_target_raises_as_a_serial_scan_would(pe_bin: Path, tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        scan_all([str(pe_bin / "x64"), str(tmp_path / "missing.whl"), str(pe_bin / "corrupt")], PY311, jobs=2)


def test_a_result_survives_the_trip_from_a_worker(pe_bin: Path, tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path / "w-1.0-cp311-cp311-win_amd64.whl", pe_bin)
    result = scan_target(str(wheel), PY311)
    back = loads_result(dumps_result(result))
    assert signature(back) == signature(result)
    corrupt = [f for f in back.files if isinstance(f.facts, DefectError)]
    assert corrupt and all(f.facts.defect for f in corrupt)  # type: ignore[union-attr]
    entry = back.files[0].entry
    with pytest.raises((ValueError, OSError)):  # the wheel was closed after its scan, as before the trip
        entry.open()


def test_cli_batch_with_jobs_equals_jobs_1(pe_bin: Path, tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path / "w-1.0-cp311-cp311-win_amd64.whl", pe_bin)
    targets = [str(pe_bin / "x64"), str(wheel), str(pe_bin / "corrupt")]

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "dlldoctor",
                "scan",
                *targets,
                "--python",
                "3.11",
                "--format",
                "json",
                "--no-cache",
                *extra,
            ],
            capture_output=True,
            text=True,
            check=False,
        )

    one, many = run("--jobs", "1"), run("--jobs", "3")
    assert one.returncode == many.returncode == 1
    assert one.stdout == many.stdout
    assert many.stderr == ""  # stderr is a pipe: no progress bar
    bad = run("--jobs", "0")
    assert bad.returncode == 2 and "must be 1 or more" in bad.stderr


class _FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_is_for_people_only() -> None:
    assert not wants_display(io.StringIO(), quiet=False)
    assert not wants_display(_FakeTerminal(), quiet=True)
    assert wants_display(_FakeTerminal(), quiet=False)


def test_the_progress_bar_waits_a_second_before_showing() -> None:
    stream = _FakeTerminal()
    with TerminalProgress("reading", stream=stream, show_after=60) as bar:
        bar.add_total(10)
        bar.advance(10)
    assert not bar.shown and stream.getvalue() == ""
    with TerminalProgress("reading", stream=stream, show_after=0) as bar:
        bar.add_total(10)
        for _ in range(50):
            if bar.shown:
                break
            import time

            time.sleep(0.02)
        bar.advance(10)
    assert bar.shown
