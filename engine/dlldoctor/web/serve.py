"""Run the application on uvicorn, with an access log that leaves query strings out."""

from __future__ import annotations

import logging
import socket
from typing import TYPE_CHECKING

from dlldoctor.web.app import create_app
from dlldoctor.web.limits import PathOnlyAccessLog

if TYPE_CHECKING:
    import uvicorn

    from dlldoctor.kb.ruleset import RuleSet


def server(host: str, port: int, rule_set: RuleSet | None = None) -> uvicorn.Server:
    """A uvicorn server of the application, its logging set up, not yet started."""
    import uvicorn

    config = uvicorn.Config(create_app(rule_set), host=host, port=port, server_header=False, log_level="info")
    config.load()
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, PathOnlyAccessLog) for f in access.filters):
        access.addFilter(PathOnlyAccessLog())
    return uvicorn.Server(config)


def serve(host: str, port: int, *, sockets: list[socket.socket] | None = None) -> None:
    """Serve until interrupted (Ctrl-C). ``sockets``: already bound sockets to serve on instead."""
    server(host, port).run(sockets=sockets)
