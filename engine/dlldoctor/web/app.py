"""The Starlette application of ``dlldoctor serve``: the page, the JSON API, the health check.

    GET  /                 the page (the paste box, the bundle field)
    POST /                 the page with the answer (a form: ``text``, or the file ``bundle``)
    POST /api/explain      explain's JSON: ``{"text": …}``, ``{"bundle": {…}}``, a bundle, or the form
    GET  /api/rules/{id}   ``dlldoctor rules show ID --format json``
    GET  /healthz          ``{"status": "ok", …}``

Every answer is worked out in a worker thread under :data:`~dlldoctor.web.limits.TIME_LIMIT`; nothing a
request brings is written anywhere or logged.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from dlldoctor import __version__
from dlldoctor.errors import InputError
from dlldoctor.formats.error_words import error_message
from dlldoctor.formats.rule_text import rule_json
from dlldoctor.formats.web_words import word
from dlldoctor.web.answers import (
    Answer,
    answer_bundle,
    answer_document,
    answer_json,
    answer_text,
    asked_language,
)
from dlldoctor.web.limits import (
    MAX_BODY,
    TIME_LIMIT,
    ASGIApp,
    BodyLimit,
    BodyTooLarge,
    Scope,
    SecurityHeaders,
)
from dlldoctor.web.page import render_page

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

    from dlldoctor.kb.ruleset import RuleSet

STATIC = Path(__file__).resolve().parent / "static"
LOG = logging.getLogger("dlldoctor.web")
STATIC_TYPES = {"copy.js": "text/javascript; charset=utf-8", "page.css": "text/css; charset=utf-8"}
T = TypeVar("T")


class TooSlow(Exception):
    """The request took longer than the time cap."""


class NothingGiven(InputError):
    """A form with neither a text nor a bundle file."""


def page_language(headers: Mapping[str, str]) -> str:
    """Chinese when the browser's first language is; English otherwise."""
    first = headers.get("accept-language", "").split(",", 1)[0].strip().lower()
    return "zh" if first.startswith("zh") else "en"


