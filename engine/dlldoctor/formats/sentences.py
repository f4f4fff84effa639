"""Sentences the engine writes in English (probe evidence, scan assumptions, error messages), said again
in another language by their template.

A table maps a stable id to ``(en, zh)``: ``en`` is the engine's sentence with ``{name}`` for each part
that varies, ``zh`` the same sentence in Chinese with the same names. A sentence that matches an ``en``
template is rebuilt from ``zh``; each part is itself looked up in the table (a sentence may hold
another), unless the caller names a way to say parts of that name (the tree's words for a ``reason``).
A sentence that matches no template stays as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

Table = Mapping[str, tuple[str, str]]
_NAME = re.compile(r"\{(\w+)\}")


def _pattern(template: str) -> re.Pattern[str]:
    pieces, last = [], 0
    for m in _NAME.finditer(template):
        pieces.append(re.escape(template[last : m.start()]))
        pieces.append(f"(?P<{m.group(1)}>.+?)")
        last = m.end()
    pieces.append(re.escape(template[last:]))
    return re.compile("".join(pieces), re.DOTALL)


_COMPILED: dict[tuple[int, ...], tuple[tuple[re.Pattern[str], str], ...]] = {}


def _compiled(tables: tuple[Table, ...]) -> tuple[tuple[re.Pattern[str], str], ...]:
    """Every template of the tables, the one with the most fixed text first (the most specific); the
    tables are module constants, so they are compiled once, on first use."""
    key = tuple(id(t) for t in tables)
    if key not in _COMPILED:
        rows = [(en, zh) for table in tables for en, zh in table.values()]
        rows.sort(key=lambda row: -len(_NAME.sub("", row[0])))
        _COMPILED[key] = tuple((_pattern(en), zh) for en, zh in rows)
    return _COMPILED[key]


def pick(table: Table, key: str, lang: str, **values: object) -> str:
    """The sentence ``key`` of ``table`` in ``lang``, its parts filled in."""
    en, zh = table[key]
    return (zh if lang == "zh" else en).format(**values)


def say(
    text: str, lang: str, *tables: Table, parts: Mapping[str, Callable[[str, str], str]] | None = None
) -> str:
    """``text`` in ``lang``: rebuilt from the first template it matches, else unchanged. ``parts`` says
    the parts of some names in their own way."""
    if lang != "zh":
        return text
    special = parts or {}
    for pattern, zh in _compiled(tables):
        m = pattern.fullmatch(text)
        if m is None:
            continue
        said = {
            name: special[name](value, lang) if name in special else say(value, lang, *tables, parts=parts)
            for name, value in m.groupdict().items()
        }
        return zh.format(**said)
    return text
