"""``dlldoctor triage``: the comment to post on an issue whose text holds a DLL load error, or nothing."""

from __future__ import annotations

import argparse
from pathlib import Path

from dlldoctor.cli.common import (
    EXIT_OK,
    add_format_option,
    add_rules_option,
    add_text_language_option,
    printable_output,
    write,
)

NAME = "triage"
HELP = (
    "read a GitHub issues/issue_comment event and print a Markdown comment with the likely causes of "
    "its DLL load error, or nothing"
)


def _confidence(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if not 0.0 <= number <= 1.0:
        raise argparse.ArgumentTypeError(f"{value} is not between 0 and 1")
    return number


def configure_parser(parser: argparse.ArgumentParser) -> None:
    from dlldoctor.diagnose.triage import DEFAULT_MIN_CONFIDENCE

    parser.add_argument(
        "--event",
        type=Path,
        required=True,
        metavar="FILE",
        help="the event payload (in a workflow: $GITHUB_EVENT_PATH)",
    )
    parser.add_argument(
        "--min-confidence",
        type=_confidence,
        default=DEFAULT_MIN_CONFIDENCE,
        metavar="X",
        help=f"answer only when the top cause is at least this sure, 0 to 1 (default: {DEFAULT_MIN_CONFIDENCE})",
    )
    add_text_language_option(parser, "the comment")
    add_format_option(parser)
    add_rules_option(parser)


def execute(args: argparse.Namespace) -> int:
    """Exit 0 whether or not there is a comment: a workflow posts it when the output is not empty."""
    from dlldoctor.diagnose.triage import read_event, triage
    from dlldoctor.formats import triage as fmt
    from dlldoctor.kb.ruleset import load_rule_set

    printable_output()
    event = read_event(args.event)
    rule_set = load_rule_set(args.rules)
    result = triage(event, rule_set, min_confidence=args.min_confidence, lang=args.lang)
    if args.format == "json":
        write(fmt.render_json(result, rule_set.families))
        return EXIT_OK
    comment = fmt.render_markdown(result, rule_set.families)  # text and markdown: the comment itself
    if comment:
        write(comment)
    return EXIT_OK
