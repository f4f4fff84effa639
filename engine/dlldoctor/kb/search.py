"""`dlldoctor search`: rules ranked by the words of a query, in any language.

Latin words are matched as lower-case substrings; Chinese, Japanese and Korean text is cut into
character pairs (so "页面文件太小" finds "页面文件太小，无法完成操作"). A DLL name in the query also finds
the rules that name its family. Each field weighs by how much it says about the rule.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from dlldoctor.kb.model import Rule
from dlldoctor.kb.ruleset import RuleSet

_WORD = re.compile(
    r"[0-9A-Za-z_.+#-]+|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+|[^\W\d_]+", re.UNICODE
)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_STOP = frozenset({"the", "a", "an", "of", "in", "on", "to", "is", "and", "or", "dll", "error", "not", "for"})

FIELD_WEIGHTS = (
    ("id", 5.0),
    ("title", 4.0),
    ("keywords", 4.0),
    ("families", 3.0),
    ("patterns", 2.0),
    ("summary", 2.0),
    ("fixes", 1.0),
    ("examples", 1.0),
)


PREVALENCE = {"common": 1.0, "occasional": 0.8, "rare": 0.6}


@dataclass(frozen=True)
class SearchHit:
    rule: Rule
    score: float
    matched: tuple[str, ...]  # the query terms found


def terms(query: str) -> list[str]:
    out: list[str] = []
    for token in _WORD.findall(query.lower()):
        token = token.strip(".-_")
        if not token:
            continue
        if _CJK.match(token):
            out += [token] if len(token) <= 2 else [token[i : i + 2] for i in range(len(token) - 1)]
        elif token not in _STOP or len(query.split()) == 1:
            out.append(token)
    return list(dict.fromkeys(out))


def _fields(rule: Rule, rule_set: RuleSet) -> dict[str, str]:
    families = [n for m in rule.match.matchers() if m.kind == "family" for n in m.names]
    family_text = " ".join(
        families + [p for f in rule_set.families.families if f.id in families for p in f.names]
    )
    return {
        "id": rule.id + " " + rule.category,
        "title": f"{rule.title.en} {rule.title.zh}",
        "keywords": " ".join(rule.keywords),
        "families": family_text,
        "patterns": " ".join(m.pattern for m in rule.match.matchers() if m.pattern)
        + " "
        + " ".join(str(c) for m in rule.match.matchers() for c in m.codes),
        "summary": f"{rule.summary.en} {rule.summary.zh}",
        "fixes": " ".join(
            f"{f.text.en} {f.text.zh} " + " ".join(c for _, c in f.commands) for f in rule.fixes
        ),
        "examples": " ".join(rule.examples.match),
    }


def message_codes(query: str, rule_set: RuleSet) -> tuple[list[int], set[str]]:
    """The error codes whose Windows message, in any language of rules/data/messages.yaml, holds every word
    of the query ("Auslagerungsdatei" is 1455, "指定されたモジュールが見つかりません" is 126), and the query
    words those messages account for."""
    words = [w for w in terms(query) if not w.isdigit()]
    if not words:
        return [], set()
    codes: list[int] = []
    for template in rule_set.messages.codes:
        if template.code is None or template.lang is None:
            continue
        text = template.text.lower()
        if all(word in text for word in words) and template.code not in codes:
            codes.append(template.code)
    return codes, set(words) if codes else set()


def search(query: str, rule_set: RuleSet, *, limit: int = 10) -> list[SearchHit]:
    words = terms(query)
    extra: list[str] = []
    for word in words:
        if word.endswith(".dll"):
            extra += [hit.family for hit in rule_set.families.classify(word)]
    if not words:
        return []
    # A system message in another language stands for its code: the rules keyed on the code.
    codes, explained = message_codes(query, rule_set)
    code_terms = [str(c) for c in codes]
    bonus = [w for w in words if w in explained]  # the message's own words: they rank, they are not required
    words = [w for w in words if w not in explained] + code_terms
    hits = []
    for rule in rule_set.rules:
        fields = {k: v.lower() for k, v in _fields(rule, rule_set).items()}
        if code_terms:
            fields["patterns"] = " ".join(str(c) for m in rule.match.matchers() for c in m.codes)
        score = sum(1.0 for word in bonus if word in fields["title"])
        matched = []
        for word in words + extra:
            best = max((w for name, w in FIELD_WEIGHTS if word in fields[name]), default=0.0)
            if best:
                score += best if word not in extra else best / 2
                if word not in extra:
                    matched.append(word)
        if not matched:
            continue
        if code_terms and not any(c in matched for c in code_terms):
            continue  # the query is an error message: only rules of its code
        # A rule matching every term beats one matching a single term many fields deep.
        coverage = len(matched) / len(words)
        if coverage < 0.5 and len(words) > 2:
            continue
        score *= coverage
        if code_terms:  # every rule of the code matches alike: the more frequent cause first
            score *= PREVALENCE.get(rule.prevalence, 0.5)
        if not rule.active:
            score *= 0.5
        hits.append(SearchHit(rule, round(score, 2), tuple(matched)))
    hits.sort(key=lambda h: (-h.score, h.rule.id))
    return hits[:limit]


def suggest(rule_id: str, rule_set: RuleSet) -> str | None:
    close = difflib.get_close_matches(rule_id, [r.id for r in rule_set.rules], n=1, cutoff=0.6)
    return close[0] if close else None
