"""The differential diagnosis: which causes a loader error can have, and how likely each is before the rules.

A recognised loader error is summarised by an evidence key — the error code, the kind of DLL it names and the
loading API (:func:`evidence_keys`) — and by the cues of rules/data/cues.yaml its text shows. The priors
(rules/data/priors.yaml, counted from labelled real reports by ``dlldoctor rules priors``) say how often each
cause explained that evidence, how often it explained reports showing each cue, how often reports naming
each package, module or DLL, and how often reports using each of the most telling words. The ranking adds the
log of that ratio to each rule's score, and names up to three distinct causes even when fewer rules fired: a
bare "DLL load failed" gets candidates, ordered by how often each explains it. A text that names a DLL and states
no failure (the derived fact ``dll-named``, a report told in words) gets candidates too, its key ``via=named``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from dlldoctor.diagnose.words import report_words
from dlldoctor.kb.messages import POPUP_KINDS
from dlldoctor.kb.model import Examples, Rule, Text
from dlldoctor.kb.priors import ANY, Priors
from dlldoctor.kb.ruleset import RuleSet
from dlldoctor.text.facts import ErrorFacts
from dlldoctor.text.shapes import DLL_NAME

# Codes that only a failed load produces (NTSTATUS values as the loader pop-ups print them).
LOADER_CODES = frozenset(
    {126, 127, 182, 193, 216, 1114, 1455, 4551, 0xC000007B, 0xC0000135, 0xC0000139, 0xC0000142}
)
# Statement shapes that are themselves a failed load, whatever the code: the loader's pop-ups, and these.
LOADER_SHAPES = frozenset(
    {
        "python",
        "python-conflict",
        "ctypes",
        "error-loading",
        "depends-missing",
        "load-library",
        "entry-point",
        "retold",
        "topic",
    }
) | frozenset(POPUP_KINDS)
_CODE_CLASS = {216: 193, 0xC000007B: 193, 0xC0000135: 126, 0xC0000139: 127, 0xC0000142: 1114}
_VIA = (
    ("ctypes", "ctypes"),
    ("error-loading", "preload"),
    ("depends-missing", "preload"),
    ("python", "import"),
    ("python-conflict", "import"),
    ("load-library", "loadlibrary"),
)
# How much the evidence of how often a cause explains such errors weighs against a rule's score, and the
# score of a cause that no rule named but the priors do. Chosen on a grid (0.5-3 x 2-6) for top-1 on
# corpus/errors (not counted in the priors) and leave-one-out on the counted corpora (scripts/measure.py);
# top-3 does not depend on them.
PRIOR_WEIGHT = 0.5
CANDIDATE_SCORE = 2.0
DISTINCT = 3
NAMED_DLLS = 3  # how many of the DLLs a text names without stating a failure count as its names
_DLL = re.compile(DLL_NAME)  # error_dlls are lower-case, as DLL_NAME's extension is
_RANDOM = re.compile(r"\d{8}")


def is_loader_error(facts: ErrorFacts) -> bool:
    if facts.error_code in LOADER_CODES:
        return True
    return any(e.kind in LOADER_SHAPES for e in facts.events)


def answered_by_priors(facts: ErrorFacts) -> bool:
    """Whether the priors speak of a text (and count it when it is a labelled report): a loader error, or a text that
    names a DLL but states no failure (a report told in words)."""
    return is_loader_error(facts) or facts.told_in_words


def evidence_keys(facts: ErrorFacts) -> tuple[str, ...]:
    """The evidence of a loader error, most general first: ``*``, the code, + the DLL, + the loading API."""
    code = facts.error_code
    code_key = str(_CODE_CLASS.get(code, code)) if code is not None else "none"
    if code is not None and int(code_key) not in LOADER_CODES:
        code_key = "other"
    named = facts.told_in_words
    # a text that states no failure is summarised by the first DLL it names, and by how it came: named
    dll = facts.dll or (facts.dlls[0] if named else None)
    if dll is None:
        dll_key = "none"
    elif dll.endswith(".pyd"):
        dll_key = "pyd"
    else:
        dll_key = next((fam for name, fam in facts.families if name == dll), "other")
    kinds = {e.kind for e in facts.events}
    via = next((v for kind, v in _VIA if kind in kinds), "named" if named else "message")
    c = f"code={code_key}"
    return (ANY, c, f"{c} dll={dll_key}", f"{c} dll={dll_key} via={via}")


def report_names(facts: ErrorFacts) -> tuple[str, ...]:
    """What a text names that the priors count: its packages (those of its paths and version mentions, as the
    index spells them), the top-level name of the module whose import failed, lower-case (``torch._C`` ->
    ``torch``, ``_errors``), and the DLLs its error statements name (``libvlc.dll``)."""
    names = {name for name, _ in facts.packages}
    if facts.module:
        names.add(facts.module.split(".")[0].lower())
    names.discard("")
    # a DLL as the extractor read it, not a temporary copy's random name (``jna1644595665224573683.dll``)
    # (a text that states no failure: the first DLLs it names)
    given = facts.dlls[:NAMED_DLLS] if facts.told_in_words else facts.error_dlls
    names.update(d for d in given if _DLL.fullmatch(d) and not _RANDOM.search(d))
    return tuple(sorted(names))


@dataclass(frozen=True)
class Differential:
    keys: tuple[str, ...]
    prior: tuple[tuple[str, float], ...]  # (category, P(category | evidence)), most likely first
    priors: Priors
    cues: tuple[str, ...] = ()  # the cues of rules/data/cues.yaml the text shows, weighed into `prior`
    names: tuple[str, ...] = ()  # the packages, modules and DLLs it names that the priors count, weighed too
    named: bool = False  # the text names a DLL but states no failure (the derived fact dll-named)

    def p(self, category: str) -> float:
        return dict(self.prior).get(category, 0.0)

    def bonus(self, category: str) -> float:
        """What the priors add to a cause's score: the log of its probability over the uniform one."""
        n = len(self.prior) or 1
        return PRIOR_WEIGHT * math.log(max(self.p(category), 1e-6) * n)

    def support(self, category: str) -> tuple[int, int, str]:
        return self.priors.support(self.keys, category)


