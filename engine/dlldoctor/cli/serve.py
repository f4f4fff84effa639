"""``dlldoctor serve``: the paste-an-error web page and its JSON API, on uvicorn (``pip install dlldoctor[web]``)."""

from __future__ import annotations

import argparse
import importlib

from dlldoctor.cli.common import EXIT_OK, add_format_option, write
from dlldoctor.errors import InputError

NAME = "serve"
HELP = "serve a web page and a JSON API that explain a pasted error (needs `pip install dlldoctor[web]`)"

# The web extra's packages: the module each is imported as, and its name on the package index.
EXTRA = (("starlette", "starlette"), ("uvicorn", "uvicorn"), ("python_multipart", "python-multipart"))


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="the port to listen on (default: 8765)")
    add_format_option(parser)


def missing_extra() -> list[str]:
    missing = []
    for module, name in EXTRA:
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(name)
    return missing


def execute(args: argparse.Namespace) -> int:
    missing = missing_extra()
    if missing:
        raise InputError(
            f"serve needs the web extra ({', '.join(missing)} not installed): pip install dlldoctor[web]"
        )
    if not 0 <= args.port <= 65535:
        raise InputError(f"--port {args.port}: not a port (0-65535)")
    import socket

    from dlldoctor.web.serve import serve

    # Bound here, before anything is said: a port in use is a one-line error, and --port 0 prints the port
    # the system chose.
    try:
        listening = socket.create_server((args.host, args.port))
    except OSError as e:
        reason = str(e.strerror or e).split(" (while", 1)[0]
        raise InputError(f"cannot listen on {args.host}:{args.port}: {reason}") from e
    port = listening.getsockname()[1]
    url = f"http://{args.host}:{port}/"
    if args.format == "json":
        import json

        write(json.dumps({"version": 1, "url": url}))
    else:
        write(f"dlldoctor: serving {url} (Ctrl-C stops)")
    serve(args.host, port, sockets=[listening])
    return EXIT_OK
