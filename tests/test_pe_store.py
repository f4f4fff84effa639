"""The cache of PE facts: equal facts back, changed files re-read, damaged files rebuilt, safe to share."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import sqlite3
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from dlldoctor.cache import pe_store as factcache
from dlldoctor.cache.pe_facts import Catalog
from dlldoctor.cache.pe_store import FILE_NAME, FactCache, decode, encode
from dlldoctor.install.sources import open_target
from dlldoctor.pe.layout import DefectError
from dlldoctor.pe.model import PEImage
from dlldoctor.scan.result import ScanOptions
from dlldoctor.scan.target import scan_target

PY311 = ScanOptions(python="3.11")
HOUR_AGO = time.time() - 3600


def settled_copy(src: Path, dest: Path) -> Path:
    """A copy of a folder whose files look installed long ago (the cache skips just-written files)."""
    shutil.copytree(src, dest)
    for path in dest.rglob("*"):
        os.utime(path, (HOUR_AGO, HOUR_AGO))
    return dest


def read_all(target: str, cache: FactCache | None) -> dict[str, PEImage | DefectError]:
    source = open_target(target)
    try:
        entries = list(source.entries())
        with Catalog(cache, threads=2) as catalog:
            catalog.prefetch(entries)
            return {e.relpath: catalog.facts(e) for e in entries}
    finally:
        source.close()


def same(a: PEImage | DefectError, b: PEImage | DefectError) -> bool:
    if isinstance(a, DefectError) or isinstance(b, DefectError):
        return type(a) is type(b) and (a.defect, str(a)) == (b.defect, str(b))  # type: ignore[union-attr]
    return a == b


def test_cached_facts_equal_parsed_facts_for_every_fixture(pe_bin: Path, tmp_path: Path) -> None:
    tree = settled_copy(pe_bin, tmp_path / "bin")
    fresh = read_all(str(tree), None)
    assert any(
        isinstance(f, DefectError) for f in fresh.values()
    )  # the corrupt fixtures: defects are cached too
    with FactCache.open(tmp_path / "cache") as cache:  # type: ignore[union-attr]
        first = read_all(str(tree), cache)
        assert cache.stored == len(fresh) and cache.hits == 0
    with FactCache.open(tmp_path / "cache") as cache:  # type: ignore[union-attr]
        second = read_all(str(tree), cache)
        assert cache.hits == len(fresh) and cache.stored == 0
    for relpath, facts in fresh.items():
        assert same(first[relpath], facts), relpath
        assert same(second[relpath], facts), relpath


def test_wheel_members_are_keyed_by_name_crc_and_size(pe_bin: Path, tmp_path: Path) -> None:
    wheel = tmp_path / "w-1.0-py3-none-win_amd64.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(pe_bin / "x64" / "chain_a.dll", "w/chain_a.dll")
        archive.write(pe_bin / "x64" / "versioned.dll", "w/versioned.dll")
    with FactCache.open(tmp_path / "cache") as cache:  # type: ignore[union-attr]
        first = read_all(str(wheel), cache)
    # Another copy of the same wheel elsewhere: same members, so every fact comes from the cache.
    other = tmp_path / "elsewhere" / wheel.name
    other.parent.mkdir()
    shutil.copy(wheel, other)
    with FactCache.open(tmp_path / "cache") as cache:  # type: ignore[union-attr]
        assert read_all(str(other), cache) == first
        assert cache.hits == 2
    keys = [key for key, _tag in factcache.iter_rows(tmp_path / "cache" / FILE_NAME)]
    info = zipfile.ZipFile(wheel).getinfo("w/chain_a.dll")
    assert factcache.zip_key("w/chain_a.dll", info.CRC, info.file_size) in keys


def test_a_changed_file_is_read_again(pe_bin: Path, tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    dll = tree / "x.dll"
    shutil.copy(pe_bin / "x64" / "chain_a.dll", dll)
    os.utime(dll, (HOUR_AGO, HOUR_AGO))
    with FactCache.open(tmp_path / "cache") as cache:  # type: ignore[union-attr]
        before = read_all(str(tree), cache)["x.dll"]
        assert isinstance(before, PEImage) and cache.stored == 1
    dll.unlink()  # a new file (new inode), as pip writes it
    shutil.copy(pe_bin / "x64" / "versioned.dll", dll)
    os.utime(dll, (HOUR_AGO + 60, HOUR_AGO + 60))
    with FactCache.open(tmp_path / "cache") as cache:  # type: ignore[union-attr]
        after = read_all(str(tree), cache)["x.dll"]
        assert cache.hits == 0
    assert after == read_all(str(tree), None)["x.dll"] != before
    # Rewritten in place with the same size: the modification time alone tells.
    data = bytearray(dll.read_bytes())
    data[:2] = b"ZM"
    dll.write_bytes(bytes(data))
    os.utime(dll, (HOUR_AGO + 120, HOUR_AGO + 120))
    with FactCache.open(tmp_path / "cache") as cache:  # type: ignore[union-attr]
        facts = read_all(str(tree), cache)["x.dll"]
    assert isinstance(facts, DefectError) and facts.defect == "not-pe"


def test_a_file_written_just_now_is_not_cached(pe_bin: Path, tmp_path: Path) -> None:
    tree = tmp_path / "t"
    tree.mkdir()
    shutil.copy(pe_bin / "x64" / "chain_a.dll", tree / "x.dll")  # mtime: now
    with FactCache.open(tmp_path / "cache") as cache:  # type: ignore[union-attr]
        assert isinstance(read_all(str(tree), cache)["x.dll"], PEImage)
        assert cache.stored == 0


@pytest.mark.parametrize("content", [b"", b"garbage " * 5000, b"SQLite format 3\0" + b"\xff" * 4000])
def test_a_garbage_cache_file_is_rebuilt(content: bytes, pe_bin: Path, tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / FILE_NAME).write_bytes(content)
    tree = settled_copy(pe_bin / "x64", tmp_path / "x64")
    cache = FactCache.open(folder)
    assert cache is not None
    assert (cache.rebuilt is not None) == bool(content)
    facts = read_all(str(tree), cache)
    cache.close()
    with FactCache.open(folder) as again:  # type: ignore[union-attr]
        assert again.rebuilt is None
        assert read_all(str(tree), again) == facts
        assert again.hits == len(facts)


def test_a_foreign_sqlite_file_is_replaced_not_trusted(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    with sqlite3.connect(folder / FILE_NAME) as db:
        db.execute(
            "CREATE TABLE facts (key TEXT PRIMARY KEY, tag TEXT, check_ INTEGER, nbytes INTEGER, payload)"
        )
        db.execute("INSERT INTO facts VALUES ('k', ?, 0, 2, x'7b7d')", (factcache.TAG,))
    with FactCache.open(folder) as cache:  # type: ignore[union-attr]
        assert cache.rebuilt and "not a dlldoctor cache" in cache.rebuilt
        assert cache.get("k") is None


def test_a_damaged_row_is_dropped_and_the_file_read_again(pe_bin: Path, tmp_path: Path) -> None:
    tree = settled_copy(pe_bin / "x64", tmp_path / "x64")
    with FactCache.open(tmp_path / "cache") as cache:  # type: ignore[union-attr]
        good = read_all(str(tree), cache)
    with sqlite3.connect(tmp_path / "cache" / FILE_NAME) as db:
        # A flipped byte (checksum no longer matches) and a well-formed row of the wrong shape.
        db.execute(
            "UPDATE facts SET payload = CAST(replace(CAST(payload AS TEXT), 'x64', 'x86') AS BLOB) "
            "WHERE key LIKE '%chain_a.dll'"
        )
        doc = json.dumps({"format": factcache.FORMAT, "kind": "pe", "machine": 7}).encode()
        db.execute(
            "UPDATE facts SET payload = ?, check_ = ?, nbytes = ? WHERE key LIKE '%chain_b.dll'",
            (doc, __import__("zlib").crc32(doc), len(doc)),
        )
    with FactCache.open(tmp_path / "cache") as cache:  # type: ignore[union-attr]
        again = read_all(str(tree), cache)
        assert cache.hits == len(good) - 2
    assert again == good
    with FactCache.open(tmp_path / "cache") as cache:  # type: ignore[union-attr]
        read_all(str(tree), cache)
        assert cache.hits == len(good)  # rewritten


def test_decode_refuses_anything_encode_did_not_write(pe_bin: Path) -> None:
    facts = read_all(str(pe_bin / "x64" / "forwarder.dll"), None)["forwarder.dll"]
    assert isinstance(facts, PEImage) and facts.forwarders
    assert decode(encode(facts)) == facts
    doc = json.loads(encode(facts))
    for key, bad in [
        ("size", "12"),
        ("is_dll", 1),
        ("exports", ["a"]),
        ("imports", [["k", [], [], True]]),
        ("linker_version", [14]),
        ("format", 99),
        ("forwarders", [["a"]]),
    ]:
        with pytest.raises(ValueError):
            decode(json.dumps({**doc, key: bad}).encode())
    with pytest.raises(ValueError):
        decode(b"\x80\x81 not json")


def _hammer(folder: str, worker: int, rounds: int, facts_json: bytes) -> None:
    """Write and read back; a write the busy timeout gave up on is allowed (the cache says so), and the keys
    that were written are listed in written-<worker>.txt beside the cache folder."""
    facts = decode(facts_json)
    written = []
    for i in range(rounds):
        with FactCache.open(Path(folder)) as cache:  # type: ignore[union-attr]
            cache.put_many([(f"k{worker}-{i}", facts), ("shared", facts)])
            assert cache.problem is None or "busy" in cache.problem
            if cache.problem is None:
                written.append(f"k{worker}-{i}")
                assert cache.get("shared") == facts
    (Path(folder).parent / f"written-{worker}.txt").write_text("\n".join(written), encoding="utf-8")


def test_concurrent_processes_do_not_corrupt_the_cache(pe_bin: Path, tmp_path: Path) -> None:
    facts = read_all(str(pe_bin / "x64" / "forwarder.dll"), None)["forwarder.dll"]
    folder = tmp_path / "cache"
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_hammer, args=(str(folder), n, 25, encode(facts))) for n in range(4)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(120)
        assert process.exitcode == 0
    with sqlite3.connect(folder / FILE_NAME) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    with FactCache.open(folder) as cache:  # type: ignore[union-attr]
        assert cache.rebuilt is None
        keys = [f"k{n}-{i}" for n in range(4) for i in range(25)]
        written = {k for n in range(4) for k in (tmp_path / f"written-{n}.txt").read_text().split()}
        found = cache.get_many([*keys, "shared"])
        # every write that was not given up on is there, whole; on a quiet machine that is every write
        assert written and set(found) - {"shared"} == written
        assert all(f == facts for f in found.values())


def _cli(*args: str, cache_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DLLDOCTOR_CACHE_DIR": str(cache_dir)}
    return subprocess.run(
        [sys.executable, "-m", "dlldoctor", "scan", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def test_no_cache_writes_nothing_and_the_default_cache_is_used_otherwise(
    pe_bin: Path, tmp_path: Path
) -> None:
    cache_dir = tmp_path / "cache-home"
    target = str(pe_bin / "x64")
    done = _cli(target, "--python", "3.11", "--no-cache", cache_dir=cache_dir)
    assert done.returncode in (0, 1), done.stderr
    # No PE facts stored (the rule set's own cache, rulecache, is not governed by --no-cache).
    assert not [p for p in cache_dir.glob("*") if not p.name.startswith("rules-")]
    again = _cli(target, "--python", "3.11", cache_dir=cache_dir)
    assert again.stdout == done.stdout
    assert (cache_dir / FILE_NAME).is_file()
    elsewhere = tmp_path / "explicit"
    _cli(target, "--python", "3.11", "--cache-dir", str(elsewhere), cache_dir=cache_dir)
    assert (elsewhere / FILE_NAME).is_file()


def test_a_scan_through_the_cache_equals_a_scan_without(pe_bin: Path, tmp_path: Path) -> None:
    tree = settled_copy(pe_bin / "x64", tmp_path / "x64")
    plain = scan_target(str(tree), PY311)
    for _ in range(2):  # cold, then warm
        with FactCache.open(tmp_path / "cache") as cache, Catalog(cache) as catalog:  # type: ignore[union-attr]
            cached = scan_target(str(tree), PY311, catalog)
        assert cached.findings == plain.findings
        assert {f.entry.relpath: f.facts for f in cached.files} == {
            f.entry.relpath: f.facts for f in plain.files
        }


def test_an_unwritable_cache_folder_only_costs_speed(pe_bin: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert FactCache.open(blocker / "cache") is None
