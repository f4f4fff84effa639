"""The package's layers: imports point down the pipeline only, and no module imports itself back.

Every ``import`` of the package is read from the source (module level and inside functions alike), so a
lazy import cannot hide an upward edge or a cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "engine" / "dlldoctor"

# What each subpackage may import besides itself and the root modules (errors, resources, __init__).
ALLOWED: dict[str, frozenset[str]] = {
    "platform": frozenset(),
    "pe": frozenset(),
    "install": frozenset(),
    "cache": frozenset({"pe", "install"}),
    "loader": frozenset({"pe", "install", "cache"}),
    "scan": frozenset({"pe", "install", "cache", "loader"}),
    "kb": frozenset({"cache"}),
    "text": frozenset({"kb"}),
    "diagnose": frozenset({"platform", "pe", "install", "cache", "loader", "scan", "kb", "text"}),
    "formats": frozenset({"platform", "pe", "install", "cache", "loader", "scan", "kb", "text", "diagnose"}),
    # The page and API of `dlldoctor serve`: answers as explain does (diagnose, formats), below the CLI.
    "web": frozenset(
        {"platform", "pe", "install", "cache", "loader", "scan", "kb", "text", "diagnose", "formats"}
    ),
    "cli": frozenset(
        {"platform", "pe", "install", "cache", "loader", "scan", "kb", "text", "diagnose", "formats", "web"}
    ),
}
ROOT_MODULES = frozenset(
    {"dlldoctor", "dlldoctor.errors", "dlldoctor.resources", "dlldoctor.bounded", "dlldoctor.__main__"}
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _eager(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements that run when a module is imported (not functions, not ``if TYPE_CHECKING``)."""
    for node in body:
        if isinstance(node, ast.If):
            if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                yield from _eager(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            yield from _eager(node.body + node.orelse + node.finalbody)
        elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node


def imported(path: Path, known: dict[str, Path], *, eager: bool = False) -> Iterator[tuple[str, int]]:
    """The package modules one file imports, with the line of each import (``eager``: at import time only)."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = list(_eager(tree.body)) if eager else list(ast.walk(tree))
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("dlldoctor"):
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if not base.startswith("dlldoctor"):
                continue
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                yield (candidate if candidate in known else base), node.lineno


def subpackage(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in ALLOWED) else None


def graph(*, eager: bool = False) -> dict[str, set[str]]:
    known = modules()
    return {
        name: {m for m, _ in imported(path, known, eager=eager) if m != name} for name, path in known.items()
    }


def test_every_subpackage_has_a_declared_layer() -> None:
    found = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert found - {"schemas"} == set(ALLOWED)


def test_imports_point_down_only() -> None:
    known = modules()
    wrong = []
    for name, path in known.items():
        own = subpackage(name)
        for target, line in imported(path, known):
            if target in ROOT_MODULES:
                continue
            other = subpackage(target)
            if own is None:
                if name not in {"dlldoctor.__main__"} or other != "cli":
                    wrong.append(f"{path.name}:{line} root module imports {target}")
            elif other is not None and other != own and other not in ALLOWED[own]:
                wrong.append(f"{name}:{line} imports {target} ({own} may not import {other})")
    assert wrong == []


def _cycle_from(start: str, edges: dict[str, set[str]]) -> list[str] | None:
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    seen: set[str] = set()
    while stack:
        node, path = stack.pop()
        for nxt in sorted(edges.get(node, ())):
            if nxt == start:
                return [*path, start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, [*path, nxt]))
    return None


def test_no_import_cycle() -> None:
    edges = graph()
    cycles = [c for c in (_cycle_from(m, edges) for m in sorted(edges)) if c]
    assert cycles == []


def closure(start: str, edges: dict[str, set[str]]) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        for nxt in edges.get(node, ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


@pytest.mark.parametrize("module", ["dlldoctor.cli.explain", "dlldoctor.diagnose.explain"])
def test_explain_never_reaches_the_scanner(module: str) -> None:
    """Explaining a paste stays fast: nothing imported with it leads to the scanner or the PE parsers."""
    reached = closure(module, graph(eager=True))
    assert sorted(m for m in reached if m.startswith(("dlldoctor.scan", "dlldoctor.pe."))) == []


def test_the_engine_never_prints() -> None:
    calls = []
    for name, path in modules().items():
        if subpackage(name) in {"cli", "formats"}:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
                calls.append(f"{name}:{node.lineno}")
    assert calls == []


def test_modules_stay_small() -> None:
    big = {
        name: n
        for name, p in modules().items()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500
    }
    assert big == {}


def test_the_command_line_starts_without_the_explainer_or_the_rules() -> None:
    """A remembered scan answer is written right after the parser is built: building it (every subcommand's
    options) must not load the explainer, the rule model or a PE parser."""
    import subprocess
    import sys

    code = (
        "import sys; from dlldoctor.cli import build_parser; build_parser(); "
        "print('\\n'.join(sorted(m for m in sys.modules if m.startswith('dlldoctor.'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    heavy = ("dlldoctor.diagnose.explain", "dlldoctor.kb.ruleset", "dlldoctor.kb.model", "dlldoctor.pe.")
    assert [m for m in loaded if m.startswith(heavy)] == []
    assert "dlldoctor.cli" in loaded
