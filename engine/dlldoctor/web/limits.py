"""What a public deployment needs around every request: a cap on the body (refused before it is read),
a cap on the time one answer takes, security headers, and an access log that never holds a query string.

The middlewares are plain ASGI (no framework needed to read them): :class:`BodyLimit` answers 413 from the
``Content-Length`` header alone when it is over the cap, and otherwise counts the body as it arrives and
stops reading at the first byte past the cap, so a large body is never held in memory.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 1 << 20  # bytes: a paste is a few KB, a bundle of torch's whole graph ~200 KB
TIME_LIMIT = 10.0  # seconds for one request: reading its body and answering it

# default-src 'none' and nothing inline: the page's one script and one style sheet come from the server.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cache-control", b"no-store"),  # an answer quotes the paste: no cache keeps it
)


class BodyTooLarge(Exception):
    """The body passed the cap while it was read."""


def refusal(status: int, message: str, html: str | None = None) -> tuple[Message, Message]:
    """The two ASGI messages of a short refusal: JSON, or the page ``html`` when given."""
    if html is None:
        body, kind = (
            json.dumps({"version": 1, "error": message}, ensure_ascii=False).encode(),
            b"application/json",
        )
    else:
        body, kind = html.encode(), b"text/html; charset=utf-8"
    start = {
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode())],
    }
    return start, {"type": "http.response.body", "body": body}


def too_large_message(limit: int) -> str:
    return f"the request is larger than {limit >> 10} KB: paste the part around the error"


class BodyLimit:
    """``page``: the HTML refusal for a form posted to ``/`` (a browser shows it), given the scope."""

    def __init__(
        self, app: ASGIApp, limit: int = MAX_BODY, page: Callable[[Scope], str] | None = None
    ) -> None:
        self.app, self.limit, self.page = app, limit, page

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, send)
            return
        received = 0
        started = False

        async def bounded() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise BodyTooLarge
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, bounded, watched)
        except BodyTooLarge:
            if not started:
                await self._refuse(scope, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        html = self.page(scope) if self.page is not None and scope.get("path") == "/" else None
        for message in refusal(413, too_large_message(self.limit), html):
            await send(message)


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers") or ()}
                extra = [(n, v) for n, v in SECURITY_HEADERS if n not in names]
                message["headers"] = [*(message.get("headers") or ()), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)


class PathOnlyAccessLog(logging.Filter):
    """uvicorn's access line (client, method, path with query, HTTP version, status) with the query
    string left out: the page never takes text in a URL, and a URL someone else built is not logged."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str):
            record.args = (args[0], args[1], args[2].split("?", 1)[0], args[3], args[4])
        return True
