"""`dlldoctor tree` as JSON (versioned): each tree as nested nodes, and one PE file's imports and exports."""

from __future__ import annotations

import json
from typing import Any

from dlldoctor.loader.resolution import Node
from dlldoctor.pe.model import PEImage

TREE_VERSION = 1


def _node(node: Node) -> dict[str, Any]:
    res = node.resolution
    item: dict[str, Any] = {
        "name": res.name,
        "status": "corrupt" if node.defect is not None else res.status,
        "reason": res.reason,
        "location": res.location,
        "system": res.system,
        "delayed": bool(node.imported is not None and node.imported.delayed),
        "repeat": node.repeat,
        "children": [],
    }
    if res.status == "missing":
        item["considered"] = list(res.considered)
    if res.assumed:
        item["assumed"] = res.assumed
    if node.missing_symbols:
        item["missing_symbols"] = list(node.missing_symbols)
    if node.defect is not None:
        item["defect"] = str(node.defect)
    return item


def tree_dict(tree: Node, max_depth: int | None = None) -> dict[str, Any]:
    """Nested nodes without recursion (a chain may be thousands deep); ``max_depth`` levels below the root,
    the cut nodes marked ``"truncated": N`` (how many nodes were left out below them)."""
    root = _node(tree)
    stack: list[tuple[Node, dict[str, Any], int]] = [(tree, root, 0)]
    while stack:
        node, item, depth = stack.pop()
        if node.repeat:
            continue
        if max_depth is not None and depth >= max_depth:
            hidden = len(node.walk()) - 1
            if hidden:
                item["truncated"] = hidden
            continue
        for child in node.children:
            child_item = _node(child)
            item["children"].append(child_item)
            stack.append((child, child_item, depth + 1))
    return root


def render_trees(
    target: str, trees: list[tuple[str, str, Node, str | None]], max_depth: int | None = None
) -> str:
    """``trees``: (file, load context, tree, first failure or None) for each file shown."""
    data = {
        "version": TREE_VERSION,
        "target": target,
        "trees": [
            {
                "file": rel,
                "context": context,
                "loads": failure is None,
                "failure": failure,
                "tree": tree_dict(tree, max_depth),
            }
            for rel, context, tree, failure in trees
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def table_dict(relpath: str, image: PEImage, imports: bool, exports: bool) -> dict[str, Any]:
    data: dict[str, Any] = {"version": TREE_VERSION, "file": relpath, "machine": image.machine}
    if imports:
        data["imports"] = [
            {"dll": i.dll, "names": sorted(i.names), "ordinals": sorted(i.ordinals), "delayed": i.delayed}
            for i in (*image.imports, *image.delay_imports)
        ]
    if exports:
        data["exports"] = sorted(image.exports)
        data["export_ordinals"] = sorted(image.export_ordinals)
        data["forwarders"] = dict(sorted(image.forwarders))
    return data


def table_text(relpath: str, image: PEImage, imports: bool, exports: bool) -> str:
    lines = [f"{relpath}  [{image.machine}]"]
    if imports:
        entries = (*image.imports, *image.delay_imports)
        lines.append(f"imports from {len(entries)} DLL(s):")
        for i in entries:
            names = sorted(i.names) + [f"#{o}" for o in sorted(i.ordinals)]
            lines.append(f"  {i.dll}{'  (delay-load)' if i.delayed else ''}: {len(names)} name(s)")
            lines += [f"    {n}" for n in names]
    if exports:
        forwarded = dict(image.forwarders)
        lines.append(f"exports {len(image.exports)} name(s), {len(image.export_ordinals)} ordinal(s):")
        lines += [f"  {n}" + (f"  → {forwarded[n]}" if n in forwarded else "") for n in sorted(image.exports)]
    return "\n".join(lines) + "\n"
