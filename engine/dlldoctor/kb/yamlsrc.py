"""YAML documents that remember where each value came from, so problems can name a file and a line."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # PyYAML is imported when a file is read: a cached rule set needs none of it
    import yaml


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file, located by line (1-based; 0 when the whole file is meant)."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}" if self.line else f"{self.path}: {self.message}"


@dataclass(frozen=True)
class Source:
    """A parsed YAML file: its data and its node tree (for line numbers)."""

    path: Path
    data: Any
    node: yaml.Node | None

    def line(self, where: Sequence[str | int]) -> int:
        """Line of the value at ``where`` (keys and list indexes); the nearest existing parent otherwise."""
        import yaml

        node = self.node
        line = node.start_mark.line + 1 if node is not None else 0
        for step in where:
            child: yaml.Node | None = None
            if isinstance(node, yaml.MappingNode) and isinstance(step, str):
                for key, value in node.value:
                    if key.value == step:
                        child = value
                        break
            elif (
                isinstance(node, yaml.SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value)
            ):
                child = node.value[step]
            if child is None:
                break
            node = child
            line = node.start_mark.line + 1
        return line


def read_source(path: Path) -> Source:
    """Parse one YAML file; raise :class:`SourceError` with the line of a syntax error."""
    import yaml

    loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise SourceError(Problem(str(path), 0, f"cannot read: {e}")) from e
    try:
        node = yaml.compose(text, Loader=loader)
        data = yaml.load(text, Loader=loader) if node is not None else None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark is not None else 0
        raise SourceError(Problem(str(path), line, f"invalid YAML: {e.problem or e}")) from e
    except yaml.YAMLError as e:
        raise SourceError(Problem(str(path), 0, f"invalid YAML: {e}")) from e
    return Source(path, data, node)


class SourceError(Exception):
    """A YAML file that cannot be read or parsed (carries the :class:`Problem`)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem
