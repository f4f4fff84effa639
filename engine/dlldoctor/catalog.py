"""Parsed PE facts per inventory entry, each file parsed at most once per run."""

from __future__ import annotations

from dlldoctor.errors import DllDoctorError, InputError
from dlldoctor.inventory import Entry
from dlldoctor.pe import PEImage, read_pe
from dlldoctor.pe_layout import DefectError


class Catalog:
    def __init__(self) -> None:
        self._facts: dict[Entry, PEImage | DefectError] = {}

    def facts(self, entry: Entry) -> PEImage | DefectError:
        """The entry's PE facts, or the defect that makes it unusable."""
        key = entry
        cached = self._facts.get(key)
        if cached is None:
            cached = self._read(entry)
            self._facts[key] = cached
        return cached

    def image(self, entry: Entry) -> PEImage | None:
        facts = self.facts(entry)
        return facts if isinstance(facts, PEImage) else None

    @staticmethod
    def _read(entry: Entry) -> PEImage | DefectError:
        try:
            with entry.open() as stream:
                return read_pe(stream, entry.size)
        except DefectError as e:
            return e
        except InputError:
            raise
        except DllDoctorError as e:
            return DefectError("unparseable", str(e))
        except (OSError, EOFError, ValueError) as e:
            # A zip member whose CRC or deflate stream is broken, or a file that vanished mid-read.
            return DefectError("unparseable", f"reading failed: {e}")
