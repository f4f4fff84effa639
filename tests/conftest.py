"""Shared test fixtures: the committed PE fixtures and the real wheels cache."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

sys.path.insert(0, str(Path(__file__).parent))

if TYPE_CHECKING:
    from collections.abc import Iterator

    from wine import runner

    from dlldoctor.kb.ruleset import RuleSet

ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    """Keep the fact and rule caches of the tests out of the user's cache folder."""
    import os
    import tempfile

    if "DLLDOCTOR_CACHE_DIR" not in os.environ:
        os.environ["DLLDOCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="dlldoctor-test-cache-")


PE_BIN = ROOT / "corpus" / "pe" / "bin"


@pytest.fixture(scope="session")
def pe_bin() -> Path:
    return PE_BIN


@pytest.fixture(scope="session")
def torch_wheel() -> Path:
    import wheelcache

    return wheelcache.wheel(wheelcache.TORCH)


@pytest.fixture(scope="session")
def torch_tree(tmp_path_factory: pytest.TempPathFactory, torch_wheel: Path) -> Path:
    """The torch 2.13.0 wheel unpacked once; tests copy it before changing anything."""
    import wheelcache

    return wheelcache.unpack(torch_wheel, tmp_path_factory.mktemp("torch-2.13.0"))


@pytest.fixture
def torch_copy(tmp_path: Path, torch_tree: Path) -> Path:
    """A private copy of the unpacked torch tree (hard links where possible: nothing is edited in place)."""
    dest = tmp_path / "site-packages"
    shutil.copytree(torch_tree, dest, copy_function=_link_or_copy)
    return dest


def _link_or_copy(src: str, dst: str) -> None:
    try:
        Path(dst).hardlink_to(src)
    except OSError:
        shutil.copy2(src, dst)


@pytest.fixture(scope="session")
def rule_set() -> RuleSet:
    """The built-in rule set, loaded once (the session's cache folder is private, see above)."""
    from dlldoctor.kb.ruleset import load_rule_set

    return load_rule_set()


@pytest.fixture(scope="session")
def wine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[runner.WineSession]:
    """One Wine prefix and wineserver for every Wine test of the session (tests/wine/runner.py)."""
    from wine import runner

    runner.require()
    session = runner.WineSession(tmp_path_factory.mktemp("wine-session"))
    try:
        yield session
    finally:
        session.close()
