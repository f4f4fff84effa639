"""On-disk cache of validated rule sets, keyed by the content digest of the rules.

Loading a rule set means parsing ~50 YAML files and validating them against the JSON schema; the cache
turns that into one small pickle read so ``dlldoctor explain`` starts fast. Entries are unpickled only
when this user alone could have written them. The folder is :func:`dlldoctor.cache.location.default_dir`;
whether to use the cache at all is the caller's choice. A missing, unreadable or corrupt entry is rebuilt.
"""

from __future__ import annotations

import contextlib
import pickle
from pathlib import Path
from typing import Any

from dlldoctor.cache.location import default_dir, prune, trusted, write_private

KEEP = 8  # entries kept; older ones (other rule-set versions) are removed when a new one is stored


def cache_dir() -> Path:
    return default_dir()


def _entry(digest: str) -> Path:
    return cache_dir() / f"rules-{digest[:32]}.pickle"


def load(digest: str) -> Any:
    """The cached object for ``digest``, or None (and the bad entry removed) when there is none usable.

    A pickle runs code when loaded: an entry or folder that another user owns, or that the group or others
    could write, may have been planted, so it is not read (and is rebuilt elsewhere in memory)."""
    path = _entry(digest)
    try:
        if not trusted(path):
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
    path = _entry(digest)
    try:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        if write_private(path, data, ".rules-"):
            prune(path.parent.glob("rules-*.pickle"), KEEP)
    except (OSError, pickle.PicklingError):
        return
