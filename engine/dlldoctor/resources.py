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


@cache
def load_data(name: str, root: Path | None = None) -> Any:
    """Load ``rules/data/<name>.yaml`` from the built-in or the given rule set."""
    import yaml  # not at module level: `explain` with a cached rule set never parses YAML

    path = (root or rules_root()) / "data" / f"{name}.yaml"
    try:
        with path.open(encoding="utf-8") as fh:
            return yaml.safe_load(fh)
    except OSError as e:
        raise RuleError(f"{path}: cannot read reference data: {e.strerror}") from e
    except yaml.YAMLError as e:
        raise RuleError(f"{path}: invalid YAML: {e}") from e
