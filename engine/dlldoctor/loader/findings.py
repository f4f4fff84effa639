"""Findings: the fixed vocabulary of what can be wrong with one link of a load operation."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from dlldoctor.loader.resolution import Node, Resolution
from dlldoctor.vocabulary import FindingContext, FindingKind, LoadContext, Severity

SEVERITY: dict[FindingKind, Severity] = {
    "missing-dll": "error",
    "missing-symbol": "error",
    "arch-mismatch": "error",
    "corrupt-file": "error",
    "delay-load-missing": "warning",
}


@dataclass(frozen=True)
class Finding:
    kind: FindingKind
    severity: Severity
    file: str  # the importing file (or the broken file itself)
    dll: str | None
    symbol: str | None
    message: str
    chain: tuple[str, ...]
    context: FindingContext
    considered: tuple[str, ...] = ()
    symbols: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, str, str]:
        """One finding per broken thing: a missing DLL once, however many modules need it."""
        if self.kind == "missing-symbol":
            return (self.kind, self.file, (self.dll or "").lower())
        if self.kind == "corrupt-file":
            return (self.kind, self.file, "")
        return (self.kind, "", (self.dll or "").lower())


def _make(kind: FindingKind, **fields: object) -> Finding:
    return Finding(kind=kind, severity=SEVERITY[kind], **fields)  # type: ignore[arg-type]


def from_tree(
    root: Node, root_label: str, context: LoadContext, machine: str, *, certain: bool = True
) -> Iterator[Finding]:
    """Every broken link under ``root``, each with the chain of names that leads to it.

    ``certain=False``: nothing in the target is known to load ``root`` into python.exe (a plugin, a
    launcher, another architecture's build): its broken links are warnings, a wrong machine a hint.
    """
    for finding in _visit(root, (root_label,), context, machine, root.resolution.location):
        yield finding if certain else _speculative(finding)


def _speculative(finding: Finding) -> Finding:
    """A damaged file stays an error (it is broken whoever loads it); a link that would fail, only if
    something loads the file, is a warning; another architecture's build, a hint."""
    severity: Severity = "info" if finding.kind == "arch-mismatch" else "warning"
    if finding.severity != "error" or finding.kind == "corrupt-file":
        return finding
    message = f"{finding.message} (if it is loaded at all: nothing in the target is known to load it)"
    return replace(finding, severity=severity, message=message)


def _visit(
    node: Node, chain: tuple[str, ...], context: LoadContext, machine: str, importer: str
) -> Iterator[Finding]:
    resolution = node.resolution
    if len(chain) == 1:
        if node.defect is not None:
            yield _make(
                "corrupt-file",
                file=resolution.location,
                dll=resolution.name,
                symbol=None,
                message=f"{resolution.name} is not a usable PE file: {node.defect}",
                chain=chain,
                context=context,
            )
        elif resolution.status == "wrong-machine" and node.image is not None:
            yield _make(
                "arch-mismatch",
                file=resolution.location,
                dll=resolution.name,
                symbol=None,
                message=f"{resolution.name} is built for {node.image.machine} but the Python process "
                f"is {machine}: Windows refuses it (%1 is not a valid Win32 application)",
                chain=chain,
                context=context,
            )
    # Depth first, imports in table order, without recursion: a chain of thousands of DLLs is a real
    # (if odd) input, and Python's stack is not the loader's.
    stack = [(child, chain, node) for child in reversed(node.children)]
    while stack:
        child, above, parent = stack.pop()
        yield from _edge(child, above, context, machine, parent)
        if _descends(child):
            here = (*above, child.resolution.name)
            stack.extend((grandchild, here, child) for grandchild in reversed(child.children))


def _descends(child: Node) -> bool:
    """Whether the links below ``child`` are part of this load (it bound, loads now, and is new here)."""
    res = child.resolution
    delayed = child.imported is not None and child.imported.delayed
    broken = res.status in ("missing", "wrong-machine", "corrupt") or child.defect is not None
    return not (broken or delayed or child.repeat)


def _link(
    kind: FindingKind, file: str, res: Resolution, chain: tuple[str, ...], context: LoadContext, message: str
) -> Finding:
    """A finding about one resolved link of a chain (the DLL named, no symbol)."""
    return _make(
        kind,
        file=file,
        dll=res.name,
        symbol=None,
        message=message,
        chain=chain,
        context=context,
        considered=res.considered,
    )


def _edge(
    child: Node, chain: tuple[str, ...], context: LoadContext, machine: str, parent: Node
) -> Iterator[Finding]:
    res = child.resolution
    imported = child.imported
    importer_name = chain[-1].rsplit("/", 1)[-1]
    here = (*chain, res.name)
    importer = parent.resolution.location
    delayed = imported is not None and imported.delayed
    if res.status == "missing":
        where = "; ".join(res.considered) or "nowhere"
        if delayed:
            message = (
                f"{res.name}, delay-loaded by {importer_name}, is not found "
                f"(looked in: {where}); the first call into it will fail"
            )
            yield _link("delay-load-missing", importer, res, here, context, message)
        else:
            message = f"{res.name}, needed by {importer_name}, is not found (looked in: {where})"
            yield _link("missing-dll", importer, res, here, context, message)
        return
    if delayed:
        # The importer loads: a delay-loaded DLL is bound at the first call into it (Wine agrees).
        yield from _delayed_problem(child, importer, importer_name, here, context, machine)
        return
    if res.status == "wrong-machine":
        message = (
            f"{res.name}, needed by {importer_name}, is first found at {res.location} [{res.reason}], "
            f"which is not a {machine} DLL: Windows stops there with error 193 / 0xc000007b"
        )
        yield _link("arch-mismatch", importer, res, here, context, message)
        return
    if res.status == "corrupt" or child.defect is not None:
        detail = f": {child.defect}" if child.defect is not None else ""
        message = (
            f"{res.name}, needed by {importer_name}, is found at {res.location} "
            f"[{res.reason}] but is not a usable PE file{detail}"
        )
        yield _link("corrupt-file", res.location, res, here, context, message)
        return
    if child.missing_symbols:
        names = child.missing_symbols
        sample = names[0] if len(names) == 1 else f"{len(names)} of them, first {names[0]}"
        yield _make(
            "missing-symbol",
            file=importer,
            dll=res.name,
            symbol=names[0],
            message=f"{importer_name} imports names that {res.name} at {res.location} [{res.reason}] "
            f"does not export ({sample})",
            chain=here,
            context=context,
            considered=res.considered,
            symbols=names,
        )


def _delayed_problem(
    child: Node, importer: str, importer_name: str, here: tuple[str, ...], context: LoadContext, machine: str
) -> Iterator[Finding]:
    """A delay-loaded DLL found but unusable: a warning, since only the first call into it fails."""
    res = child.resolution
    where = f"{res.name}, delay-loaded by {importer_name}, is found at {res.location} [{res.reason}]"
    if res.status == "wrong-machine":
        problem, symbol = f"{where}, which is not a {machine} DLL", None
    elif res.status == "corrupt" or child.defect is not None:
        problem, symbol = f"{where} but is not a usable PE file", None
    elif child.missing_symbols:
        names = child.missing_symbols
        sample = names[0] if len(names) == 1 else f"{len(names)} of them, first {names[0]}"
        problem, symbol = f"{where} but does not export what it needs ({sample})", names[0]
    else:
        return
    yield _make(
        "delay-load-missing",
        file=importer,
        dll=res.name,
        symbol=symbol,
        message=f"{problem}; the first call into it will fail",
        chain=here,
        context=context,
        considered=res.considered,
        symbols=child.missing_symbols,
    )
