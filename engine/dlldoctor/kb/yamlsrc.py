"""YAML documents that remember where each value came from, so problems can name a file and a line."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dlldoctor.bounded import UnsafeFile, read_regular
from dlldoctor.resources import MAX_DATA_FILE, SharedNode, parse_yaml

if TYPE_CHECKING:  # PyYAML is imported when a file is read: a cached rule set needs none of it
    import yaml


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file, located by line (1-based; 0 when the whole file is meant)."""

    path: str
    line: int
    message: str

    def __post_init__(self) -> None:
        # A message may quote a value from the file: keep it to one short line.
        first = self.message.split("\n", 1)[0]
        if len(first) > MAX_MESSAGE:
            first = first[: MAX_MESSAGE - 1] + "…"
        if first != self.message:
            object.__setattr__(self, "message", first)

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


MAX_FILE = MAX_DATA_FILE  # bytes read from one file of a rule set
MAX_MESSAGE = 300  # characters of a problem's message: a quoted value never floods the output


def read_source(path: Path, root: Path | None = None) -> Source:
    """Parse one YAML file; raise :class:`SourceError` with the line of a syntax error.

    Only a regular file of at most :data:`MAX_FILE` bytes is read (inside ``root`` when given), and
    anchors and aliases are refused (:func:`dlldoctor.resources.parse_yaml`).
    """
    import yaml

    try:
        text = read_regular(path, MAX_FILE, root=root).decode("utf-8")
    except UnicodeDecodeError as e:
        line = e.object[: e.start].count(b"\n") + 1
        raise SourceError(Problem(str(path), line, f"not UTF-8 text (byte {e.start})")) from e
    except UnsafeFile as e:
        raise SourceError(Problem(str(path), 0, f"not read: {e.reason}")) from e
    except OSError as e:
        raise SourceError(Problem(str(path), 0, f"cannot read: {e.strerror or e}")) from e
    try:
        node, data = parse_yaml(text)
    except SharedNode as e:
        raise SourceError(
            Problem(str(path), e.line, "YAML anchors and aliases (&, *) are not allowed")
        ) from e
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark is not None else 0
        raise SourceError(Problem(str(path), line, f"invalid YAML: {e.problem or e}")) from e
    except yaml.YAMLError as e:
        raise SourceError(Problem(str(path), 0, f"invalid YAML: {e}")) from e
    except RecursionError as e:  # thousands of nested brackets
        raise SourceError(Problem(str(path), 0, "invalid YAML: nested too deeply")) from e
    return Source(path, data, node)


class SourceError(Exception):
    """A YAML file that cannot be read or parsed (carries the :class:`Problem`)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem
