"""``dlldoctor search``: find rules by words in any language ("vcruntime", "页面文件太小", "entry point")."""

from __future__ import annotations

import argparse
import sys

from dlldoctor.cli.common import add_format_option, add_rules_option, printable_output, use_colour, write
from dlldoctor.errors import InputError

NAME = "search"
HELP = "find diagnosis rules by words in any language"


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "query", nargs="+", metavar="QUERY", help="words, a DLL name, an error code, Chinese text …"
    )
    parser.add_argument("--limit", type=int, default=10, help="at most this many rules (default 10)")
    parser.add_argument(
        "--lang",
        choices=("en", "zh"),
        help="language of the titles (default: Chinese for a Chinese query, English otherwise)",
    )
    add_format_option(parser)
    add_rules_option(parser)


def query_language(query: str) -> str:
    """Chinese answers for Chinese (ideographs without kana or hangul), English for anything else."""
    kana_or_hangul = any("\u3040" <= ch <= "\u30ff" or "\uac00" <= ch <= "\ud7af" for ch in query)
    ideographs = any("\u4e00" <= ch <= "\u9fff" for ch in query)
    return "zh" if ideographs and not kana_or_hangul else "en"


def execute(args: argparse.Namespace) -> int:

    printable_output()
    from dlldoctor.formats.rule_text import word
    from dlldoctor.formats.style import Style
    from dlldoctor.kb.ruleset import load_rule_set
    from dlldoctor.kb.search import search, terms

    query = " ".join(args.query)
    if not terms(query):
        raise InputError("the query has no words to search for")
    if args.limit < 1:
        raise InputError("--limit must be at least 1")
    lang = args.lang or query_language(query)
    rule_set = load_rule_set(args.rules)
    hits = search(query, rule_set, limit=args.limit)
    if args.format == "json":
        import json

        items = [
            {
                "rule": h.rule.id,
                "category": h.rule.category,
                "score": h.score,
                "matched": list(h.matched),
                "title": h.rule.title.get(lang),
            }
            for h in hits
        ]
        write(
            json.dumps(
                {"version": 1, "query": query, "results": items}, ensure_ascii=False, indent=2, sort_keys=True
            )
        )
    elif args.format == "markdown":
        lines = [word("search_head", lang), "|---|---|---|"]
        lines += [f"| `{h.rule.id}` | {h.rule.category} | {h.rule.title.get(lang)} |" for h in hits]
        write("\n".join(lines) if hits else word("no_match", lang))
    else:
        s = Style(use_colour(sys.stdout))
        if not hits:
            write(word("no_match_query", lang, query=query))
        for h in hits:
            write(s(h.rule.id, "bold") + s(f"  [{h.rule.category}]", "dim") + f"  {h.rule.title.get(lang)}")
    return 0
