"""``POST /api/explain`` of ``dlldoctor serve``, in-process: p95 latency over the corpus texts <= 50 ms.

    python bench/web.py [--repeat 5]

The texts are the real reports of ``corpus/errors/`` and ``corpus/reports/``. The application is built
once with the built-in rule set and called through Starlette's ASGI test client (no socket: what the
figure holds is the request's parsing, the body cap, the time cap's worker thread, the explanation and
the JSON); each text is sent ``--repeat`` times after one warm-up, and the figure is the 95th percentile of
all requests (p50 and the slowest printed beside it). ``explain_text`` alone on the same texts, measured
in the same run, is printed as the anchor: the difference is what the web layer adds.
"""

from __future__ import annotations

import statistics
import time
import warnings

import _common as c

GOAL_MS = 50.0


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> None:
    args = c.arguments(__doc__ or "")
    print(c.machine_line())
    try:
        with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 for its TestClient
            warnings.simplefilter("ignore")
            from starlette.testclient import TestClient
    except ImportError as e:
        print(f"the web extra is not installed ({e}): pip install -e '.[web]' httpx; nothing measured")
        return
    from dlldoctor.diagnose.accuracy import load_cases
    from dlldoctor.diagnose.explain import explain_text
    from dlldoctor.kb.ruleset import load_rule_set
    from dlldoctor.web.app import create_app

    rule_set = load_rule_set(None)
    texts = [
        case.text
        for folder in ("errors", "reports")
        for case in load_cases(c.ROOT / "corpus" / folder)
        if case.text.strip()
    ]
    client = TestClient(create_app(rule_set))
    print(
        f"\n## {len(texts)} corpus texts, {len(rule_set.active_rules())} rules, {args.repeat} requests each"
    )
    served: list[float] = []
    direct: list[float] = []
    for text in texts:
        client.post("/api/explain", json={"text": text})  # warm-up
        for _ in range(args.repeat):
            start = time.perf_counter()
            answer = client.post("/api/explain", json={"text": text})
            served.append(time.perf_counter() - start)
            if answer.status_code != 200:
                raise SystemExit(f"POST /api/explain: {answer.status_code} {answer.text[:200]}")
            start = time.perf_counter()
            explain_text(text, rule_set)
            direct.append(time.perf_counter() - start)
    ms = [t * 1000 for t in served]
    c.report(
        "POST /api/explain in-process, p95 over the corpus texts",
        percentile(ms, 0.95),
        GOAL_MS,
        1.0,
        unit="ms",
        note=f"p50 {statistics.median(ms):.2f} ms, slowest {max(ms):.2f} ms, {len(ms)} requests",
    )
    c.anchor("explain_text alone, p95", percentile([t * 1000 for t in direct], 0.95), unit="ms")
    c.save(args.json)


if __name__ == "__main__":
    main()
