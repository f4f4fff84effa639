"""A big wheel member inflated by a child process (dlldoctor.cache.offload) gives exactly the facts, defects
and answers that reading it in the scanning process gives, and a child that fails changes nothing."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from dlldoctor.cache import offload, pe_facts
from dlldoctor.cache.pe_facts import Catalog, _read
from dlldoctor.install.sources import Entry, open_target
from dlldoctor.install.zipmember import largest_possible
from dlldoctor.pe.model import PEImage
from dlldoctor.scan.options import ScanOptions
from dlldoctor.scan.target import scan_target

PY311 = ScanOptions(python="3.11")
CPU = "torch/lib/torch_cpu.dll"


def _entry(wheel: Path, relpath: str) -> Entry:
    source = open_target(str(wheel))
    return next(e for e in source.entries() if e.relpath == relpath)


def _findings(result: object) -> list[tuple[str, str, str, str | None, str]]:
    return [(f.kind, f.severity, f.file, f.dll, f.message) for f in result.findings]  # type: ignore[attr-defined]


def _same(facts: object) -> object:
    """Facts compare as they are; a defect (an exception) by its kind and words."""
    return (
        facts
        if isinstance(facts, PEImage)
        else (type(facts).__name__, getattr(facts, "defect", None), str(facts))
    )


def test_a_child_reads_torch_cpu_as_this_process_does(torch_wheel: Path) -> None:
    entry = _entry(torch_wheel, CPU)
    info = entry.origin.zip.getinfo(CPU)  # type: ignore[attr-defined]
    assert offload.worthwhile(info)
    done = offload.read_elsewhere(torch_wheel, info, largest_possible(info))
    assert done is not None
    head, image, crc_ok = done
    assert crc_ok and head[:2] == b"MZ"
    here = _read(entry, elsewhere=False)
    there = pe_facts._from_child(head, image, crc_ok, largest_possible(info))
    assert isinstance(here, PEImage)
    assert there == here
    assert len(here.exports) > 50_000  # the real table, not an empty one on both sides


def test_the_child_started_ahead_is_the_one_that_answers(
    torch_wheel: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spawned: list[dict[str, object]] = []
    real_spawn = offload._spawn

    def spy(request: dict[str, object]) -> subprocess.Popen[bytes] | None:
        spawned.append(request)
        return real_spawn(request)

    monkeypatch.setattr(offload, "_spawn", spy)
    offload.read_ahead(torch_wheel)
    assert [sorted(r) for r in spawned] == [["archive", "largest"]]
    c10 = _entry(torch_wheel, "torch/lib/c10.dll")
    info = c10.origin.zip.getinfo(c10.relpath)  # type: ignore[attr-defined]
    assert offload.read_elsewhere(torch_wheel, info, largest_possible(info)) is not None
    assert len(spawned) == 2  # c10.dll is not the member the first child took: a child of its own
    cpu = _entry(torch_wheel, CPU)
    info = cpu.origin.zip.getinfo(CPU)  # type: ignore[attr-defined]
    done = offload.read_elsewhere(torch_wheel, info, largest_possible(info))
    assert done is not None and done[2]
    assert len(spawned) == 2  # torch_cpu.dll came from the child started ahead


def test_a_child_nobody_claims_is_stopped(torch_wheel: Path) -> None:
    offload.read_ahead(torch_wheel)
    children = [child for child, _ in offload._AHEAD._children.values()]
    assert len(children) == 1
    offload._AHEAD.stop_all()
    assert children[0].poll() is not None
    assert offload._AHEAD._children == {}


def _count_deliveries(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each child asked for a member delivered it, in order."""
    delivered: list[bool] = []
    real = offload.read_elsewhere

    def spy(*args: object) -> tuple[bytes, bytes, bool] | None:
        done = real(*args)  # type: ignore[arg-type]
        delivered.append(done is not None)
        return done

    monkeypatch.setattr(offload, "read_elsewhere", spy)
    return delivered


