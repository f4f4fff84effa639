"""The rule cache unpickles only what this user alone could have written, and --no-cache skips it."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from dlldoctor.cache import rule_store as rulecache
from dlldoctor.kb.ruleset import RuleSet


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("DLLDOCTOR_CACHE_DIR", str(folder))
    return folder


def test_round_trip(cache: Path) -> None:
    rulecache.store("ab" * 32, {"rules": 1})
    assert rulecache.load("ab" * 32) == {"rules": 1}
    assert (cache.stat().st_mode & 0o777) == 0o700


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_group_writable_entry_is_not_unpickled(cache: Path) -> None:
    rulecache.store("cd" * 32, {"rules": 2})
    (entry,) = cache.glob("rules-*.pickle")
    entry.chmod(0o666)
    assert rulecache.load("cd" * 32) is None


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_entry_in_a_world_writable_folder_is_not_unpickled(cache: Path) -> None:
    cache.mkdir(mode=0o700)
    (cache / f"rules-{'ef' * 16}.pickle").write_bytes(pickle.dumps({"planted": True}))
    cache.chmod(0o777)
    assert rulecache.load("ef" * 32) is None


def test_no_cache_neither_reads_nor_writes(cache: Path) -> None:
    from dlldoctor.kb.ruleset import content_digest, load_rule_set
    from dlldoctor.resources import rules_root

    load_rule_set(use_cache=False)
    assert not cache.exists()
    rulecache.store(content_digest(rules_root()), {"planted": True})
    assert isinstance(load_rule_set(use_cache=False), RuleSet)