def differential_for(facts: ErrorFacts, rule_set: RuleSet) -> Differential | None:
    """The priors for this text's evidence, or None when they do not speak of it (:func:`answered_by_priors`) or
    there are none."""
    if rule_set.priors.empty or not answered_by_priors(facts) or "other-os" in facts.derived:
        return None  # not a loader error, or one of Linux or macOS, which the labelled Windows reports do not cover
    keys = evidence_keys(facts)
    priors = rule_set.priors
    cues = tuple(c for c in rule_set.cues.found(facts.data) if c in priors.cue_counts)
    names = tuple(n for n in report_names(facts) if n in priors.name_counts)
    words = tuple(sorted(w for w in report_words(facts.text) if w in priors.word_counts))
    dist = priors.with_cues(priors.distribution(keys), cues, rule_set.cues.ids, names, words)
    ruled_out = rule_set.ruled_out_by(facts.derived)
    if ruled_out:
        # A native program's error cannot be a conda activation, the Store's Python, Python's search path or
        # the wrong interpreter; an activated environment's prompt is no environment run without activation.
        kept = {c: p for c, p in dist.items() if c not in ruled_out}
        total = sum(kept.values())
        dist = {c: p / total for c, p in kept.items()} if total else {}
    ordered = tuple(sorted(dist.items(), key=lambda kv: (-kv[1], kv[0])))
    return Differential(keys, ordered, priors, cues, names, facts.told_in_words)


def candidate_rule(category: str, rule_set: RuleSet) -> Rule | None:
    """A cause named by the priors alone: its representative rule's explanation, marked as a candidate."""
    rule_id = dict(rule_set.representatives).get(category)
    rule = rule_set.get(rule_id) if rule_id else None
    if rule is None:
        return None
    return replace(
        rule,
        id=f"possible-{category}",
        severity="warning",
        title=Text(
            en=rule.title.en
            if rule.title.en.startswith("Possible cause")
            else "Possible cause: " + rule.title.en,
            zh=rule.title.zh if rule.title.zh.startswith("可能的原因") else "可能的原因：" + rule.title.zh,
        ),
        examples=Examples((), (), ()),
    )
