"""The one folder dlldoctor caches in: ``$DLLDOCTOR_CACHE_DIR``, else the platform's user cache folder."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable
from pathlib import Path

ENV_VAR = "DLLDOCTOR_CACHE_DIR"


def default_dir() -> Path:
    configured = os.environ.get(ENV_VAR)
    if configured:
        return Path(configured)
    import platformdirs

    return Path(platformdirs.user_cache_dir("dlldoctor", appauthor=False))


def private_folder(directory: Path | None = None) -> Path | None:
    """The cache folder (``directory``, else :func:`default_dir`), created 0700; None when unusable.

    A folder this user owns is tightened to 0700 when it is open to others (a group-writable umask made
    it so, or an older dlldoctor did): every file in it is trusted only because nobody else can write
    there. A folder another user owns is not used.
    """
    folder = default_dir() if directory is None else directory
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if os.name == "posix":
            info = folder.stat()
            if info.st_uid != os.getuid():
                return None
            if info.st_mode & 0o077:
                folder.chmod(0o700)
    except OSError:
        return None
    return folder


def only_mine(path: Path) -> bool:
    """Whether nobody but this user could have written ``path``, a file or a folder (missing: safe)."""
    if os.name != "posix":
        return True  # the per-user cache folder of a Windows profile is private by its ACL
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    kind_ok = stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)
    return kind_ok and info.st_uid == os.getuid() and not info.st_mode & 0o022


def create_private(path: Path) -> None:
    """Create ``path`` empty with mode 0600 unless it exists (SQLite would create it 0644)."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


def trusted(path: Path) -> bool:
    """Whether a cache entry and its folder are this user's alone, so that its content can be believed."""
    return path.parent.is_dir() and only_mine(path.parent) and only_mine(path)


def write_private(path: Path, data: bytes, prefix: str) -> bool:
    """Write ``path`` atomically (a temporary file ``prefix…`` beside it, then a rename) in its private
    cache folder; False when that folder cannot be used. OSError when writing fails."""
    import tempfile

    if private_folder(path.parent) is None:
        return False
    fd, tmp = tempfile.mkstemp(prefix=prefix, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        Path(tmp).replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            Path(tmp).unlink()
        raise
    return True


def prune(entries: Iterable[Path], keep: int) -> None:
    """Remove all but the ``keep`` newest of ``entries`` (by modification time)."""

    def age(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except OSError:
            return 0.0

    for old in sorted(entries, key=age, reverse=True)[keep:]:
        with contextlib.suppress(OSError):
            old.unlink()
