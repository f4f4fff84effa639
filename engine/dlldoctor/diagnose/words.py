"""The words of a report that the priors learn from: which causes the labelled reports using a word had.

Hand-written cues (rules/data/cues.yaml) name what an engineer knows shifts the odds; these are counted
instead. A report's words are its lower-case Latin words (a letter, then two to 23 letters, digits, "+" or "#";
a longer run is cut into pieces) and the pairs of neighbouring characters of its Chinese and Japanese runs,
each counted once per report. ``dlldoctor rules priors`` keeps the words most informative about the cause
among the labelled loader errors (mutual information, at least :data:`MIN_REPORTS` reports each) and stores
their counts in priors.yaml.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping

_LATIN = re.compile(r"[a-z][a-z0-9+#]{2,23}")
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]{2,}")
_DIGITS = re.compile(r"\d{3,}")
# Words that every kind of report uses, kept out before counting.
_COMMON_WORDS = (
    "the and for you with this that not are was but have has had from can all any when what which will would "
    "there their then than them they one two use used using get got also just like some into out its our your "
    "his her she him how why where who been being were did does doing done yes may might could should must "
    "shall very more most much many such only other same each both few own too well even still here now again "
    "about after before above below over under between through during while"
)
_COMMON = frozenset(_COMMON_WORDS.split())
MIN_REPORTS = 5  # a word fewer labelled reports use says nothing the counts can trust
KEPT = 400  # how many words the priors keep, the most informative first
_LONGEST = 20_000  # characters of a text read for its words


def report_words(text: str) -> frozenset[str]:
    """The words of ``text`` (see the module's doc), each once."""
    text = text[:_LONGEST].lower()
    words = {w for w in _LATIN.findall(text) if w not in _COMMON and not _DIGITS.search(w)}
    for run in _CJK_RUN.findall(text):
        words.update(run[i : i + 2] for i in range(len(run) - 1))
    return frozenset(words)


def informative_words(
    words: Mapping[str, Counter[str]], per_category: Mapping[str, int], kept: int = KEPT
) -> list[str]:
    """The ``kept`` words that tell most about the cause: the mutual information between a report using the
    word and its cause, over the words that at least :data:`MIN_REPORTS` reports use (and not all of them)."""
    total = sum(per_category.values())
    if not total:
        return []
    scored = []
    for word, counts in words.items():
        n = sum(counts.values())
        if n < MIN_REPORTS or n >= total:
            continue
        score = 0.0
        for category, reports in per_category.items():
            with_word = counts.get(category, 0)
            for joint, margin in ((with_word, n), (reports - with_word, total - n)):
                if joint:
                    score += joint / total * math.log(joint * total / (margin * reports))
        scored.append((-score, word))
    return [word for _, word in sorted(scored)[:kept]]
