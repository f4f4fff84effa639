"""Scan many targets on every core: one worker process per core, largest target first.

Parsing is Python and lief code that holds the GIL, so targets are spread over processes; within a
target, :class:`dlldoctor.catalog.Catalog` inflates members on threads. Each worker opens the fact
cache once (SQLite in WAL mode serializes their writes) and sends its :class:`ScanResult` back pickled
by :func:`dumps_result`, which leaves the wheel's closed zip handle behind. This pickle only ever
travels from our own worker to its parent; the fact cache never uses pickle.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import pickle
import queue
import threading
import zipfile
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dlldoctor.cache.pe_facts import MAX_THREADS, Catalog
from dlldoctor.cache.pe_store import FactCache
from dlldoctor.errors import DllDoctorError
from dlldoctor.install.progress import NoProgress, Sink
from dlldoctor.install.sources import WheelSource
from dlldoctor.loader.resolution import Node
from dlldoctor.pe.layout import DefectError
from dlldoctor.scan.result import D, ScanOptions, ScanResult
from dlldoctor.scan.target import scan_target

Target = str | tuple[str, ...]  # a path, or several wheels scanned as one environment


class ScanError(DllDoctorError):
    """A target whose scan could not finish (its worker process died)."""


# Fills the ``diagnoses`` of scanned results in place; it must pickle, since workers run it too.
DiagnoseStep = Callable[[list[ScanResult[D]]], None]


@dataclass(frozen=True)
class CacheChoice:
    """Where the fact cache lives: ``enabled=False`` writes nothing; ``directory=None`` is the default."""

    enabled: bool = True
    directory: Path | None = None

    def open(self) -> FactCache | None:
        return FactCache.open(self.directory) if self.enabled else None


NO_CACHE = CacheChoice(enabled=False)


def scan_all(
    targets: Sequence[Target],
    options: ScanOptions,
    jobs: int | None = None,
    cache: CacheChoice = NO_CACHE,
    progress: Sink | None = None,
    diagnose: DiagnoseStep[D] | None = None,
) -> list[ScanResult[D]]:
    """Scan ``targets`` (results in the same order) with up to ``jobs`` cores (default: all).

    With ``diagnose``, each result's ``diagnoses`` are filled too (in the worker that scanned it).
    The first target that cannot be read raises its ``DllDoctorError``, as a serial scan would.
    """
    jobs = max(1, jobs or os.cpu_count() or 1)
    sink = progress or NoProgress()
    if jobs == 1 or len(targets) < 2:
        results: list[ScanResult[D]] = _scan_here(targets, options, min(jobs, MAX_THREADS), cache, sink)
        if diagnose is not None:
            diagnose(results)
        return results
    return _scan_in_workers(targets, options, jobs, cache, sink, diagnose)


def _scan_here(
    targets: Sequence[Target], options: ScanOptions, threads: int, cache: CacheChoice, sink: Sink
) -> list[ScanResult[D]]:
    facts = cache.open()
    try:
        results: list[ScanResult[D]] = []
        for target in targets:
            with Catalog(facts, threads=threads, progress=sink) as catalog:
                results.append(scan_target(target, options, catalog))
        return results
    finally:
        if facts is not None:
            facts.close()


# ---- worker processes -------------------------------------------------------------------------------

_worker_cache: FactCache | None = None
_worker_sink: Sink = NoProgress()


class _QueueSink:
    """Progress from a worker: messages to the parent, which shows them."""

    def __init__(self, channel: Any) -> None:
        self._channel = channel

    def add_total(self, amount: int) -> None:
        self._channel.put(("total", amount))

    def advance(self, amount: int) -> None:
        self._channel.put(("advance", amount))


def _init_worker(cache: CacheChoice, channel: Any) -> None:
    global _worker_cache, _worker_sink
    _worker_cache = cache.open()
    _worker_sink = _QueueSink(channel) if channel is not None else NoProgress()


def _scan_in_worker(
    target: Target, options: ScanOptions, threads: int, diagnose: DiagnoseStep[D] | None
) -> bytes:
    with Catalog(_worker_cache, threads=threads, progress=_worker_sink) as catalog:
        result: ScanResult[D] = scan_target(target, options, catalog)
    if diagnose is not None:
        diagnose([result])
    return dumps_result(result)


def _scan_in_workers(
    targets: Sequence[Target],
    options: ScanOptions,
    jobs: int,
    cache: CacheChoice,
    sink: Sink,
    diagnose: DiagnoseStep[D] | None,
) -> list[ScanResult[D]]:
    context = multiprocessing.get_context("spawn")  # no fork of a process that runs threads
    channel = context.Queue() if not isinstance(sink, NoProgress) else None
    drain = _start_drain(channel, sink) if channel is not None else None
    workers = min(jobs, len(targets))
    threads = min(jobs, MAX_THREADS)  # per worker: the last big target still gets the idle cores
    # Biggest first: the longest scan starts at once instead of trailing behind the small ones.
    order = sorted(range(len(targets)), key=lambda i: -_size(targets[i]))
    results: list[ScanResult[D] | None] = [None] * len(targets)
    try:
        died = _run_pool(
            context,
            workers,
            cache,
            channel,
            [(i, targets[i]) for i in order],
            options,
            threads,
            diagnose,
            results,
        )
        # A worker that died (killed, out of memory) takes every target then running in its pool with it.
        # Each of those is scanned again in a pool of its own, so a second death names its target.
        for i in sorted(died):
            again = _run_pool(
                context, 1, cache, channel, [(i, targets[i])], options, threads, diagnose, results
            )
            if again:
                raise ScanError(f"{targets[i]}: the worker process scanning it died twice ({died[i]})")
    finally:
        if channel is not None and drain is not None:
            channel.put(None)
            drain.join()
    return [r for r in results if r is not None]


def _run_pool(
    context: Any,
    workers: int,
    cache: CacheChoice,
    channel: Any,
    work: list[tuple[int, Target]],
    options: ScanOptions,
    threads: int,
    diagnose: DiagnoseStep[D] | None,
    results: list[ScanResult[D] | None],
) -> dict[int, str]:
    """Scan ``work`` (index, target) in one pool into ``results``; the indexes whose worker died, and why."""
    died: dict[int, str] = {}
    with ProcessPoolExecutor(
        workers, mp_context=context, initializer=_init_worker, initargs=(cache, channel)
    ) as pool:
        futures = {i: pool.submit(_scan_in_worker, target, options, threads, diagnose) for i, target in work}
        for i in sorted(futures):  # in target order: the first unreadable target raises first
            try:
                results[i] = loads_result(futures[i].result())
            except BrokenProcessPool as e:
                died[i] = str(e).split("\n", 1)[0] or "killed"
    return died


def _start_drain(channel: Any, sink: Sink) -> threading.Thread:
    def run() -> None:
        while True:
            try:
                message = channel.get(timeout=0.5)
            except queue.Empty:
                continue
            if message is None:
                return
            kind, amount = message
            (sink.add_total if kind == "total" else sink.advance)(amount)

    thread = threading.Thread(target=run, name="dlldoctor-progress", daemon=True)
    thread.start()
    return thread


def _size(target: Target) -> int:
    if isinstance(target, tuple):
        return sum(_size(t) for t in target)
    try:
        return Path(target).stat().st_size
    except OSError:
        return 0


# ---- sending a result back --------------------------------------------------------------------------


class _ClosedArchive:
    """What a wheel's ZipFile is after its scan: closed. Opening a member fails as zipfile's would."""

    def __init__(self, infos: dict[str, zipfile.ZipInfo]) -> None:
        self._infos = infos

    def getinfo(self, name: str) -> zipfile.ZipInfo:
        return self._infos[name]

    def open(self, *args: object, **kwargs: object) -> Any:
        raise ValueError("Attempt to use ZIP archive that was already closed")

    read = open

    def close(self) -> None:
        pass


def _rebuild_wheel(path: Path, label: str, infos: dict[str, zipfile.ZipInfo]) -> WheelSource:
    source = WheelSource.__new__(WheelSource)
    source.path, source.label = path, label
    source.__dict__["_infos"] = infos
    source.__dict__["zip"] = _ClosedArchive(infos)
    return source


def _rebuild_defect(defect: str, message: str) -> DefectError:
    error = DefectError(defect)
    error.args = (message,)
    return error


def _flatten(root: Node) -> list[tuple[Any, ...]]:
    """A tree as a list in depth-first order, each node with its parent's index: pickle recurses on
    nested objects, and a chain of thousands of DLLs must still travel."""
    flat: list[tuple[Any, ...]] = []
    stack: list[tuple[Node, int]] = [(root, -1)]
    while stack:
        node, parent = stack.pop()
        flat.append(
            (
                parent,
                node.resolution,
                node.imported,
                node.image,
                node.defect,
                node.repeat,
                node.missing_symbols,
            )
        )
        here = len(flat) - 1
        stack.extend((child, here) for child in reversed(node.children))
    return flat


def _rebuild_tree(flat: list[tuple[Any, ...]]) -> Node:
    nodes: list[Node] = []
    for parent, resolution, imported, image, defect, repeat, missing in flat:
        node = Node(resolution, imported, image, defect, [], repeat, missing)
        nodes.append(node)
        if parent >= 0:
            nodes[parent].children.append(node)
    return nodes[0]


class _ResultPickler(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, Node):
            return _rebuild_tree, (_flatten(obj),)
        if isinstance(obj, WheelSource):
            return _rebuild_wheel, (obj.path, obj.label, dict(obj.__dict__.get("_infos", {})))
        if isinstance(obj, DefectError):  # its constructor takes a code, not the message in its args
            return _rebuild_defect, (obj.defect, str(obj))
        return NotImplemented


def dumps_result(result: ScanResult[D]) -> bytes:
    buffer = io.BytesIO()
    _ResultPickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(result)
    return buffer.getvalue()


def loads_result(data: bytes) -> ScanResult[D]:
    result: ScanResult[D] = pickle.loads(data)
    return result
