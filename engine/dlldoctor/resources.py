"""Where the packaged data lives: the rule set and the JSON schemas.

An installed wheel carries the rules as ``dlldoctor/rules``; a checkout keeps them in ``rules/`` at
the repository root. Both are reached through :mod:`importlib.resources` first.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from dlldoctor.errors import RuleError


@cache
def rules_root() -> Path:
    """The folder of the built-in rule set."""
    packaged = resources.files("dlldoctor").joinpath("rules")
    if packaged.is_dir():
        return Path(str(packaged))
    checkout = Path(__file__).resolve().parents[2] / "rules"
    if checkout.is_dir():
        return checkout
    raise RuleError("the built-in rule set is missing from this installation")


def schema_path(name: str) -> Path:
    """Path of a JSON schema shipped in the package (``name`` without ``.schema.json``)."""
    return Path(str(resources.files("dlldoctor").joinpath("schemas", f"{name}.schema.json")))


MAX_DATA_FILE = 4 << 20  # bytes of one YAML file of a rule set; the biggest today is 30 KB


class SharedNode(ValueError):
    """A YAML document with anchors and aliases (refused: nested aliases stand for billions of values)."""

    def __init__(self, line: int) -> None:
        super().__init__(f"line {line}: YAML anchors and aliases (&, *) are not allowed")
        self.line = line


def parse_yaml(text: str) -> tuple[Any, Any]:
    """The node tree and the data of one YAML document, parsed once; :class:`SharedNode` on an alias."""
    import yaml  # not at module level: `explain` with a cached rule set never parses YAML

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None
        seen: set[int] = set()
        stack = [node]
        while stack:  # an alias makes a node reachable twice; no recursion on deep nesting
            item = stack.pop()
            if id(item) in seen:
                raise SharedNode(item.start_mark.line + 1)
            seen.add(id(item))
            if isinstance(item, yaml.SequenceNode):
                stack.extend(item.value)
            elif isinstance(item, yaml.MappingNode):
                for key, value in item.value:
                    stack.extend((key, value))
        return node, loader.construct_document(node)
    finally:
        loader.dispose()


COMPILED = "compiled.json"  # the built-in rule set as it passed lint (dlldoctor.kb.compiled)
MAX_COMPILED = 16 << 20


def read_compiled(root: Path) -> dict[str, Any] | None:
    """The parsed ``compiled.json`` of a rule set, or None when it has none or it is not readable JSON."""
    try:
        info = (root / COMPILED).stat()
    except OSError:
        return None
    return _read_compiled(root, info.st_size, info.st_mtime_ns)


@cache
def _read_compiled(root: Path, _size: int, _mtime: int) -> dict[str, Any] | None:
    """Parsed once per process for each version of the file (its size and time are part of the key)."""
    import json

    from dlldoctor.bounded import read_regular

    try:
        data = json.loads(read_regular(root / COMPILED, MAX_COMPILED, root=root))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _compiled_data(name: str, root: Path, raw: bytes) -> tuple[bool, Any]:
    """The built-in set's data file ``name`` as the compiled file holds it, when written from these bytes."""
    import hashlib

    if root != rules_root():
        return False, None  # a rule set given by folder is someone else's: always parsed
    entry = ((read_compiled(root) or {}).get("data") or {}).get(name)
    if isinstance(entry, dict) and entry.get("sha256") == hashlib.sha256(raw).hexdigest():
        return True, entry.get("value")
    return False, None


@cache
def load_data(name: str, root: Path | None = None) -> Any:
    """Load ``rules/data/<name>.yaml`` from the built-in or the given rule set; one-line errors.

    The built-in set's compiled file holds each data file parsed, with the hash of its bytes: when the
    file still has those bytes, its YAML is not parsed again."""
    from dlldoctor.bounded import UnsafeFile, read_regular

    base = root or rules_root()
    path = base / "data" / f"{name}.yaml"
    try:
        raw = read_regular(path, MAX_DATA_FILE, root=base)
    except UnsafeFile as e:
        raise RuleError(f"{path}: reference data not read: {e.reason}") from e
    except OSError as e:
        raise RuleError(f"{path}: cannot read reference data: {e.strerror or e}") from e
    known, value = _compiled_data(name, base, raw)
    if known:
        return value
    import yaml

    try:
        return parse_yaml(raw.decode("utf-8"))[1]
    except UnicodeDecodeError as e:
        raise RuleError(f"{path}: cannot read reference data: not UTF-8 text (byte {e.start})") from e
    except SharedNode as e:
        raise RuleError(f"{path}: invalid reference data: {e}") from e
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        raise RuleError(f"{path}:{mark.line + 1 if mark else 0}: invalid YAML: {e.problem}") from e
    except (yaml.YAMLError, RecursionError) as e:
        raise RuleError(f"{path}: invalid YAML: {str(e).splitlines()[0] if str(e) else e}") from e
