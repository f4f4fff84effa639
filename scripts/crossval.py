"""Leave one corpus out: for each counted corpus (and heldout3, heldout4), the priors counted without it, it scored.

    python scripts/crossval.py [WORD_WEIGHT ...]

The figure for how the priors do on a batch they did not count, without the leak of leave-one-out (where a
case's own words still chose which words are counted). Each weight given is tried in turn (default: the one
of engine/dlldoctor/kb/priors.py). About two minutes.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import dlldoctor.kb.priors as priors_module
from dlldoctor.diagnose.accuracy import load_cases
from dlldoctor.diagnose.explain import diagnose
from dlldoctor.diagnose.priors_build import PRIOR_CORPORA, priors_data
from dlldoctor.kb.priors import priors_from_data
from dlldoctor.kb.ruleset import load_rule_set
from dlldoctor.text.facts import extract_facts

ROOT = Path(__file__).resolve().parent.parent
UNCOUNTED = ("corpus/heldout3", "corpus/heldout4")


def main(argv: list[str]) -> int:
    weights = [float(a) for a in argv] or [priors_module.WORD_WEIGHT]
    rule_set = load_rule_set()
    totals = {w: [0, 0, 0] for w in weights}
    for held in (*PRIOR_CORPORA, *UNCOUNTED):
        counted = [c for c in PRIOR_CORPORA if c != held]
        priors = priors_from_data(priors_data(ROOT, rule_set, counted), rule_set.priors.categories)
        without = replace(rule_set, priors=priors)
        cases = [c for c in load_cases(ROOT / held) if c.category not in (None, "other")]
        facts = [
            extract_facts(
                c.text, messages=rule_set.messages, families=rule_set.families, releases=rule_set.releases
            )
            for c in cases
        ]
        line = [held]
        for w in weights:
            priors_module.WORD_WEIGHT = w
            top1 = top3 = 0
            for case, f in zip(cases, facts, strict=True):
                ranked = list(dict.fromkeys(d.rule.category for d in diagnose(f, without)))
                rank = next((i for i, c in enumerate(ranked, 1) if c in case.expected), None)
                top1 += rank == 1
                top3 += rank is not None and rank <= 3
            totals[w][0] += len(cases)
            totals[w][1] += top1
            totals[w][2] += top3
            line.append(f"word weight {w}: top-1 {top1}, top-3 {top3} of {len(cases)}")
        print("  ".join(line), flush=True)
    for w, (n, top1, top3) in totals.items():
        print(f"word weight {w}: {n} cases, top-1 {100 * top1 / n:.1f} %, top-3 {100 * top3 / n:.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
