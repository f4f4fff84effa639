"""A bundle from a Windows machine (``dlldoctor doctor --report`` or the collector), read safely.

A bundle is a stranger's file: it is read through :mod:`dlldoctor.bounded` with a cap, parsed as JSON
without recursion limits reaching the user as a traceback, and checked against
``schemas/bundle.schema.json`` before anything reads a field. Every failure is one line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dlldoctor.bounded import json_document, read_given_file
from dlldoctor.errors import InputError
from dlldoctor.platform.collect import BUNDLE_VERSION
from dlldoctor.resources import schema_path

MAX_BUNDLE = 32 << 20  # bytes; a bundle of torch's whole graph is ~200 KB


def read_bundle(path: Path | str) -> dict[str, Any]:
    data = read_given_file(path, MAX_BUNDLE, "bundle")
    return parse_bundle(data, str(path))


def parse_bundle(data: bytes, label: str = "bundle") -> dict[str, Any]:
    """A bundle's bytes (a file, an upload) as a checked bundle; ``label`` names it in errors."""
    # PowerShell 5.1's `>` writes UTF-16 with a byte order mark: such a bundle is read as it is.
    encoding = "utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8-sig"
    bundle = json_document(data, f"{label}: not a bundle", encoding=encoding, text="UTF-8 or UTF-16")
    check_bundle(bundle, label)
    return bundle  # type: ignore[return-value]  # check_bundle: the schema's top level is an object


def check_bundle(bundle: object, label: str = "bundle") -> None:
    """Refuse anything the schema does not describe, with the first problem's place."""
    import jsonschema

    if isinstance(bundle, dict) and bundle.get("kind") == "dlldoctor-bundle":
        version = bundle.get("version")
        if isinstance(version, int) and version > BUNDLE_VERSION:
            raise InputError(
                f"{label}: bundle version {version} is newer than this dlldoctor reads "
                f"({BUNDLE_VERSION}): upgrade dlldoctor"
            )
    schema = json.loads(schema_path("bundle").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    try:
        error = jsonschema.exceptions.best_match(validator.iter_errors(bundle))
    except RecursionError as e:
        raise InputError(f"{label}: not a bundle: nested too deeply") from e
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the top level"
        raise InputError(f"{label}: not a dlldoctor bundle: at {where}: {error.message[:200]}")
