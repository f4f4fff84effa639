"""`dlldoctor tree` as JSON (versioned): each tree as nested nodes, and one PE file's imports and exports."""

from __future__ import annotations

import json
from typing import Any

from dlldoctor.formats import scan_words as words
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


def table_text(relpath: str, image: PEImage, imports: bool, exports: bool, lang: str = "en") -> str:
    lines = [f"{relpath}  [{image.machine}]"]
    if imports:
        entries = (*image.imports, *image.delay_imports)
        lines.append(words.label(lang, "imports_from", n=len(entries)))
        for i in entries:
            names = sorted(i.names) + [f"#{o}" for o in sorted(i.ordinals)]
            delayed = words.label(lang, "delayed") if i.delayed else ""
            lines.append(words.label(lang, "import_names", dll=i.dll, delayed=delayed, n=len(names)))
            lines += [f"    {n}" for n in names]
    if exports:
        forwarded = dict(image.forwarders)
        lines.append(words.label(lang, "exports", n=len(image.exports), ordinals=len(image.export_ordinals)))
        lines += [f"  {n}" + (f"  → {forwarded[n]}" if n in forwarded else "") for n in sorted(image.exports)]
    return "\n".join(lines) + "\n"
