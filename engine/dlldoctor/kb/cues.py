"""Words around a loader error that shift which cause is likely (rules/data/cues.yaml).

A cue is a pattern for something a report says besides the error itself: that the program was frozen with
PyInstaller, that conda or a notebook was used, the Windows release, a CUDA setup, an upgrade just made. The
rules need not name them: ``dlldoctor rules priors`` counts, for each cue, how often each cause explained the
labelled real reports that show it, and the differential weighs those counts against the evidence key's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from dlldoctor.kb.patterns import PatternFilter, pattern_error, text_pattern

_ID = re.compile(r"[a-z][a-z0-9-]*")
_KEYS = frozenset({"pattern", "what"})
MAX_CUES = 64  # each is searched in every text: a bounded number keeps explain's time bounded


@dataclass(frozen=True)
class Cues:
    entries: tuple[tuple[str, str], ...] = ()  # (cue id, RE2 pattern), in file order

    @cached_property
    def ids(self) -> frozenset[str]:
        return frozenset(cue for cue, _ in self.entries)

    @cached_property
    def _filter(self) -> PatternFilter:
        return PatternFilter([text_pattern(pattern) for _, pattern in self.entries])

    def found(self, data: bytes) -> tuple[str, ...]:
        """The cues a UTF-8 text shows, in file order (one pass over the text)."""
        if not self.entries:
            return ()
        hits = self._filter.search(data)
        return tuple(cue for i, (cue, _) in enumerate(self.entries) if i in hits)


NO_CUES = Cues()


def check_cues(data: Any) -> list[tuple[list[str | int], str]]:
    """Every problem of a cues.yaml document, each with the path of the node it concerns."""
    items = data.get("cues") if isinstance(data, dict) else None
    if not isinstance(items, dict) or not items:
        return [([], "expected a `cues:` mapping of cue id to its pattern")]
    problems: list[tuple[list[str | int], str]] = []
    if len(items) > MAX_CUES:
        problems.append((["cues"], f"{len(items)} cues, more than {MAX_CUES}"))
    for cue, item in items.items():
        where: list[str | int] = ["cues", str(cue)]
        if not isinstance(cue, str) or not _ID.fullmatch(cue):
            problems.append((where, "a cue id is lower-case words joined by '-'"))
        if not isinstance(item, dict):
            problems.append((where, "each cue is a mapping with `pattern` and `what`"))
            continue
        for key in sorted(set(item) - _KEYS):
            problems.append(([*where, key], f"unknown key {key!r}"))
        if not isinstance(item.get("what"), str) or not item["what"].strip():
            problems.append(([*where, "what"], "`what` says what the cue stands for"))
        pattern = item.get("pattern")
        problem = (
            pattern_error(pattern)
            if isinstance(pattern, str) and pattern
            else "`pattern` must be a non-empty string"
        )
        if problem:
            problems.append(([*where, "pattern"], problem))
    return problems


def cues_from_data(data: Any) -> Cues:
    """The cues of a document that passed :func:`check_cues`."""
    return Cues(tuple((str(cue), str(item["pattern"])) for cue, item in data["cues"].items()))
