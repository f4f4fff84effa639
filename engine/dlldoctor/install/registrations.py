"""What a package's own code does to DLL loading when it is imported, read statically from its source.

Many packages make their DLLs findable themselves: delvewheel's patch in ``__init__.py`` calls
``os.add_dll_directory`` on ``<name>.libs``, PyQt adds ``Qt5\\bin``, pygame adds its own folder, pywin32's
``.pth`` file imports a bootstrap module that adds ``pywin32_system32``, and some load a DLL by full path
with ``ctypes`` before any extension module needs it. This module reads those calls from the AST of the
``__init__.py`` files on the way to the target's PE files and of the ``.pth`` files (nothing is run),
evaluates their path arguments as far as they are static — string literals, ``__file__``,
``os.path.join/dirname/abspath``, ``os.pardir``, ``pathlib`` operations, ``sys.prefix`` — and returns
the folders and files it finds. A call whose argument cannot be evaluated registers the package's own
folder and any sibling folder the module names in a string literal.
"""

from __future__ import annotations

import ast
import posixpath
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from dlldoctor.install.sources import Source

MAX_SOURCE = 1 << 21  # bytes of one module read (a larger one is skipped); delvewheel patches are small
MAX_MODULES = 4000
MAX_DEPTH = 8
MAX_CANDIDATES = 16
MAX_STEPS = 20_000  # expressions evaluated per module: hostile code cannot make the evaluation explode
PREFIX = "<prefix>"
SITE = "<site>"  # sysconfig's platlib/purelib: the site-packages root

RegistrationKind = Literal["dll-directory", "preload"]
_MARKERS = ("add_dll_directory", "CDLL", "WinDLL", "PyDLL", "LoadLibrary")
_LOADERS = frozenset({"CDLL", "WinDLL", "PyDLL", "OleDLL", "LoadLibrary"})
_IDENTITY = frozenset({"abspath", "realpath", "normpath", "fspath", "str", "fsdecode", "Path", "PurePath"})
_SYS_PREFIX = frozenset({"prefix", "exec_prefix", "base_prefix", "base_exec_prefix"})


@dataclass(frozen=True)
class Registration:
    scope: str  # the package folder whose import runs it; "" for a .pth file (every module)
    kind: RegistrationKind
    path: str  # posix, relative to the target root (a folder for dll-directory, a file for preload)
    module: str  # the source file it was read from


def _norm(path: str) -> str | None:
    path = path.replace("\\", "/")
    if not path or path.startswith("/") or (len(path) > 1 and path[1] == ":"):
        return None  # absolute: nothing inside the target
    normal = posixpath.normpath(path)
    return None if normal.startswith("..") else ("" if normal == "." else normal)


