"""ANSI colour for the text formats, off unless asked for."""

from __future__ import annotations

CODES = {"red": "31", "yellow": "33", "green": "32", "dim": "2", "bold": "1", "cyan": "36"}


class Style:
    def __init__(self, colour: bool) -> None:
        self.colour = colour

    def __call__(self, text: str, *styles: str) -> str:
        if not self.colour or not styles:
            return text
        codes = ";".join(CODES[s] for s in styles)
        return f"\x1b[{codes}m{text}\x1b[0m"
