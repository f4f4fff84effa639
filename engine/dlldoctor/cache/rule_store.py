"""On-disk cache of validated rule sets, keyed by the content digest of the rules.

Loading a rule set means parsing ~50 YAML files and validating them against the JSON schema; the cache
turns that into one small pickle read so ``dlldoctor explain`` starts fast. Entries are unpickled only
when this user alone could have written them. The folder is :func:`dlldoctor.cache.location.default_dir`;
whether to use the cache at all is the caller's choice. A missing, unreadable or corrupt entry is rebuilt.
"""

from __future__ import annotations

import contextlib
import os
import pickle
from pathlib import Path
from typing import Any

from dlldoctor.cache.location import default_dir, only_mine, private_folder

KEEP = 8  # entries kept; older ones (other rule-set versions) are removed when a new one is stored


def cache_dir() -> Path:
    return default_dir()


def _entry(digest: str) -> Path:
    return cache_dir() / f"rules-{digest[:32]}.pickle"


def _trusted(path: Path) -> bool:
    """Only a file that nobody but this user could have written is unpickled.

    A pickle runs code when loaded; a cache entry and its folder owned by another user, or writable by
    the group or others, may have been planted, so it is ignored (and rebuilt elsewhere in memory).
    """
    return path.parent.is_dir() and only_mine(path.parent) and only_mine(path)


def load(digest: str) -> Any:
    """The cached object for ``digest``, or None (and the bad entry removed) when there is none usable."""
    path = _entry(digest)
    try:
        if not _trusted(path):
            return None
        with path.open("rb") as fh:
            return pickle.load(fh)
    except FileNotFoundError:
        return None
    except Exception:
        with contextlib.suppress(OSError):
            path.unlink()
        return None


def store(digest: str, value: Any) -> None:
    """Write an entry atomically; a cache that cannot be written is not an error."""
    import tempfile

    path = _entry(digest)
    try:
        if private_folder(path.parent) is None:
            return
        fd, tmp = tempfile.mkstemp(prefix=".rules-", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
            Path(tmp).replace(path)
        except BaseException:
            with contextlib.suppress(OSError):
                Path(tmp).unlink()
            raise
        _prune(path.parent)
    except (OSError, pickle.PicklingError):
        return


def _prune(folder: Path) -> None:
    entries = sorted(folder.glob("rules-*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[KEEP:]:
        with contextlib.suppress(OSError):
            old.unlink()
