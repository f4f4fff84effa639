"""Dotted version numbers and the small range language rules use (``">=3.8,<3.13"``)."""

from __future__ import annotations

import re

_CLAUSE = re.compile(r"\s*(==|!=|>=|<=|>|<)\s*(\d+(?:\.\d+)*)(\.\*)?\s*")
_RELEASE = re.compile(r"\d+(?:\.\d+)*")


def release(version: str) -> tuple[int, ...] | None:
    """The numeric release part of a version (``"2.1.0+cu121"`` → ``(2, 1, 0)``), or None."""
    m = _RELEASE.match(version.strip().lstrip("vV"))
    return tuple(int(p) for p in m.group(0).split(".")) if m else None


def in_range(version: str, spec: str) -> bool:
    """Whether ``version`` satisfies every comparison of ``spec``.

    Each comparison looks at as many release numbers as its bound has (missing ones count as 0), so
    Python 3.11.4 is ``==3.11``, ``<=3.11`` and ``<3.12``; ``.*`` is accepted and means the same.
    Local and pre-release parts are ignored (``2.1.0+cu121`` is 2.1.0).
    """
    have = release(version)
    if have is None:
        return False
    for part in spec.split(","):
        m = _CLAUSE.fullmatch(part)
        if m is None:
            return False
        op = m.group(1)
        bound = tuple(int(p) for p in m.group(2).split("."))
        mine = (have + (0,) * len(bound))[: len(bound)]
        ok = {
            "==": mine == bound,
            "!=": mine != bound,
            ">=": mine >= bound,
            "<=": mine <= bound,
            ">": mine > bound,
            "<": mine < bound,
        }[op]
        if not ok:
            return False
    return True
