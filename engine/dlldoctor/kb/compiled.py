"""The built-in rule set, checked once and written down: ``rules/compiled.json``.

Checking a rule set (YAML parsing, the JSON schema of every rule) is most of what the first run in an
empty cache folder costs. The built-in set ships with the data of its files as they passed
:func:`dlldoctor.kb.ruleset.lint_rule_set`, keyed by the set's content digest; a run whose rule files
still hash to that digest builds the set from it without checking again. Any other digest (an edited
rule, another engine version) means the file is stale and the set is checked as usual. Only the built-in
set reads it: a rule set given with ``--rules`` is someone else's and is always checked.

It also holds each reference data file (``data/*.yaml``) parsed, under the SHA-256 of its bytes, so that
the scanner's system profile and package data need no YAML parser while their files are unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dlldoctor.resources import COMPILED

NAME = COMPILED  # in the rule set's root folder
FORMAT = 1


def render(digest: str, parts: dict[str, Any], data: dict[str, Any] | None = None) -> str:
    """The file's text: the checked parts of a set whose rule files hash to ``digest``, and ``data``: each
    reference data file parsed, under the SHA-256 of its bytes (read by :func:`dlldoctor.resources.load_data`)."""
    body = {"format": FORMAT, "digest": digest, "parts": parts, "data": data or {}}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")) + "\n"


def read_compiled(root: Path, digest: str) -> dict[str, Any] | None:
    """The checked parts of the set at ``root`` when its compiled file matches ``digest``, else None."""
    from dlldoctor.resources import read_compiled as read_file

    data = read_file(root)
    if data is None or data.get("format") != FORMAT or data.get("digest") != digest:
        return None
    parts = data.get("parts")
    return parts if isinstance(parts, dict) else None
