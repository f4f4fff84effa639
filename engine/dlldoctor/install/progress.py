"""Progress of a scan: the engine counts bytes of PE files read into a :class:`Sink`; it never shows it.

The one display, a progress bar on a terminal, lives in :mod:`dlldoctor.cli.progress`.
"""

from __future__ import annotations

from typing import Protocol


class Sink(Protocol):
    def add_total(self, amount: int) -> None:
        """More work became known (bytes of PE files to read)."""

    def advance(self, amount: int) -> None:
        """Work done (bytes of PE files read or found in the cache)."""


class NoProgress:
    def add_total(self, amount: int) -> None:
        pass

    def advance(self, amount: int) -> None:
        pass