class _Evaluator:
    """Static values of path expressions in one module: each a list of candidate strings."""

    def __init__(self, nodes: list[ast.AST], module_path: str) -> None:
        self.module_path = module_path
        self.steps = 0
        self.names: dict[str, list[ast.expr]] = {}
        loops: list[tuple[str, ast.expr]] = []
        for node in nodes:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        self.names.setdefault(target.id, []).append(node.value)
            elif isinstance(node, ast.AnnAssign | ast.NamedExpr) and isinstance(node.target, ast.Name):
                if node.value is not None:
                    self.names.setdefault(node.target.id, []).append(node.value)
            elif isinstance(node, ast.For) and isinstance(node.target, ast.Name):
                loops.append((node.target.id, node.iter))
        for name, iterable in loops:  # `for d in (a, b)` or over a name bound to such a tuple
            sequences = [iterable]
            if isinstance(iterable, ast.Name):
                sequences = list(self.names.get(iterable.id, ()))
            for sequence in sequences:
                if isinstance(sequence, ast.List | ast.Tuple):
                    self.names.setdefault(name, []).extend(sequence.elts)

    def values(self, node: ast.expr, depth: int = 0) -> list[str]:
        self.steps += 1
        if depth > MAX_DEPTH or self.steps > MAX_STEPS:
            return []
        found = self._values(node, depth + 1)
        return list(dict.fromkeys(found))[:MAX_CANDIDATES]

    def _values(self, node: ast.expr, depth: int) -> list[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value.replace("\\", "/")]
        if isinstance(node, ast.Name):
            if node.id == "__file__":
                return [self.module_path]
            return [
                v for expr in self.names.get(node.id, ())[:MAX_CANDIDATES] for v in self.values(expr, depth)
            ]
        if isinstance(node, ast.Attribute):
            return self._attribute(node, depth)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Div):
            left, right = self.values(node.left, depth), self.values(node.right, depth)
            glue = "" if isinstance(node.op, ast.Add) else "/"
            return [a + glue + b for a in left for b in right][:MAX_CANDIDATES]
        if isinstance(node, ast.JoinedStr):
            parts = [[""]]
            for value in node.values:
                inner = value.value if isinstance(value, ast.FormattedValue) else value
                parts.append(self.values(inner, depth) if isinstance(inner, ast.expr) else [])
            return ["".join(p) for p in _product(parts)][:MAX_CANDIDATES]
        if isinstance(node, ast.IfExp):
            return self.values(node.body, depth) + self.values(node.orelse, depth)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call):
            # os.path.split(x)[0] is the folder of x
            call = node.value
            if _func_name(call) == "split" and isinstance(node.slice, ast.Constant) and node.slice.value == 0:
                return [posixpath.dirname(v) for a in call.args[:1] for v in self.values(a, depth)]
            return []
        if isinstance(node, ast.Call):
            return self._call(node, depth)
        return []

    def _attribute(self, node: ast.Attribute, depth: int) -> list[str]:
        base = node.value
        if isinstance(base, ast.Name) and base.id == "os" and node.attr == "pardir":
            return [".."]
        if isinstance(base, ast.Name) and base.id == "os" and node.attr == "sep":
            return ["/"]
        if isinstance(base, ast.Name) and base.id == "sys" and node.attr in _SYS_PREFIX:
            return [PREFIX]
        if isinstance(base, ast.Name) and base.id == "sys" and node.attr == "executable":
            return [PREFIX + "/python.exe"]
        if node.attr == "parent":
            return [posixpath.dirname(v) for v in self.values(base, depth)]
        return []

    def _call(self, node: ast.Call, depth: int) -> list[str]:
        name = _func_name(node)
        args = [self.values(a, depth) for a in node.args]
        if name in ("resolve", "absolute") and isinstance(node.func, ast.Attribute):
            return self.values(node.func.value, depth)
        if name == "with_suffix" and isinstance(node.func, ast.Attribute) and args:
            base = self.values(node.func.value, depth)
            return [posixpath.splitext(b)[0] + s for b in base for s in args[0]][:MAX_CANDIDATES]
        if name in ("get_path", "getsitepackages") and isinstance(node.func, ast.Attribute):
            return [SITE]
        if name == "join" and args:
            return ["/".join(p) for p in _product(args)][:MAX_CANDIDATES]
        if name == "dirname" and args:
            return [posixpath.dirname(v) for v in args[0]]
        if name in _IDENTITY and args:
            return args[0]
        return []


def _product(lists: list[list[str]]) -> Iterator[tuple[str, ...]]:
    if not lists:
        yield ()
        return
    for head in lists[0][:MAX_CANDIDATES]:
        for tail in _product(lists[1:]):
            yield (head, *tail)


def _func_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def _literals(nodes: list[ast.AST]) -> set[str]:
    """String literals and imported module names: the folders a module may refer to."""
    found = {
        n.value.replace("\\", "/").strip("/")
        for n in nodes
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and 0 < len(n.value) < 200
    }
    for n in nodes:
        if isinstance(n, ast.Import):
            found.update(alias.name.replace(".", "/") for alias in n.names)
        elif isinstance(n, ast.ImportFrom) and n.module and not n.level:
            found.add(n.module.replace(".", "/"))
    return found


def _module_registrations(
    text: str,
    module_path: str,
    scope: str,
    folders: dict[str, str],
    site: str,
    files: frozenset[str],
    dll_folders: dict[str, str],
) -> Iterator[Registration]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    nodes = list(ast.walk(tree))  # one walk: the evaluator, the calls and the literals all use it
    evaluator = _Evaluator(nodes, module_path)
    unresolved = False
    for node in nodes:
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = _func_name(node)
        if name == "add_dll_directory":
            kind: RegistrationKind = "dll-directory"
        elif name in _LOADERS:
            kind = "preload"
        else:
            continue
        values = [
            posixpath.join(site, v[len(SITE) :].lstrip("/")) if v.startswith(SITE) else v
            for v in evaluator.values(node.args[0])
        ]
        hits = [p for v in values if (p := _norm(v)) is not None]
        if kind == "dll-directory":
            # sys.prefix: the environment root; a --target folder holds the data files itself
            hits += [p[len(PREFIX) + 1 :] for p in hits if p.startswith(PREFIX + "/")]
            known = [folders[p.lower()] for p in hits if p.lower() in folders]
            unresolved = unresolved or not known
            for path in known:
                # A folder outside the package is added for other packages too (kivy_deps for kivy):
                # once imported it serves every module of the process.
                inside = (
                    not scope or path.lower() == scope.lower() or path.lower().startswith(scope.lower() + "/")
                )
                yield Registration(scope if inside else "", kind, path, module_path)
        else:  # the first candidate that exists is the one loaded
            existing = next((p for p in hits if p.lower() in files), None)
            if existing is not None:
                yield Registration(scope, kind, existing, module_path)
    if unresolved:
        yield from _fallback(nodes, module_path, scope, dll_folders, site)


