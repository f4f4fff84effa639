"""Parsed PE facts per inventory entry: each file parsed at most once per run, and not at all when cached.

:meth:`Catalog.prefetch` reads a whole target's PE files up front: cached facts first (see
:mod:`dlldoctor.cache.pe_store`), then the rest on a pool of threads, largest first. Inflating a wheel
member runs without the GIL (each thread has its own file handle, :mod:`dlldoctor.install.zipmember`), so on
two cores one thread inflates torch_cpu.dll while the other parses everything else. Entries the loader
asks about later (files found in ``--path`` or ``--system-dir`` folders) are read one at a time by
:meth:`Catalog.facts`, through the same cache.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

from dlldoctor.cache import offload
from dlldoctor.cache.pe_store import FactCache, encode, file_is_settled, file_key, zip_key
from dlldoctor.errors import DllDoctorError, InputError
from dlldoctor.install.progress import NoProgress, Sink
from dlldoctor.install.sources import Entry, WheelSource
from dlldoctor.install.zipmember import INFLATE_ERRORS, MemberReader, can_read, largest_possible, open_member
from dlldoctor.pe.layout import DefectError, read_layout
from dlldoctor.pe.model import PEImage
from dlldoctor.pe.read import read_image, read_pe

Facts = PEImage | DefectError
_Done = tuple[Entry, Facts, str | None, bytes | None]  # a read: its facts, cache key and row
# A zip member whose deflate stream is broken, a file that vanished or shrank mid-read.
_READ_ERRORS: tuple[type[Exception], ...] = (
    OSError,
    EOFError,
    ValueError,
    KeyError,
    zlib.error,
    *INFLATE_ERRORS,
)


# Reading threads per process. Each holds up to ~3x the kept sections of the member it reads (~110 MB
# with lief's objects for torch_cpu.dll), and parsing holds the GIL, so more threads buy little and
# cost memory; more cores are used by more processes (dlldoctor.scan.batch).
MAX_THREADS = 4


def default_threads() -> int:
    return min(os.cpu_count() or 1, MAX_THREADS)


class Catalog:
    def __init__(
        self, cache: FactCache | None = None, threads: int | None = None, progress: Sink | None = None
    ) -> None:
        self._facts: dict[Entry, Facts] = {}
        self.cache = cache
        self.threads = max(1, threads if threads is not None else default_threads())
        self.progress: Sink = progress or NoProgress()
        self._pending: list[tuple[str, bytes]] = []  # cache rows not written yet
        self._running: dict[Entry, Future[_Done]] = {}  # background reads (prefetch with wait=False)

    def __enter__(self) -> Catalog:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def facts(self, entry: Entry) -> Facts:
        """The entry's PE facts, or the defect that makes it unusable (waiting for a background read)."""
        cached = self._facts.get(entry)
        if cached is None:
            future = self._running.pop(entry, None)
            if future is not None:
                self._settle(future.result())
            else:
                self.prefetch([entry], report=False)
            cached = self._facts[entry]
        return cached

    def image(self, entry: Entry) -> PEImage | None:
        facts = self.facts(entry)
        return facts if isinstance(facts, PEImage) else None

    def prefetch(self, entries: Sequence[Entry], report: bool = True, wait: bool = True) -> None:
        """Know the facts of every entry: from the cache, else read on threads, largest first.

        With ``wait=False`` the reads go on in the background and :meth:`facts` waits for each one: the
        caller can meanwhile do work of its own (a wheel's RECORD, say) while the big members inflate.
        """
        todo = list(dict.fromkeys(e for e in entries if e not in self._facts and e not in self._running))
        if not todo:
            return
        progress = self.progress if report else NoProgress()
        progress.add_total(sum(e.size for e in todo))
        keys = {entry: _identity(entry) for entry in todo} if self.cache is not None else {}
        if self.cache is not None:
            found = self.cache.get_many(k for k in keys.values() if k is not None)
            for entry in todo:
                key = keys[entry]
                if key is not None and key in found:
                    self._facts[entry] = found[key]
                    progress.advance(entry.size)
        misses = sorted((e for e in todo if e not in self._facts), key=lambda e: -e.size)
        if not misses:
            return

        def work(entry: Entry) -> _Done:
            told = 0

            def step(amount: int) -> None:  # a big member moves the bar while it inflates
                nonlocal told
                amount = min(amount, entry.size - told)
                told += amount
                progress.advance(amount)

            facts = _read(entry, step, elsewhere=self.threads > 1)
            key = keys.get(entry)
            payload = encode(facts) if key is not None and _still_same(entry, key) else None
            progress.advance(entry.size - told)
            return entry, facts, key, payload

        if wait and (self.threads == 1 or len(misses) == 1):
            for entry in misses:
                self._settle(work(entry))
        else:
            pool = ThreadPoolExecutor(min(self.threads, len(misses)), thread_name_prefix="dlldoctor-read")
            for entry in misses:
                self._running[entry] = pool.submit(work, entry)
            pool.shutdown(wait=False)  # the threads end when the queue is empty
            if wait:
                for entry in misses:
                    self.facts(entry)
        if report and wait:
            self.flush()

    def wait(self) -> None:
        """Let every background read finish (raising what one of them raised)."""
        for entry in list(self._running):
            self.facts(entry)

    def _settle(self, done: _Done) -> None:
        entry, facts, key, payload = done
        self._facts[entry] = facts
        if payload is not None and key is not None:
            self._pending.append((key, payload))

    def flush(self) -> None:
        """Write the facts read so far to the cache."""
        if self.cache is not None and self._pending:
            self.cache.put_encoded(self._pending)
        self._pending = []

    def close(self) -> None:
        """Finish the reads, write what is pending; the cache stays open (whoever opened it closes it)."""
        self.wait()
        self.flush()

    def __getstate__(self) -> dict[str, object]:
        # A catalog travels with its ScanResult from a worker process: the facts go, the cache and the
        # progress display stay behind.
        self.wait()
        self.flush()
        state = dict(self.__dict__)
        state.update(cache=None, progress=NoProgress(), _pending=[], _running={})
        return state


