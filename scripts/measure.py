"""Top-1 / top-3 / silent figures and calibration on the corpora a rule author may read (never heldout3).

    python scripts/measure.py [--misses] [--loo] corpus/errors corpus/heldout corpus/heldout2

``--loo`` scores each case with priors counted without that case (leave-one-out): the honest figure for
the corpora the priors are counted from.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

from dlldoctor.diagnose.accuracy import Case, load_cases
from dlldoctor.diagnose.differential import answered_by_priors, evidence_keys, report_names
from dlldoctor.diagnose.explain import diagnose
from dlldoctor.diagnose.priors_build import PRIOR_CORPORA
from dlldoctor.diagnose.words import report_words
from dlldoctor.kb.priors import Priors
from dlldoctor.kb.ruleset import RuleSet, load_rule_set
from dlldoctor.text.facts import extract_facts

BLIND = "heldout3"
BUCKETS = ((0.0, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 0.7), (0.7, 0.9), (0.9, 1.01))


def without(
    priors: Priors,
    keys: tuple[str, ...],
    category: str,
    cues: tuple[str, ...] = (),
    names: tuple[str, ...] = (),
    words: frozenset[str] = frozenset(),
) -> Priors:
    """The priors with one case's evidence keys, cues, names and words taken out of ``category``'s counts."""

    def less(table: tuple[tuple[str, tuple[tuple[str, int], ...]], ...], mine: tuple[str, ...]) -> tuple:
        out = []
        for key, cats in table:
            c = Counter(dict(cats))
            if key in mine:
                c[category] -= 1
            out.append((key, tuple((k, v) for k, v in sorted(c.items()) if v > 0)))
        return tuple(out)

    return replace(
        priors,
        counts=less(priors.counts, keys),
        cues=less(priors.cues, cues),
        names=less(priors.names, names),
        words=less(priors.words, tuple(words)),
    )


def run(case: Case, rule_set: RuleSet, loo: bool) -> tuple[list[str], float]:
    facts = extract_facts(
        case.text, messages=rule_set.messages, families=rule_set.families, releases=rule_set.releases
    )
    rs = rule_set
    if loo and case.category and answered_by_priors(facts):
        cues = rule_set.cues.found(facts.data)
        named = report_names(facts)
        rs = replace(
            rule_set,
            priors=without(
                rule_set.priors, evidence_keys(facts), case.category, cues, named, report_words(facts.text)
            ),
        )
    diagnoses = diagnose(facts, rs)
    ranked = list(dict.fromkeys(d.rule.category for d in diagnoses))
    return ranked, diagnoses[0].confidence if diagnoses else 0.0


def main(argv: list[str]) -> int:
    show = "--misses" in argv
    loo_all = "--loo" in argv
    folders = [Path(a) for a in argv if not a.startswith("--")]
    rule_set = load_rule_set()
    calib: dict[tuple[float, float], list[int]] = {b: [0, 0] for b in BUCKETS}
    calib_resolved: dict[tuple[float, float], list[int]] = {b: [0, 0] for b in BUCKETS}
    for folder in folders:
        if BLIND in folder.parts:
            raise SystemExit(f"{folder}: the blind batch is measured by the lead only")
        loo = loo_all and folder.as_posix().rstrip("/") in PRIOR_CORPORA
        cases = [c for c in load_cases(folder) if c.category not in (None, "other")]
        top1 = top3 = silent = 0
        lines = []
        for case in cases:
            ranked, conf = run(case, rule_set, loo)
            rank = next((i for i, c in enumerate(ranked, 1) if c in case.expected), None)
            top1 += rank == 1
            top3 += rank is not None and rank <= 3
            silent += not ranked
            if ranked:
                b = next(b for b in BUCKETS if b[0] <= conf < b[1])
                calib[b][0] += 1
                calib[b][1] += rank == 1
                if folder.as_posix().rstrip("/") in PRIOR_CORPORA:
                    calib_resolved[b][0] += 1
                    calib_resolved[b][1] += rank == 1
            if show and rank != 1:
                lines.append(f"  {case.id:<34} rank {rank} got {', '.join(ranked[:3]) or '-'}")
        n = len(cases)
        print(
            f"{folder}{' (leave-one-out priors)' if loo else ''}: {n} cases, top-1 {100 * top1 / n:.1f} %, "
            f"top-3 {100 * top3 / n:.1f} %, no diagnosis {silent}"
        )
        print("\n".join(lines)) if lines else None
    for title, table in (("all sets", calib), ("resolution-labelled sets only", calib_resolved)):
        print(f"calibration on {title} (confidence of the first cause -> how often it is right):")
        for (lo, hi), (n, right) in table.items():
            if n:
                print(f"  {lo:.0%}-{min(hi, 1):.0%}: {n} cases, right {100 * right / n:.0f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