def create_app(
    rule_set: RuleSet | None = None, *, max_body: int = MAX_BODY, time_limit: float = TIME_LIMIT
) -> ASGIApp:
    import anyio
    from starlette.applications import Starlette
    from starlette.datastructures import UploadFile
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    from dlldoctor.kb.selection import configured_rule_set

    rules = rule_set if rule_set is not None else configured_rule_set()
    static = {name: (STATIC / name).read_bytes() for name in STATIC_TYPES}

    async def within(read: Callable[[], Any], work: Callable[[Any], T]) -> T:
        """Read the request, then answer it in a thread; both under the time cap."""
        try:
            with anyio.fail_after(time_limit):
                given = await read()
                return await anyio.to_thread.run_sync(functools.partial(work, given), abandon_on_cancel=True)
        except TimeoutError as e:
            raise TooSlow from e

    def json_error(status: int, message: str) -> Response:
        return JSONResponse({"version": 1, "error": message}, status_code=status)

    async def form_fields(request: Request) -> tuple[str, bytes | None, str | None]:
        """The form's text, the bundle file's bytes (None when no file was chosen), and ``lang``."""
        try:
            form = await request.form(max_files=1, max_fields=4, max_part_size=max_body)
        except HTTPException as e:  # Starlette's refusal of a malformed form: one line, as any other
            raise InputError(f"the form is not read: {e.detail}") from e
        upload = form.get("bundle")
        data = await upload.read() if isinstance(upload, UploadFile) else None
        text = form.get("text")
        lang = form.get("lang")
        return (
            text if isinstance(text, str) else "",
            data or None,
            lang if isinstance(lang, str) else None,
        )

    def form_answer(fields: tuple[str, bytes | None, str | None], page_lang: str | None = None) -> Answer:
        """The API's answer as the command line gives it; on the page (``page_lang``), a bundle without
        ``lang`` is answered in the page's language (a text always in its own)."""
        text, data, lang = fields
        said = asked_language(lang)
        if data is None and not text.strip():
            raise NothingGiven("the form holds no text and no bundle: give the field text or bundle")
        if data is not None:
            return answer_bundle(data, rules, said or page_lang)
        return answer_text(text, rules, said)

    def too_large_page(scope: Scope) -> str:
        from starlette.datastructures import Headers

        lang = page_language(Headers(scope=scope))
        return render_page(lang, rules, error=word("too-large", lang, size=max_body >> 10))

    async def home(request: Request) -> Response:
        return HTMLResponse(render_page(page_language(request.headers), rules))

    async def submit(request: Request) -> Response:
        lang = page_language(request.headers)
        fields: tuple[str, bytes | None, str | None] = ("", None, None)

        async def read() -> tuple[str, bytes | None, str | None]:
            nonlocal fields
            fields = await form_fields(request)
            return fields

        try:
            answer = await within(read, functools.partial(form_answer, page_lang=lang))
        except TooSlow:
            error = word("too-slow", lang, seconds=f"{time_limit:g}")
            return HTMLResponse(render_page(lang, rules, text=fields[0], error=error), status_code=503)
        except InputError as e:
            if isinstance(e, NothingGiven):
                error = word("no-input", lang)
            else:
                error = word("not-read", lang, message=error_message(str(e), lang))
            return HTMLResponse(render_page(lang, rules, text=fields[0], error=error), status_code=400)
        return HTMLResponse(render_page(lang, rules, text=fields[0], answer=answer))

    async def api_explain(request: Request) -> Response:
        is_form = (
            request.headers.get("content-type", "")
            .lower()
            .startswith(("multipart/form-data", "application/x-www-form-urlencoded"))
        )
        try:
            if is_form:
                answer = await within(lambda: form_fields(request), form_answer)
            else:
                answer = await within(request.body, lambda data: answer_json(data, rules))
        except TooSlow:
            return json_error(503, f"the answer took longer than {time_limit:g} s")
        except InputError as e:
            return json_error(400, str(e))
        return Response(answer_document(answer) + "\n", media_type="application/json")

    async def rule(request: Request) -> Response:
        found = rules.get(request.path_params["rule_id"])
        if found is None:
            return json_error(404, f"no rule {request.path_params['rule_id'][:100]!r}")
        return Response(rule_json(found) + "\n", media_type="application/json")

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok", "version": __version__, "rules": len(rules.active_rules())})

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in static:
            return Response("not found\n", status_code=404, media_type="text/plain")
        return Response(static[name], media_type=STATIC_TYPES[name])

    def guarded(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
        """A fault of dlldoctor's own while answering is a one-line 500, logged by its type only: the
        message of an exception can quote the paste, and nothing pasted is logged."""

        @functools.wraps(handler)
        async def run(request: Request) -> Response:
            try:
                return await handler(request)  # type: ignore[no-any-return]
            except (BodyTooLarge, HTTPException):  # BodyLimit answers the first, Starlette the second
                raise
            except Exception as e:
                LOG.error(
                    "internal error answering %s %s: %s", request.method, request.url.path, type(e).__name__
                )
                return json_error(500, "internal error")

        return run

    app = Starlette(
        # Inside Starlette's last-resort error handler, so that a body past the cap is answered 413 by
        # BodyLimit before that handler could answer 500.
        middleware=[Middleware(BodyLimit, limit=max_body, page=too_large_page)],
        routes=[
            Route("/", guarded(home), methods=["GET"]),
            Route("/", guarded(submit), methods=["POST"]),
            Route("/api/explain", guarded(api_explain), methods=["POST"]),
            Route("/api/rules/{rule_id}", guarded(rule), methods=["GET"]),
            Route("/healthz", guarded(healthz), methods=["GET"]),
            Route("/static/{name}", guarded(asset), methods=["GET"]),
        ],
    )
    # Outside Starlette's own error handling, so that every answer, a 500 included, has the headers.
    return SecurityHeaders(app)
