"""A GitHub ``issues`` or ``issue_comment`` event → the explanation of the loader error its text holds.

The payload is a stranger's file: read through :mod:`dlldoctor.bounded` with a cap, and every way it can
be wrong is one :class:`InputError`. The text comes from the comment for ``issue_comment`` and from the
issue's title and body for ``issues``; a body that holds :data:`MARKER` (a triage comment itself) is
never answered, so that the comment posted does not start another run.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dlldoctor.bounded import json_document, read_given_file
from dlldoctor.errors import InputError

if TYPE_CHECKING:  # the command line reads this module's defaults without loading the explainer
    from dlldoctor.diagnose.explain import Explanation
    from dlldoctor.kb.ruleset import RuleSet

MAX_EVENT = 16 << 20  # bytes; GitHub's payloads are a few KB, an issue body at most 65,536 characters
MARKER = "<!-- dlldoctor-triage -->"
DEFAULT_MIN_CONFIDENCE = 0.5


@dataclass(frozen=True)
class Event:
    kind: str  # "issue_comment" or "issues"
    number: int | None
    body: str  # the text to read: the comment, or the issue's title and body


@dataclass(frozen=True)
class Triage:
    event: Event
    explanation: Explanation | None  # None: no loader error in the text
    min_confidence: float

    @property
    def confidence(self) -> float:
        if self.explanation is None or not self.explanation.diagnoses:
            return 0.0
        return self.explanation.diagnoses[0].confidence

    @property
    def answer(self) -> bool:
        """Whether a comment is worth posting: a cause at least as sure as the threshold."""
        return (
            self.explanation is not None
            and self.explanation.finds_failure  # a comment that states no failure is not answered
            and (self.confidence >= self.min_confidence)
        )


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def event_from(payload: object, label: str = "event") -> Event:
    if not isinstance(payload, dict) or not isinstance(payload.get("issue"), dict):
        raise InputError(f'{label}: not a GitHub issues or issue_comment event (no "issue" object)')
    issue: dict[str, Any] = payload["issue"]
    number = issue.get("number") if isinstance(issue.get("number"), int) else None
    comment = payload.get("comment")
    if isinstance(comment, dict):
        return Event("issue_comment", number, _text(comment.get("body")))
    title, body = _text(issue.get("title")), _text(issue.get("body"))
    return Event("issues", number, f"{title}\n\n{body}" if title else body)


def read_event(path: Path | str) -> Event:
    data = read_given_file(path, MAX_EVENT, "event")
    payload = json_document(data, f"{path}: not an event")
    return event_from(payload, str(path))


def triage(
    event: Event,
    rule_set: RuleSet,
    *,
    min_confidence: float = DEFAULT_MIN_CONFIDENCE,
    lang: str | None = None,
) -> Triage:
    if MARKER in event.body:
        return Triage(event, None, min_confidence)
    from dlldoctor.diagnose.explain import explain_text
    from dlldoctor.text.issue import loader_error_text

    text = loader_error_text(event.body, messages=rule_set.messages, families=rule_set.families)
    if text is None:
        return Triage(event, None, min_confidence)
    return Triage(event, explain_text(text, rule_set, lang=lang), min_confidence)
