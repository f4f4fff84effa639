"""How often each cause explains a kind of evidence in labelled real reports (rules/data/priors.yaml).

The counts are generated from the corpus by ``dlldoctor rules priors`` and never edited by hand. An
evidence key names what a text shows at a few levels of detail, most general first (``*``, ``code=126``,
``code=126 dll=none``, ``code=126 dll=none via=import``); :meth:`Priors.distribution` backs off from the most
specific level that has reports to the general ones, so a rare combination borrows from its parents.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

ANY = "*"
# How much one cue weighs (an exponent on its odds ratio) and how many reports its counts are smoothed with.
# Chosen on a grid (0.2-1.3 x 2-5), leave-one-out on the counted corpora (469 reports): with 0.3, first
# chosen when they held 328, top-1 and top-3 rose steadily up to about 0.8 and barely beyond it.
CUE_WEIGHT = 0.8
CUE_SMOOTHING = 3.0
# How much each counted word a report uses weighs (see engine/dlldoctor/diagnose/words.py): far less than a cue,
# as a report's words say the same thing many times over. Chosen leaving one corpus out at a time (priors counted
# without it, it scored; scripts/crossval.py), 2595 reports: top-1 51.5 % without words, 51.9 % with 0.1, 52.1 %
# with 0.2, top-3 68.5 / 68.6 / 68.7 %. The gain is marginal (about ten reports); 0.1 was chosen before the last
# figures, on an earlier rule set (51.3 -> 51.7 %), and kept.
WORD_WEIGHT = 0.1


@dataclass(frozen=True)
class Priors:
    categories: tuple[str, ...]  # the causes that can be counted (every taxonomy key but `other`)
    counts: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()  # key -> ((category, n), ...)
    smoothing: float = 2.0  # how many reports a parent level's distribution is worth
    sources: tuple[str, ...] = ()
    cases: int = 0
    cues: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()  # cue -> ((category, n), ...)
    names: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()  # name -> ((category, n), ...)
    words: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()  # word -> ((category, n), ...)

    @property
    def empty(self) -> bool:
        return not self.counts

    def count(self, key: str) -> dict[str, int]:
        return dict(next((c for k, c in self.counts if k == key), ()))

    def distribution(self, keys: tuple[str, ...]) -> dict[str, float]:
        """P(cause | evidence), from the general key ``*`` down to the most specific of ``keys``."""
        cats = self.categories
        if not cats:
            return {}
        base = self.count(ANY)
        total = sum(base.values())
        dist = {c: (base.get(c, 0) + 1.0) / (total + len(cats)) for c in cats}
        for key in keys:
            if key == ANY:
                continue
            counts = self.count(key)
            n = sum(counts.values())
            if not n:
                continue
            m = self.smoothing
            dist = {c: (counts.get(c, 0) + m * dist[c]) / (n + m) for c in cats}
        return dist

    @cached_property
    def cue_counts(self) -> dict[str, dict[str, int]]:
        """cue -> {category: reports}, from :attr:`cues`."""
        return {cue: dict(table) for cue, table in self.cues}

    @cached_property
    def name_counts(self) -> dict[str, dict[str, int]]:
        """name (a package, a module, a DLL) -> {category: reports}, from :attr:`names`."""
        return {name: dict(table) for name, table in self.names}

    @cached_property
    def word_counts(self) -> dict[str, dict[str, int]]:
        """word -> {category: reports}, from :attr:`words`."""
        return {word: dict(table) for word, table in self.words}

    def with_cues(
        self,
        dist: dict[str, float],
        cues: tuple[str, ...],
        known: frozenset[str] | None = None,
        names: tuple[str, ...] = (),
        words: tuple[str, ...] = (),
    ) -> dict[str, float]:
        """``dist`` weighed by the cues a text shows, as naive Bayes would, each cue's weight damped.

        For each cue the text shows, the odds of a cause among the reports that show it over its odds among
        all reports (smoothed toward the latter by :data:`CUE_SMOOTHING` reports) multiply the cause's
        probability; for each counted cue it does not show, how often the cause's reports lack the cue over
        how often all reports do. Each factor is raised to :data:`CUE_WEIGHT`: cues are not independent of
        each other or of the evidence key. ``known``: the cues that can be seen at all (those of cues.yaml);
        a counted cue outside it says nothing by its absence. ``names``: the packages, modules and DLLs the text
        names, each weighed as a cue it shows (a name it does not give says nothing). ``words``: the counted words
        it uses, each weighed the same way with :data:`WORD_WEIGHT`.
        """
        counted = self.cue_counts
        cats = self.categories
        base = self.count(ANY)
        total = sum(base.values())
        if not total or not cats:
            return dist
        overall = {c: (base.get(c, 0) + 1.0) / (total + len(cats)) for c in cats}
        logs = {c: math.log(max(dist.get(c, 0.0), 1e-9)) for c in cats}
        shown_counts = [(CUE_WEIGHT, counted.get(cue, {})) for cue in cues]
        shown_counts += [(CUE_WEIGHT, self.name_counts.get(name, {})) for name in names]
        shown_counts += [(WORD_WEIGHT, self.word_counts.get(word, {})) for word in words]
        for weight, counts in shown_counts:
            n = sum(counts.values())
            if not n:
                continue
            for c in cats:
                p = (counts.get(c, 0) + CUE_SMOOTHING * overall[c]) / (n + CUE_SMOOTHING)
                logs[c] += weight * (math.log(p) - math.log(overall[c]))
        # A cue the text does not show is evidence too, weaker: a conda environment that was not activated is
        # rarely reported without a word of conda.
        shown = set(cues)
        for cue, counts in counted.items():
            n = sum(counts.values())
            if cue in shown or not n or n >= total or (known is not None and cue not in known):
                continue
            p_cue = n / total
            for c in cats:
                p = (counts.get(c, 0) + CUE_SMOOTHING * p_cue) / (base.get(c, 0) + CUE_SMOOTHING)
                logs[c] += CUE_WEIGHT * (math.log(max(1.0 - p, 1e-6)) - math.log(1.0 - p_cue))
        top = max(logs.values())
        weights = {c: math.exp(v - top) for c, v in logs.items()}
        z = sum(weights.values())
        return {c: w / z for c, w in weights.items()}

    def support(self, keys: tuple[str, ...], category: str) -> tuple[int, int, str]:
        """(reports with this category, reports in all, key) at the most specific key that has reports."""
        for key in reversed(keys):
            counts = self.count(key)
            n = sum(counts.values())
            if n:
                return counts.get(category, 0), n, key
        return 0, 0, ANY


def log_prior(p: float) -> float:
    return math.log(max(p, 1e-6))


def priors_from_data(data: Any, categories: tuple[str, ...]) -> Priors:
    return Priors(
        categories=categories,
        counts=_table(data, "counts"),
        smoothing=float(data.get("smoothing", 2.0)),
        sources=tuple(str(s) for s in data.get("sources") or ()),
        cases=int(data.get("cases", 0)),
        cues=_table(data, "cues"),
        names=_table(data, "names"),
        words=_table(data, "words"),
    )


def _table(data: Any, part: str) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
    """One part of a priors file (key -> {category: n}) as sorted tuples."""
    return tuple(
        (str(key), tuple(sorted((str(c), int(n)) for c, n in (value or {}).items())))
        for key, value in sorted((data.get(part) or {}).items())
    )


def check_priors(data: Any, categories: frozenset[str]) -> list[tuple[list[str | int], str]]:
    """Problems of a priors file: (path in the data, message)."""
    if not isinstance(data, dict) or not isinstance(data.get("counts"), dict):
        return [([], "expected a mapping with `counts:` (run `dlldoctor rules priors`)")]
    problems: list[tuple[list[str | int], str]] = []
    cues = data.get("cues") or {}
    if not isinstance(cues, dict):
        return [(["cues"], "expected a mapping of cue to counts (run `dlldoctor rules priors`)")]
    names = data.get("names") or {}
    if not isinstance(names, dict):
        return [(["names"], "expected a mapping of name to counts (run `dlldoctor rules priors`)")]
    words = data.get("words") or {}
    if not isinstance(words, dict):
        return [(["words"], "expected a mapping of word to counts (run `dlldoctor rules priors`)")]
    base = data["counts"].get(ANY) if isinstance(data["counts"].get(ANY), dict) else {}
    for part, table in (("counts", data["counts"]), ("cues", cues), ("names", names), ("words", words)):
        for key, value in table.items():
            if not isinstance(value, dict):
                problems.append(([part, str(key)], "expected a mapping of category to count"))
                continue
            for cat, n in value.items():
                if cat not in categories:
                    problems.append(([part, str(key), str(cat)], f"unknown category {cat!r}"))
                if not isinstance(n, int) or n < 0:
                    problems.append(([part, str(key), str(cat)], "a count is a non-negative integer"))
                elif part != "counts" and n > (base.get(cat) or 0):
                    problems.append(([part, str(key), str(cat)], f"more reports than {cat!r} has in `*`"))
    return problems
