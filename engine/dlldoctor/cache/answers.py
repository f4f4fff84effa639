"""Whole answers of ``dlldoctor scan``, remembered by everything they depend on.

Scanning a wheel again that nothing about has changed gives the same words and exit status, so the
second run writes the first one's answer without opening the wheel, importing a PE parser or loading a
rule set. The key covers what the answer is made of:

- each target's own identity: the path as given and as resolved, its size, modification and change
  times, inode and device — only for files (a wheel, a DLL); a folder can change inside without its own
  times moving, so a folder target is always scanned (its PE facts still come from the fact cache);
- how the answer is shaped: the output settings the caller passes (format, language, colour …);
- the code and data that make it: the dlldoctor version, the size and time of every file of the package
  and of the rule set, and the Python version.

Answers are plain text in the private cache folder (:mod:`dlldoctor.cache.location`), read back only
when nobody but this user could have written them, at most :data:`MAX_ANSWER` bytes, the newest
:data:`KEEP` kept. Whether to use them is the caller's choice (``--no-cache`` does not).
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from dlldoctor import __version__
from dlldoctor.cache.location import default_dir, prune, trusted, write_private

KEEP = 64
MAX_ANSWER = 32 << 20  # bytes of one remembered answer; a longer one is not remembered
_PREFIX = "answer-"
_MAGIC = b"dlldoctor answer 1\n"


def answer_key(
    targets: Sequence[str], settings: Mapping[str, object], rules_root: Path | None = None
) -> str | None:
    """The key of the answer for ``targets`` shaped by ``settings``; None when it cannot be remembered
    (a target is not a regular file, or cannot be read)."""
    from dlldoctor.resources import rules_root as built_in

    h = hashlib.sha256(f"{__version__}\n{sys.version}\n".encode())
    for target in targets:
        try:
            info = Path(target).stat()
            resolved = os.path.realpath(target)
        except (OSError, ValueError):
            return None
        if not stat.S_ISREG(info.st_mode):
            return None
        h.update(os.fsencode(target) + b"\0" + os.fsencode(resolved) + b"\0")
        h.update(_stamp(info))
    for name, value in sorted(settings.items()):
        h.update(f"{name}={value!r}\n".encode("utf-8", "surrogateescape"))
    try:
        h.update(_tree_stamp(Path(__file__).resolve().parents[1]))
        h.update(_tree_stamp(Path(rules_root) if rules_root is not None else built_in()))
    except OSError:
        return None
    return h.hexdigest()


def _stamp(info: os.stat_result) -> bytes:
    return f"{info.st_size}:{info.st_mtime_ns}:{info.st_ctime_ns}:{info.st_ino}:{info.st_dev}\n".encode()


def _tree_stamp(root: Path) -> bytes:
    """Names, sizes and times of every file under ``root`` (caches and hidden folders left out)."""
    parts: list[bytes] = []
    for folder, names, files in os.walk(root):
        names[:] = sorted(n for n in names if not n.startswith(".") and n != "__pycache__")
        for name in sorted(files):
            path = Path(folder, name)
            parts.append(os.fsencode(path.relative_to(root)) + b"\0" + _stamp(path.stat()))
    return b"".join(parts)


def _entry(key: str, directory: Path | None) -> Path:
    return (directory or default_dir()) / f"{_PREFIX}{key[:40]}.txt"


def recall(key: str, directory: Path | None = None) -> tuple[int, str] | None:
    """The exit status and text remembered under ``key``, or None."""
    path = _entry(key, directory)
    try:
        if not trusted(path):
            return None
        with path.open("rb") as fh:
            data = fh.read(MAX_ANSWER + 1024)
    except OSError:
        return None
    head, _, body = data.partition(b"\n\n")
    lines = head.split(b"\n")
    if len(lines) != 3 or lines[0] + b"\n" != _MAGIC or lines[1] != f"key {key}".encode():
        return None
    try:
        status = int(lines[2].removeprefix(b"status "))
        return status, body.decode("utf-8", "surrogateescape")
    except ValueError:  # a damaged entry is a miss
        return None


def remember(key: str, status: int, text: str, directory: Path | None = None) -> None:
    """Keep an answer atomically; a cache that cannot be written is not an error."""
    body = text.encode("utf-8", "surrogateescape")
    if len(body) > MAX_ANSWER:
        return
    path = _entry(key, directory)
    try:
        if write_private(path, _MAGIC + f"key {key}\nstatus {status}\n\n".encode() + body, f".{_PREFIX}"):
            prune(path.parent.glob(f"{_PREFIX}*.txt"), KEEP)
    except OSError:
        return
