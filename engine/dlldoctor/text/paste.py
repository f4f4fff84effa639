"""What a reader of a paste checks before the facts are read: the command line and the web page refuse an
empty or binary paste with a one-line error. (Triage does not: an issue body without a loader error in it,
empty or not, is answered with nothing.)

The facts themselves read at most :data:`dlldoctor.text.facts.MAX_TEXT` characters, so a long paste costs
bounded time wherever it comes from.
"""

from __future__ import annotations

from dlldoctor.errors import InputError

_TEXT_CONTROLS = frozenset("\t\n\r\x1b\x0c")


def looks_binary(text: str) -> bool:
    """More than 5 % control characters (other than tabs, line ends and ANSI escapes): not a paste."""
    sample = text[:65536]
    controls = sum(1 for ch in sample if ch < " " and ch not in _TEXT_CONTROLS)
    return controls > len(sample) // 20


def check_paste(text: str) -> str:
    """The text itself, or :class:`InputError` when it is empty or binary."""
    if not text.strip():
        raise InputError("the error text is empty: paste the traceback or the pop-up's message")
    if looks_binary(text):
        raise InputError("this looks like a binary file, not an error text")
    return text
