"""Leave one corpus out: for each counted corpus (and heldout3, heldout4), the priors counted without it, it scored.

    python scripts/crossval.py [NAME=VALUE[,NAME=VALUE...] ...]

The figure for how the priors do on a batch they did not count, without the leak of leave-one-out (where a
case's own words still chose which words are counted). Each argument is a setting to try, its constants of
engine/dlldoctor/kb/priors.py, diagnose/differential.py or diagnose/explain.py changed (``WORD_WEIGHT=0.2``,
``PRIOR_WEIGHT=1,CANDIDATE_MARGIN=0``); the constants as they are come first. About two minutes.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import dlldoctor.diagnose.differential as differential_module
import dlldoctor.diagnose.explain as explain_module
import dlldoctor.kb.priors as priors_module
from dlldoctor.diagnose.accuracy import CaseResult, Score, load_cases
from dlldoctor.diagnose.explain import diagnose
from dlldoctor.diagnose.priors_build import PRIOR_CORPORA, priors_data
from dlldoctor.kb.priors import priors_from_data
from dlldoctor.kb.ruleset import load_rule_set
from dlldoctor.text.facts import extract_facts

ROOT = Path(__file__).resolve().parent.parent
UNCOUNTED = ("corpus/heldout3", "corpus/heldout4")


MODULES = (priors_module, differential_module, explain_module)


def apply(setting: dict[str, float]) -> None:
    for name, value in setting.items():
        holders = [m for m in MODULES if hasattr(m, name)]
        if not holders:
            raise SystemExit(f"{name}: no such constant")
        for module in holders:
            setattr(module, name, value)


def parse(arg: str) -> dict[str, float]:
    return {k: float(v) for k, v in (part.split("=", 1) for part in arg.split(",") if part)}


def main(argv: list[str]) -> int:
    settings = [{}, *(parse(a) for a in argv)]
    names = {name for setting in settings for name in setting}
    current = {name: next(getattr(m, name) for m in MODULES if hasattr(m, name)) for name in names}
    labels = ["as it is", *argv]
    rule_set = load_rule_set()
    totals = [Score() for _ in settings]
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
        line = []
        for i, setting in enumerate(settings):
            apply({**current, **setting})
            score = Score()
            for case, f in zip(cases, facts, strict=True):
                ranked = tuple(dict.fromkeys(d.rule.category for d in diagnose(f, without)))
                rank = CaseResult(case, ranked, (), ()).rank()
                score = score.add(rank)
                totals[i] = totals[i].add(rank)
            line.append(f"{score.top1}/{score.top3}")
        print(f"{held} ({len(cases)} cases, top-1/top-3 per setting): {' '.join(line)}", flush=True)
    apply(current)
    for label, total in zip(labels, totals, strict=True):
        print(
            f"{label}: {total.cases} cases, top-1 {100 * total.top1_rate:.1f} %, top-3 {100 * total.top3_rate:.1f} %"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
