"""The progress display of a scan: a rich bar on stderr, shown only on a terminal and only for long work.

It appears once the work has run for :data:`SHOW_AFTER` seconds; the engine feeds it as a
:class:`dlldoctor.install.progress.Sink`.
"""

from __future__ import annotations

import sys
import threading
from typing import Any, TextIO

SHOW_AFTER = 1.0  # seconds: work that finishes sooner shows nothing


class TerminalProgress:
    """A transient rich bar on ``stream``, started after :data:`SHOW_AFTER` seconds. Thread-safe."""

    def __init__(
        self, description: str, stream: TextIO | None = None, show_after: float = SHOW_AFTER
    ) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

        console = Console(file=stream or sys.stderr, stderr=stream is None)
        self._bar: Any = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            DownloadColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        )
        self._task = self._bar.add_task(description, total=0)
        self._lock = threading.Lock()
        self._started = self._stopped = False
        self._timer = threading.Timer(show_after, self._start)
        self._timer.daemon = True

    def __enter__(self) -> TerminalProgress:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()
        with self._lock:
            self._stopped = True
            if self._started:
                self._bar.stop()

    def _start(self) -> None:
        with self._lock:
            if not self._stopped:
                self._started = True
                self._bar.start()

    def add_total(self, amount: int) -> None:
        task = self._bar.tasks[0]
        self._bar.update(self._task, total=(task.total or 0) + amount)

    def advance(self, amount: int) -> None:
        self._bar.advance(self._task, amount)

    @property
    def shown(self) -> bool:
        return self._started


def wants_display(stream: TextIO, quiet: bool) -> bool:
    """A bar only for people: not with ``--quiet``, not when stderr is a pipe or file."""
    if quiet:
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
