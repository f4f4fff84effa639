"""The stable address of each rule's documentation, the same in every output format."""

from __future__ import annotations

from dlldoctor import REPOSITORY
from dlldoctor.kb.model import Rule

DOCS = f"{REPOSITORY}/blob/main/docs/rules"


def rule_url(rule: Rule) -> str:
    """The rule's section of the generated catalog (docs/rules/<category>.md, anchor = rule id)."""
    return f"{DOCS}/{rule.category}.md#{rule.id}"
