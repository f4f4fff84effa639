"""Colour for the text formats, off unless asked for; the escape codes come from rich.

rich is imported only when colour is on, so an uncoloured answer (a pipe, a file, NO_COLOR) never loads it.
"""

from __future__ import annotations

from typing import Any

NAMES = {"red": "red", "yellow": "yellow", "green": "green", "dim": "dim", "bold": "bold", "cyan": "cyan"}


class Style:
    def __init__(self, colour: bool) -> None:
        self.colour = colour
        self._cache: dict[tuple[str, ...], Any] = {}

    def __call__(self, text: str, *styles: str) -> str:
        if not self.colour or not styles:
            return text
        style = self._cache.get(styles)
        if style is None:
            from rich.style import Style as RichStyle

            style = self._cache[styles] = RichStyle.parse(" ".join(NAMES[s] for s in styles))
        from rich.color import ColorSystem

        rendered: str = style.render(text, color_system=ColorSystem.STANDARD)
        return rendered
