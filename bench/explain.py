"""``dlldoctor explain``: a new process <= 0.3 s, one explanation in-process <= 20 ms (full rule set).

    python bench/explain.py [--repeat 5]

The texts are the real error reports of ``corpus/errors/*.yaml``. In-process: the built-in rule set is
loaded once, then ``explain_text`` runs on every text; the figure is the slowest text's best time (the
median text is printed too). New process: ``python -m dlldoctor explain TEXT`` for a typical report,
against the interpreter that starts, imports nothing of ours and exits (the anchor), with the rule
cache warm as after any first run.
"""

from __future__ import annotations

import statistics
import sys
import time

import _common as c
import yaml

TEXT = (
    'OSError: [WinError 126] The specified module could not be found. Error loading "C:\\Users\\me\\venv\\'
    'Lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.'
)


def corpus_texts() -> list[str]:
    texts = []
    for path in sorted((c.ROOT / "corpus" / "errors").glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        texts.extend(case["text"] for case in doc.get("cases", []) if case.get("text"))
    return texts


def main() -> None:
    args = c.arguments(__doc__ or "")
    print(c.machine_line())
    try:
        from dlldoctor.diagnose.explain import explain_text
        from dlldoctor.kb.ruleset import load_rule_set
    except ImportError as e:  # explain is built elsewhere; this bench runs once it exists
        print(f"explain is not available yet ({e}); nothing measured")
        return
    start = time.perf_counter()
    rule_set = load_rule_set(None)
    loaded = time.perf_counter() - start
    texts = corpus_texts()
    print(
        f"\n## {len(texts)} corpus texts, {len(rule_set.active_rules())} rules (rule set loaded in {loaded:.3f} s)"
    )
    per_text = []
    for text in texts:
        explain_text(text, rule_set)  # warm-up
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            explain_text(text, rule_set)
            best = min(best, time.perf_counter() - start)
        per_text.append(best)
    c.report(
        "one explain in-process, slowest corpus text",
        max(per_text) * 1000,
        20.0,
        1.0,
        unit="ms",
        note=f"median text {statistics.median(per_text) * 1000:.2f} ms",
    )
    command = [sys.executable, "-m", "dlldoctor", "explain", TEXT]
    c.run_command(command)  # fills the rule cache, as any first run does
    times = c.timed(
        {
            "explain": lambda: c.run_command(command),
            "python": lambda: c.run_command([sys.executable, "-c", "pass"]),
        },
        args.repeat,
    )
    c.report(
        "`dlldoctor explain` in a new process",
        c.best(times["explain"]),
        0.3,
        1.0,
        note=c.spread(times["explain"]),
    )
    c.anchor("bare interpreter start (python -c pass)", c.best(times["python"]))
    c.save(args.json)


if __name__ == "__main__":
    main()