def _wheel_with(tmp_path: Path, pe_bin: Path, damage: str) -> Path:
    path = tmp_path / f"demo{damage}-1.0-cp311-cp311-win_amd64.whl"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(pe_bin / "x64" / "chain_c.dll", "demo/chain_c.dll")
    data = bytearray(path.read_bytes())
    if damage == "crc":
        for magic, at in ((b"PK\x03\x04", 14), (b"PK\x01\x02", 16)):
            offset = data.find(magic) + at
            struct.pack_into("<I", data, offset, struct.unpack_from("<I", data, offset)[0] ^ 1)
    elif damage == "deflate":  # garbage in the middle of the compressed bytes
        start = data.find(b"PK\x03\x04") + 30 + len("demo/chain_c.dll")
        data[start + 40 : start + 200] = bytes(range(160))
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("damage", ["none", "crc", "deflate"])
def test_a_member_read_elsewhere_has_the_same_facts_or_defect(
    damage: str, pe_bin: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _wheel_with(tmp_path, pe_bin, damage)
    monkeypatch.setenv("DLLDOCTOR_OFFLOAD", "0")
    alone = scan_target(str(path), PY311, Catalog(threads=2))
    monkeypatch.setenv("DLLDOCTOR_OFFLOAD", "1")
    monkeypatch.setattr(offload, "MIN_SIZE", 0)
    delivered = _count_deliveries(monkeypatch)
    elsewhere = scan_target(str(path), PY311, Catalog(threads=2))
    assert _findings(elsewhere) == _findings(alone)
    assert [_same(r.facts) for r in elsewhere.files] == [_same(r.facts) for r in alone.files]
    # A sound member and a bad CRC-32 come from the child; a broken deflate stream makes it fail, and the
    # member is read here, where the defect is named as always.
    assert delivered == [damage != "deflate"]
    expected = {"none": [], "crc": ["corrupt-file"], "deflate": ["corrupt-file"]}[damage]
    assert [f.kind for f in alone.findings if f.severity == "error"] == expected


def test_a_child_that_cannot_start_leaves_the_reading_here(
    pe_bin: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _wheel_with(tmp_path, pe_bin, "none")
    monkeypatch.setattr(offload, "MIN_SIZE", 0)
    monkeypatch.setattr(offload.sys, "executable", str(tmp_path / "no-such-python"))
    entry = _entry(path, "demo/chain_c.dll")
    info = entry.origin.zip.getinfo(entry.relpath)  # type: ignore[attr-defined]
    assert offload.read_elsewhere(path, info, largest_possible(info)) is None
    facts = _read(entry, elsewhere=True)
    assert isinstance(facts, PEImage) and facts == _read(entry, elsewhere=False)


def test_the_whole_answer_is_the_same_with_and_without_a_child(torch_wheel: Path, tmp_path: Path) -> None:
    outputs = []
    for setting in ("0", "1"):
        env = {**os.environ, "DLLDOCTOR_OFFLOAD": setting, "NO_COLOR": "1"}
        command = [sys.executable, "-m", "dlldoctor", "scan", str(torch_wheel), "--format", "json", "-q"]
        command += ["--cache-dir", str(tmp_path / f"cache{setting}")]
        done = subprocess.run(command, capture_output=True, env=env, timeout=300)
        assert done.returncode == 0, done.stderr.decode()
        outputs.append(done.stdout.replace(str(tmp_path / f"cache{setting}").encode(), b"CACHE"))
    assert outputs[0] == outputs[1]
    assert b"torch_cpu.dll" in outputs[0]


def test_a_member_past_the_threshold_goes_to_a_child_on_its_own(
    pe_bin: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No threshold lowered: a real DLL with 70 MiB of zeros after it (an overlay) is big enough."""
    path = tmp_path / "padded-1.0-cp311-cp311-win_amd64.whl"
    data = (pe_bin / "x64" / "chain_c.dll").read_bytes() + bytes(70 << 20)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("padded/chain_c.dll", data)
    assert path.stat().st_size < 1 << 20
    delivered = _count_deliveries(monkeypatch)
    elsewhere = scan_target(str(path), PY311, Catalog(threads=2))
    alone = scan_target(str(path), PY311, Catalog(threads=1))  # one thread: never a child
    assert delivered == [True]
    assert [_same(r.facts) for r in elsewhere.files] == [_same(r.facts) for r in alone.files]
    assert isinstance(alone.files[0].facts, PEImage)
    assert _findings(elsewhere) == _findings(alone)


@pytest.mark.parametrize(
    ("executable", "frozen", "setting", "expected"),
    [
        ("/usr/bin/python3.11", False, None, True),
        ("C:\\env\\Scripts\\python.exe", False, None, True),
        ("C:\\Program Files\\Blender\\blender.exe", False, None, False),  # Python embedded in a program
        ("C:\\app\\tool.exe", True, None, False),  # a frozen application
        ("/usr/bin/python3.11", False, "0", False),
        ("", False, None, False),
    ],
)
def test_a_child_is_started_only_by_an_interpreter_of_its_own(
    executable: str, frozen: bool, setting: str | None, expected: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(offload.sys, "executable", executable)
    if frozen:
        monkeypatch.setattr(offload.sys, "frozen", True, raising=False)
    if setting is None:
        monkeypatch.delenv("DLLDOCTOR_OFFLOAD", raising=False)
    else:
        monkeypatch.setenv("DLLDOCTOR_OFFLOAD", setting)
    assert offload.enabled() is expected


def test_the_child_never_imports_from_the_folder_it_runs_in(
    torch_wheel: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stray zipfile.py or json.py in the user's current folder (a Downloads folder, say) is not run."""
    marker = tmp_path / "ran"
    for name in ("zipfile", "json", "struct"):
        (tmp_path / f"{name}.py").write_text(f"open({str(marker)!r}, 'a').write({name!r})\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    entry = _entry(torch_wheel, "torch/lib/c10.dll")
    info = entry.origin.zip.getinfo(entry.relpath)  # type: ignore[attr-defined]
    assert offload.read_elsewhere(torch_wheel, info, largest_possible(info)) is not None
    assert not marker.exists()