def _identity(entry: Entry) -> str | None:
    """The cache key of the entry's content, or None when it has none (then it is read, not cached)."""
    source = entry.origin
    if isinstance(source, WheelSource):
        try:
            info = source.zip.getinfo(entry.relpath)
        except KeyError:
            return None
        return zip_key(entry.relpath, info.CRC, info.file_size)
    path = Path(entry.location).absolute()
    try:
        stat = path.stat()
    except OSError:
        return None
    if not file_is_settled(stat):
        return None
    return file_key(str(path), stat)


def _from_child(head: bytes, image: bytes, crc_ok: bool, size: int) -> Facts:
    # in the order _read finds them: a file the parsers refuse is that defect, a parsed one with the wrong
    # CRC-32 is damaged
    try:
        facts = read_image(read_layout(head, size), image, size)
    except DefectError as e:
        return e
    return facts if crc_ok else DefectError("bad-crc")


def _still_same(entry: Entry, key: str) -> bool:
    """A file's identity after reading it must be the one before: else it changed while it was read."""
    return isinstance(entry.origin, WheelSource) or _identity(entry) == key


def _open(entry: Entry, on_bytes: Callable[[int], None] | None) -> BinaryIO:
    source = entry.origin
    if isinstance(source, WheelSource):
        info = source.zip.getinfo(entry.relpath)
        if can_read(info):
            return open_member(source.path, info, on_bytes)
    return entry.open()


def _read(entry: Entry, on_bytes: Callable[[int], None] | None = None, elsewhere: bool = False) -> Facts:
    """The entry's facts; with ``elsewhere``, a big wheel member is inflated by a child process
    (:mod:`dlldoctor.cache.offload`) while this process's threads go on, else here."""
    size = entry.size
    if isinstance(entry.origin, WheelSource):
        info = entry.origin.zip.getinfo(entry.relpath)
        # The PE's own sizes are checked against this one, so a zip header's claim must not exceed
        # what its compressed bytes can hold.
        size = largest_possible(info)
        if elsewhere and offload.worthwhile(info) and offload.enabled():
            done = offload.read_elsewhere(entry.origin.path, info, size)
            if done is not None:
                return _from_child(*done, size)
    try:
        with _open(entry, on_bytes) as stream:
            facts = read_pe(stream, size, reopen=lambda: _open(entry, None))
            if isinstance(stream, MemberReader) and not stream.crc_matches():
                return DefectError("bad-crc")
            return facts
    except DefectError as e:
        return e
    except InputError:
        raise
    except DllDoctorError as e:
        return DefectError("unparseable", str(e))
    except _READ_ERRORS as e:
        return DefectError("unparseable", f"reading failed: {e}")
