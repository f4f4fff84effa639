"""Regular expressions from rule files, compiled with RE2 so matching time is linear in the text.

Patterns come from strangers and run on pasted logs of any size, so Python's backtracking ``re`` is never
used for them. RE2 rejects what it cannot run in linear time (backreferences, lookaround), and
:func:`pattern_error` turns that into a message for ``dlldoctor rules lint``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import re2

# Enough DFA memory for a set of a few hundred patterns over a 10 MB paste; past it RE2 gives up.
_MAX_MEM = 256 << 20
MAX_PATTERN_LENGTH = 2000
# Compiled size, in RE2 instructions. The largest pattern of the built-in rules compiles to about 3,300
# and all of them to 27,000; a pattern of 520 characters with repeated Unicode classes makes millions
# (seconds and tens of MB each). Lint refuses a pattern past MAX_PROGRAM, and a rule set past
# MAX_TOTAL_PROGRAM, so what a rule set may cost to load and hold is bounded.
MAX_PROGRAM = 20_000
MAX_TOTAL_PROGRAM = 400_000
# RE2 memory for the check itself: enough for MAX_PROGRAM, so an oversized pattern stops compiling early.
_CHECK_MEM = 4 << 20


@lru_cache(maxsize=2)
def _options(case_sensitive: bool) -> Any:
    options = re2.Options()
    options.log_errors = False
    options.case_sensitive = case_sensitive
    options.max_mem = _MAX_MEM
    return options


def text_pattern(pattern: str) -> str:
    """How a rule's text pattern is searched: ``^``/``$`` at line ends, ``.`` not across lines."""
    return "(?m)" + pattern


@lru_cache(maxsize=4096)
def compile_pattern(pattern: str, *, case_sensitive: bool = False) -> Any:
    """Compile with RE2 (raises ``re2.error``)."""
    return re2.compile(pattern, _options(case_sensitive))


@lru_cache(maxsize=1)
def _check_options() -> Any:
    options = re2.Options()
    options.log_errors = False
    options.case_sensitive = False
    options.max_mem = _CHECK_MEM
    return options


@lru_cache(maxsize=4096)
def pattern_cost(pattern: str) -> int:
    """RE2 instructions ``pattern`` compiles to as a text pattern (0 when it does not compile)."""
    try:
        return int(re2.compile(text_pattern(pattern), _check_options()).programsize)
    except re2.error:
        return 0


def _quoted(pattern: str) -> str:
    return repr(pattern if len(pattern) <= 60 else pattern[:57] + "...")


def pattern_error(pattern: str) -> str | None:
    """Why RE2 cannot use ``pattern``, or None when it can."""
    if len(pattern) > MAX_PATTERN_LENGTH:
        return f"pattern longer than {MAX_PATTERN_LENGTH} characters"
    try:
        # Checked with little memory first: an oversized program fails here, fast, instead of being built.
        compiled = re2.compile(text_pattern(pattern), _check_options())
    except re2.error as e:
        detail = e.args[0] if e.args else e
        if isinstance(detail, bytes):
            detail = detail.decode("utf-8", "replace")
        if "too large" in str(detail) or "too big" in str(detail):
            return f"pattern compiles to more than {MAX_PROGRAM} RE2 instructions: {_quoted(pattern)}"
        return f"pattern {pattern!r} is not valid RE2 syntax (no backreferences or lookaround): {detail}"
    if compiled.programsize > MAX_PROGRAM:
        return (
            f"pattern compiles to {compiled.programsize} RE2 instructions, more than {MAX_PROGRAM} "
            f"(split it or use literal words): {_quoted(pattern)}"
        )
    if compiled.search("") is not None and compiled.fullmatch("") is not None:
        return f"pattern {pattern!r} matches the empty string, so it matches every text"
    return None


class PatternSet:
    """Many patterns searched in one pass (RE2::Set): which of them occur anywhere in a text."""

    def __init__(self, patterns: Sequence[str]) -> None:
        self.patterns = tuple(patterns)
        self._set: Any = None
        if self.patterns:
            s = re2.Set.SearchSet(_options(False))
            for p in self.patterns:
                s.Add(p)
            s.Compile()
            self._set = s

    def search(self, data: bytes) -> frozenset[int]:
        """Indexes of the patterns that occur in ``data`` (UTF-8)."""
        if self._set is None:
            return frozenset()
        found = self._set.Match(data)
        return frozenset(found or ())


class PatternFilter:
    """Many patterns from rule files, and which of them occur in a text (RE2's FilteredRE2).

    Unlike one RE2::Set, whose DFA can thrash when many patterns with ``[^\\n]*`` gaps are alive at once
    (seconds on a 10 MB log), this first looks for the literal atoms each pattern needs, with one small
    set, then runs only the patterns whose atoms are there, each on its own.
    """

    def __init__(self, patterns: Sequence[str]) -> None:
        self.patterns = tuple(patterns)
        self._filter: Any = None
        if self.patterns:
            f = re2.Filter()
            for p in self.patterns:
                f.Add(p, _options(False))
            f.Compile()
            self._filter = f

    def search(self, data: bytes) -> frozenset[int]:
        """Indexes of the patterns that occur in ``data`` (UTF-8)."""
        if self._filter is None:
            return frozenset()
        return frozenset(self._filter.Match(data) or ())

    def compiled(self, index: int) -> Any:
        """The compiled pattern ``index`` (already compiled by the filter)."""
        return self._filter.re(index)
