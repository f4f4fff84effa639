"""The blind batches from corpus/heldout9/ on: resolved public reports collected blind, each by collectors who read
nothing of the project, merged unread, and measured once on the commit its collection started from and once after
the round of work that followed (corpus/measurements.yaml tells each batch's story and figures). Each batch's cases
share nothing with the corpus and the batches before it, say what each text is, and print their figures (and the
same for their Python reports and for texts that quote the error, aggregates only); nobody changes rules because of
a batch while it is blind. A batch counted in the priors later (diagnose/priors_build.py) and read is in-sample
from then on: scripts/measure.py --loo and scripts/crossval.py give the figures that leave it out.

    python -m pytest -s tests/test_batches.py -k "figures and heldout22"
"""

from __future__ import annotations

from typing import NamedTuple

import pytest
from test_heldout import (
    assert_batch_says_what_each_text_is,
    batch_folder,
    batch_items,
    overlaps_with_earlier,
    shown_batch_figures,
)

from dlldoctor.kb.ruleset import RuleSet


class Batch(NamedTuple):
    number: int
    ordinal: str
    cases: int  # at least this many cases were kept
    scored: int  # ... and at least this many scored (not `other`)


BATCHES = (
    Batch(9, "ninth", 80, 80),
    Batch(10, "tenth", 80, 80),
    Batch(11, "eleventh", 70, 65),  # short of 80: the stored threads were nearly all taken
    Batch(12, "twelfth", 80, 80),
    Batch(13, "thirteenth", 80, 75),
    Batch(14, "fourteenth", 70, 65),  # short of 80: the search budget ran out for two collectors
    Batch(15, "fifteenth", 89, 70),
    Batch(16, "sixteenth", 80, 70),
    Batch(17, "seventeenth", 80, 70),
    Batch(18, "eighteenth", 95, 85),
    Batch(19, "nineteenth", 105, 95),
    Batch(20, "twentieth", 140, 124),  # 149 merged, nine overlaps dropped unread
    Batch(21, "twenty-first", 183, 161),  # 192 merged, nine overlaps dropped unread
    Batch(22, "twenty-second", 316, 294),  # 333 written, three over the per-repository cap, 14 overlaps
    Batch(23, "twenty-third", 152, 140),  # 158 written, six overlaps dropped unread
    Batch(24, "twenty-fourth", 216, 195),  # 229 written, three over the per-repository cap, ten overlaps
    Batch(25, "twenty-fifth", 415, 397),  # 426 written, eight over the cap, three repeated sources
    Batch(
        26, "twenty-sixth", 292, 256
    ),  # 294 written, one over the per-repository cap, one overlap dropped unread
    Batch(
        27, "twenty-seventh", 354, 331
    ),  # 363 written, eight over the per-repository cap, one overlap dropped
)
# The first three batches marked each text a paste or a title only, and did not say which process it came from.
TWO_KINDS = frozenset({9, 10, 11})
IDS = [f"heldout{b.number}" for b in BATCHES]


@pytest.mark.parametrize("batch", BATCHES, ids=IDS)
def test_batch_shares_nothing_with_the_other_corpora(batch: Batch) -> None:
    assert overlaps_with_earlier(batch.number) == []


@pytest.mark.parametrize("batch", BATCHES, ids=IDS)
def test_batch_says_what_each_text_is(batch: Batch) -> None:
    if batch.number in TWO_KINDS:
        items = batch_items(batch_folder(batch.number))
        assert len(items) >= batch.cases
        assert {str(i.get("text_kind")) for i in items.values()} == {"paste", "title"}
    else:
        assert_batch_says_what_each_text_is(batch.number, batch.cases)


@pytest.mark.parametrize("batch", BATCHES, ids=IDS)
def test_batch_figures(batch: Batch, rule_set: RuleSet, capsys: pytest.CaptureFixture[str]) -> None:
    assert shown_batch_figures(batch.ordinal, batch.number, rule_set, capsys).overall.cases >= batch.scored