def _fallback(
    nodes: list[ast.AST], module_path: str, scope: str, folders: dict[str, str], site: str
) -> Iterator[Registration]:
    """An ``add_dll_directory`` call whose argument is not static: the package's folder, and folders the
    module names in string literals or imports (inside it, beside it, or in site-packages)."""
    here = posixpath.dirname(module_path)
    root = posixpath.dirname(here)
    if here.lower() in folders:
        yield Registration(scope, "dll-directory", folders[here.lower()], module_path)
    for literal in sorted(_literals(nodes)):
        for base in dict.fromkeys((here, root, site)):
            candidate = _norm(posixpath.join(base, literal)) if "/" not in literal or base == here else None
            if candidate and candidate.lower() in folders and candidate.lower() != here.lower():
                yield Registration(scope, "dll-directory", folders[candidate.lower()], module_path)


def read_registrations(
    source: Source, pe_paths: Iterable[str], site_roots: Sequence[str]
) -> tuple[Registration, ...]:
    """Registrations of the ``__init__.py`` files above the given PE files and of ``.pth`` files in the
    site-packages roots. ``pe_paths`` and the result are posix paths relative to the target root."""
    names = source.names()
    lowered = {n.lower(): n for n in names}
    parents = {n: _parent(n) for n in names}
    folders = {p.lower(): p for p in parents.values()}
    modules: dict[str, str] = {}  # module path -> scope
    pe_files = list(pe_paths)
    dll_folders = {posixpath.dirname(p).lower(): posixpath.dirname(p) for p in pe_files}
    site = site_roots[0] if site_roots else ""
    depth = site.count("/") + 1 if site else 0
    for name in names:  # packages that only register folders for others (kivy_deps.glew for kivy)
        if name.endswith("/__init__.py") and name.count("/") - depth <= 2 and name.startswith(site):
            modules.setdefault(name, posixpath.dirname(name))
    for path in pe_files:
        folder = posixpath.dirname(path)
        while folder:
            init = lowered.get(f"{folder}/__init__.py".lower())
            if init is not None:
                modules.setdefault(init, posixpath.dirname(init))
            folder = posixpath.dirname(folder)
    for root in site_roots:
        prefix = f"{root}/" if root else ""
        for name in sorted(n for n in names if n.endswith(".pth")):
            if parents[name] == root:
                for module in _pth_imports(source.read_text(name, MAX_SOURCE) or "", prefix, lowered):
                    modules.setdefault(module, "")
    files = frozenset(lowered)
    found: list[Registration] = []
    for module, scope in sorted(modules.items())[:MAX_MODULES]:
        text = source.read_text(module, MAX_SOURCE) or ""
        if any(marker in text for marker in _MARKERS):
            found.extend(_module_registrations(text, module, scope, folders, site, files, dll_folders))
    return tuple(dict.fromkeys(found))


def _parent(path: str) -> str:
    """``posixpath.dirname`` for the many names of a big install, without its per-call overhead."""
    head = path[: path.rfind("/") + 1]
    return head.rstrip("/") or head


def _pth_imports(text: str, prefix: str, lowered: dict[str, str]) -> Iterator[str]:
    """The modules an ``import x`` line of a .pth file runs, looked up in its root and its path lines."""
    lines = [line.strip() for line in text[:MAX_SOURCE].splitlines()]
    dirs = [""] + [line.replace("\\", "/") for line in lines if line and not line.startswith(("#", "import"))]
    for line in lines:
        if not line.startswith("import "):
            continue
        for module in (m.strip() for m in line[len("import ") :].split(",")):
            for folder in dirs:
                candidate = lowered.get(posixpath.join(prefix + folder, module + ".py").lower())
                if candidate is not None:
                    yield candidate
                    break
