"""The one HTML page: the paste box and the bundle field, then the answer, verdict first.

Server-side HTML that works without JavaScript; the one script (static/copy.js) only adds the copy
buttons. Every sentence of the answer is the one ``dlldoctor explain`` writes (taken from its JSON
document), the page's own words come from :mod:`dlldoctor.formats.web_words`, and every value is escaped.
"""

from __future__ import annotations

from html import escape
from typing import Any

from dlldoctor.formats.doctor import verdict_line
from dlldoctor.formats.explain import label, split_shown
from dlldoctor.formats.rule_text import SHELL_LABEL, fix_dict
from dlldoctor.formats.web_words import word
from dlldoctor.kb.ruleset import RuleSet
from dlldoctor.web.answers import Answer, BundleAnswer, TextAnswer

HTML_LANG = {"en": "en", "zh": "zh-CN"}


def render_page(
    lang: str,
    rule_set: RuleSet,
    *,
    text: str = "",
    answer: Answer | None = None,
    error: str | None = None,
) -> str:
    """The whole page in ``lang`` (the answer's language once there is one)."""
    if answer is not None:
        lang = answer.lang if isinstance(answer, BundleAnswer) else answer.explanation.lang

    def w(key: str) -> str:
        return escape(word(key, lang))

    body = [
        f"<h1>{w('title')}</h1>",
        f"<p>{w('intro')}</p>",
        '<form method="post" action="/" enctype="multipart/form-data" class="paste">',
        f'<label for="text">{w("paste-label")}</label>',
        f'<textarea id="text" name="text" rows="12" spellcheck="false">{escape(text)}</textarea>',
        f'<button type="submit" id="explain">{w("explain")}</button>',
        "</form>",
        '<form method="post" action="/" enctype="multipart/form-data" class="bundle">',
        f'<label for="bundle">{w("bundle-label")}</label>',
        '<input type="file" id="bundle" name="bundle" accept=".json,application/json">',
        f'<button type="submit" id="read-bundle">{w("read-bundle")}</button>',
        "</form>",
        f'<p class="privacy">{w("privacy")}</p>',
    ]
    if error is not None:
        body.append(f'<p class="error" id="error" role="alert">{escape(error)}</p>')
    if answer is not None:
        body += _answer(answer, rule_set)
    body.append(f"<footer><p>{w('api')}</p></footer>")
    return "\n".join(
        [
            "<!DOCTYPE html>",
            f'<html lang="{HTML_LANG[lang]}">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{w('title')}</title>",
            '<link rel="stylesheet" href="/static/page.css">',
            '<script src="/static/copy.js" defer></script>',
            "</head>",
            "<body>",
            "<main>",
            *body,
            "</main>",
            "</body>",
            "</html>",
        ]
    )


def _answer(answer: Answer, rule_set: RuleSet) -> list[str]:
    if isinstance(answer, TextAnswer):
        ex, doc = answer.explanation, answer.document
        lang = ex.lang
        full, _ = split_shown(ex)
        causes = [doc["diagnoses"][ex.diagnoses.index(d)] for d in full]
        if not causes:
            verdict = label(lang, "none" if ex.facts.found_anything else "nothing")
        elif ex.guessed:
            verdict = label(lang, "guessed")
        else:
            verdict = f"✗ {causes[0]['category']}: {causes[0]['title']}"
        decide = list(doc["decide"])
        found = bool(causes) and not ex.guessed
    else:
        lang = answer.lang
        verdict = verdict_line(answer.conclusion, rule_set, lang)
        causes = _bundle_causes(answer, rule_set)
        decide = []
        found = bool(causes)
    out = [
        '<section id="answer" aria-labelledby="answer-heading">',
        f'<h2 id="answer-heading">{escape(word("answer", lang))}</h2>',
        f'<p class="verdict{" found" if found else ""}" id="verdict">{escape(verdict)}</p>',
    ]
    if causes:
        out.append(f"<h2>{escape(label(lang, 'diagnoses'))}</h2>")
        out.append('<ol class="causes">')
        out += [line for cause in causes for line in _cause(cause, lang)]
        out.append("</ol>")
    if decide:
        out.append(f"<h2>{escape(label(lang, 'decide'))}</h2>")
        out.append("<ul>" + "".join(f"<li>{escape(step)}</li>" for step in decide) + "</ul>")
    out.append("</section>")
    return out


def _bundle_causes(answer: BundleAnswer, rule_set: RuleSet) -> list[dict[str, Any]]:
    """The conclusion's rule first (it may come from the scan or the live probe), then the text's."""
    from dlldoctor.formats.explain import explanation_dict
    from dlldoctor.formats.links import rule_url

    causes: list[dict[str, Any]] = []
    if answer.explanation is not None:
        full, _ = split_shown(answer.explanation)
        doc = explanation_dict(answer.explanation, rule_set.families)
        causes = [doc["diagnoses"][answer.explanation.diagnoses.index(d)] for d in full]
    rule = rule_set.get(answer.conclusion.rule_id) if answer.conclusion.rule_id else None
    if rule is not None and all(c["rule"] != rule.id for c in causes):
        lang = answer.lang
        fixes = [{"text": f.text.get(lang), **fix_dict(f)} for f in rule.fixes]
        causes.insert(
            0,
            {
                "rule": rule.id,
                "category": rule.category,
                "title": rule.title.get(lang),
                "summary": rule.summary.get(lang),
                "why": [],
                "fixes": fixes,
                "docs": rule_url(rule),
            },
        )
    return causes


def _cause(cause: dict[str, Any], lang: str) -> list[str]:
    meta = f"{cause['category']} · {label(lang, 'rule')} {cause['rule']}"
    if "confidence" in cause:
        meta += " · " + word("confidence", lang, percent=f"{cause['confidence']:.0%}")
    out = [
        f'<li class="cause" data-rule="{escape(cause["rule"])}">',
        f'<h3 class="cause-title">{escape(cause["title"])}</h3>',
        f'<p class="meta">{escape(meta)}</p>',
        f'<p class="summary">{escape(cause["summary"])}</p>',
    ]
    if cause["why"]:
        out.append(f'<p class="why-label">{escape(label(lang, "why"))}</p>')
        out.append('<ul class="why">' + "".join(f"<li>{escape(w)}</li>" for w in cause["why"]) + "</ul>")
    out.append(f'<p class="fix-label">{escape(label(lang, "fix"))}</p>')
    out.append('<ol class="fixes">')
    for fix in cause["fixes"]:
        out.append(f'<li class="fix"><p class="fix-text">{escape(fix["text"])}</p>')
        if fix.get("url"):
            out.append(f'<p><a href="{escape(fix["url"])}" rel="noreferrer">{escape(fix["url"])}</a></p>')
        for shell, command in fix.get("commands", {}).items():
            out.append(_command(SHELL_LABEL.get(shell, shell), command, lang))
        out.append("</li>")
    out.append("</ol>")
    out.append(
        f'<p class="docs">{escape(label(lang, "docs"))}: '
        f'<a href="{escape(cause["docs"])}" rel="noreferrer">{escape(cause["rule"])}</a></p>'
    )
    out.append("</li>")
    return out


def _command(shell: str, command: str, lang: str) -> str:
    return (
        f'<div class="command"><span class="shell">{escape(shell)}</span>'
        f"<pre><code>{escape(command)}</code></pre>"
        f'<button type="button" class="copy" data-copy="{escape(command)}" '
        f'data-done="{escape(word("copied", lang))}" hidden>{escape(word("copy", lang))}</button></div>'
    )
