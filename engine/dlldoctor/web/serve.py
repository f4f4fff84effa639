"""Run the application on uvicorn, with an access log that leaves query strings out."""

from __future__ import annotations

import logging
import socket

from dlldoctor.web.app import create_app
from dlldoctor.web.limits import PathOnlyAccessLog


def serve(host: str, port: int, *, sockets: list[socket.socket] | None = None) -> None:
    """Serve until interrupted. ``sockets``: already bound sockets (the tests' free port)."""
    import uvicorn

    config = uvicorn.Config(create_app(), host=host, port=port, server_header=False, log_level="info")
    config.load()
    logging.getLogger("uvicorn.access").addFilter(PathOnlyAccessLog())
    uvicorn.Server(config).run(sockets=sockets)
