"""Read one PE file: its compact image, then lief, then pefile when lief rejects the file.

Both parsers read the compact image of :mod:`dlldoctor.pe.layout`, never the whole file.
"""

from __future__ import annotations

from typing import BinaryIO

from dlldoctor.pe.compact import Reopen, read_compact
from dlldoctor.pe.layout import DefectError, Layout
from dlldoctor.pe.model import PEImage


def read_pe(stream: BinaryIO, size: int, reopen: Reopen | None = None) -> PEImage:
    """Read PE facts from a stream positioned at the file's first byte.

    Raises ``DefectError`` (a ``PEFormatError``) with a defect code when the file is not a usable PE.
    ``reopen`` opens the same bytes again from the start (see :func:`dlldoctor.pe.compact.read_compact`).
    """
    layout, image = read_compact(stream, size, reopen)
    return read_image(layout, image, size)


def read_image(layout: Layout, image: bytes, size: int) -> PEImage:
    """PE facts from a compact image (whoever built it), with lief, else pefile; ``DefectError`` if neither."""
    try:
        from dlldoctor.pe import lief_backend

        return lief_backend.facts(image, layout, size)
    except Exception as lief_error:  # any parser failure on hostile bytes is a defect
        from dlldoctor.pe import pefile_backend

        try:
            return pefile_backend.facts(image, layout, size)
        except Exception:  # pefile raises AttributeError, IndexError … on odd files
            raise DefectError("unparseable", _first_line(lief_error)) from lief_error


def _first_line(error: BaseException) -> str:
    text = str(error).strip().split("\n", 1)[0] or type(error).__name__
    return text[:200]
