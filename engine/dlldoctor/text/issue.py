"""The error text in an issue or a comment (GitHub Markdown): what a reader of the issue would copy.

The body is cut into segments: each fenced code block (```` ``` ```` or ``~~~``, its contents as they are),
each run of quoted lines (``>`` taken off, nested quotes too), and each paragraph of plain lines. HTML
comments (what issue templates leave in) are dropped. When a segment holds a loader error, the answer is
every code and quoted segment (they carry the traceback and the ``pip list`` beside it) and the plain
paragraphs that hold an error themselves; prose without one is left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from dlldoctor.kb.families import Families
from dlldoctor.kb.messages import Messages
from dlldoctor.text.facts import MAX_TEXT, extract_facts

SegmentKind = Literal["code", "quote", "plain"]

_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_QUOTE = re.compile(r"^ {0,3}>")


@dataclass(frozen=True)
class Segment:
    kind: SegmentKind
    text: str


def _unquote(line: str) -> str:
    while _QUOTE.match(line):
        line = _QUOTE.sub("", line, count=1)
        line = line[1:] if line.startswith(" ") else line
    return line


def segments(body: str) -> list[Segment]:
    """The body's code blocks, quotes and plain paragraphs, in order (empty ones left out)."""
    out: list[Segment] = []
    kind: SegmentKind = "plain"
    lines: list[str] = []
    fence = ""

    def close(next_kind: SegmentKind) -> None:
        nonlocal kind, lines
        text = "\n".join(lines).strip("\n")
        if text.strip():
            out.append(Segment(kind, text + "\n"))
        kind, lines = next_kind, []

    for line in _COMMENT.sub("", body[:MAX_TEXT]).splitlines():
        if fence:
            if line.strip().startswith(fence) and not line.strip()[len(fence) :].strip(fence[0] + " "):
                close("plain")
                fence = ""
            else:
                lines.append(line)
            continue
        opened = _FENCE.match(line)
        if opened:
            close("code")
            fence = opened.group(1)
            continue
        if _QUOTE.match(line):
            inner = _unquote(line)
            inner_fence = _FENCE.match(inner)
            if inner_fence:  # a code block inside a quote: its lines stay quoted, the fence goes
                continue
            if kind != "quote":
                close("quote")
            lines.append(inner)
            continue
        if not line.strip():
            close("plain")
            continue
        if kind != "plain":
            close("plain")
        lines.append(line)
    close("plain")
    return out


def loader_error_text(body: str, *, messages: Messages, families: Families) -> str | None:
    """The parts of ``body`` to explain, or None when no segment holds a loader error."""
    found = segments(body)

    def has_error(segment: Segment) -> bool:
        return extract_facts(segment.text, messages=messages, families=families).found_anything

    with_error = [has_error(s) for s in found]
    if not any(with_error):
        return None
    kept = [s.text for s, error in zip(found, with_error, strict=True) if s.kind != "plain" or error]
    return "\n".join(kept)
