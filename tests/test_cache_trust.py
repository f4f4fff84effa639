"""Both caches trust only what this user alone could have written: files 0600 in a 0700 folder.

The PE-fact store decides what a scan reports (a row edited by someone else turned a missing DLL into a
clean scan), so a store file anyone else could have written is replaced, never read. A group-writable
umask must not leave the caches open to the group, nor make the rule cache useless.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from dlldoctor.cache import rule_store as rulecache
from dlldoctor.cache.pe_store import FILE_NAME, FactCache
from dlldoctor.pe.layout import DefectError

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")


@pytest.fixture
def umask_002() -> Iterator[None]:
    old = os.umask(0o002)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_the_fact_store_is_0600_in_a_0700_folder_under_a_group_writable_umask(
    tmp_path: Path, umask_002: None
) -> None:
    folder = tmp_path / "cache"
    with FactCache.open(folder) as cache:  # type: ignore[union-attr]
        cache.put_many([("k", DefectError("empty"))])
    assert _mode(folder) == 0o700
    assert _mode(folder / FILE_NAME) == 0o600
    for companion in folder.glob(FILE_NAME + "-*"):
        assert _mode(companion) == 0o600, companion.name


def test_a_group_writable_fact_store_is_replaced_not_read(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    with FactCache.open(folder) as cache:  # type: ignore[union-attr]
        cache.put_many([("k", DefectError("empty"))])
        assert isinstance(cache.get("k"), DefectError)
    (folder / FILE_NAME).chmod(0o664)  # anyone in the group could have edited a row
    with FactCache.open(folder) as cache:  # type: ignore[union-attr]
        assert cache.rebuilt == f"{FILE_NAME} could have been written by another user"
        assert cache.get("k") is None
    assert _mode(folder / FILE_NAME) == 0o600


def test_a_fact_store_that_is_a_symlink_is_replaced_not_followed(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.sqlite3"
    with sqlite3.connect(elsewhere) as db:
        db.execute("CREATE TABLE t (x)")
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    (folder / FILE_NAME).symlink_to(elsewhere)
    with FactCache.open(folder) as cache:  # type: ignore[union-attr]
        assert cache.rebuilt == f"{FILE_NAME} could have been written by another user"
    assert not (folder / FILE_NAME).is_symlink()
    with sqlite3.connect(elsewhere) as db:
        assert db.execute("SELECT name FROM sqlite_master").fetchall() == [("t",)]


def test_a_loose_cache_folder_of_this_user_is_tightened(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    folder.chmod(0o775)
    FactCache.open(folder).close()  # type: ignore[union-attr]
    assert _mode(folder) == 0o700


def test_the_rule_cache_is_trusted_again_after_a_group_writable_umask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, umask_002: None
) -> None:
    folder = tmp_path / "cache"
    monkeypatch.setenv("DLLDOCTOR_CACHE_DIR", str(folder))
    folder.mkdir(mode=0o775)
    folder.chmod(0o775)  # what an older dlldoctor left under umask 002
    rulecache.store("ab" * 32, {"rules": 1})
    assert _mode(folder) == 0o700
    assert rulecache.load("ab" * 32) == {"rules": 1}
