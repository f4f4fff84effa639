"""Top-1 / top-3 / silent figures on the corpora a rule author may read (never corpus/heldout3/).

python scripts/measure.py [--misses] corpus/errors corpus/heldout corpus/heldout2
"""

from __future__ import annotations

import sys
from pathlib import Path

from dlldoctor.diagnose.accuracy import evaluate, load_cases
from dlldoctor.kb.ruleset import load_rule_set

BLIND = "heldout3"


def main(argv: list[str]) -> int:
    show = "--misses" in argv
    folders = [Path(a) for a in argv if not a.startswith("--")]
    rule_set = load_rule_set()
    for folder in folders:
        if BLIND in folder.parts:
            raise SystemExit(f"{folder}: the blind batch is measured by the lead only")
        cases = [c for c in load_cases(folder) if c.category != "other"]
        report = evaluate(cases, rule_set)
        o = report.overall
        silent = [r for r in report.results if not r.ranked]
        print(
            f"{folder}: {o.cases} cases, top-1 {100 * o.top1_rate:.1f} %, top-3 {100 * o.top3_rate:.1f} %, "
            f"no diagnosis {len(silent)}"
        )
        if show:
            for r in report.results:
                if r.rank() != 1:
                    print(f"  {r.case.id:<34} rank {r.rank()} got {', '.join(r.ranked[:3]) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
