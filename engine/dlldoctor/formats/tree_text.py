"""One module's dependency tree, with the reason each edge resolved where it did."""

from __future__ import annotations

from dlldoctor.formats.style import Style
from dlldoctor.loader.resolution import Node


def _label(node: Node, style: Style) -> str:
    res = node.resolution
    name = style(res.name, "bold")
    if res.status == "missing":
        looked = f"  looked in: {'; '.join(res.considered)}" if res.considered else ""
        return f"{name}  {style('[not found]', 'red', 'bold')}{style(looked, 'dim')}"
    if res.status == "wrong-machine":
        return f"{name}  {style('[wrong machine: ' + res.location + ']', 'red', 'bold')}"
    if res.status == "corrupt" or node.defect is not None:
        return f"{name}  {style('[corrupt: ' + str(node.defect or res.location) + ']', 'red', 'bold')}"
    text = f"{name}  {style('[' + res.reason + ']', 'cyan')}"
    if res.entry is not None:
        text += f"  {res.location}"
    if res.assumed:
        text += style("  (assumed)", "dim")
    if node.missing_symbols:
        count = len(node.missing_symbols)
        text += "  " + style(f"missing {count} name(s): {node.missing_symbols[0]}", "red")
    if node.repeat:
        text += style("  (see above)", "dim")
    return text


def _folded(node: Node, verbose: bool) -> bool:
    res = node.resolution
    return not verbose and res.system and res.status == "found" and not node.missing_symbols


MAX_INDENT = 40  # levels drawn as indentation; deeper ones are drawn at this level with their depth


def _items(node: Node, verbose: bool, style: Style) -> list[Node | str]:
    shown = [c for c in node.children if not _folded(c, verbose)]
    folded = [c for c in node.children if _folded(c, verbose)]
    items: list[Node | str] = list(shown)
    if folded:
        unique = sorted({c.resolution.name for c in folded}, key=str.lower)
        names = ", ".join(unique[:6]) + (", …" if len(unique) > 6 else "")
        items.append(style(f"+ {len(folded)} system DLL(s): {names}", "dim"))
    return items


def _lines(root: Node, verbose: bool, style: Style, out: list[str], max_depth: int | None = None) -> None:
    """The tree below ``root``, depth first, without recursion (a chain may be thousands deep);
    ``max_depth`` levels at most, the rest counted."""
    stack: list[tuple[list[Node | str], int, str, int]] = [(_items(root, verbose, style), 0, "", 1)]
    while stack:
        items, index, prefix, depth = stack.pop()
        if index >= len(items):
            continue
        stack.append((items, index + 1, prefix, depth))
        item = items[index]
        last = index == len(items) - 1
        branch = "└── " if last else "├── "
        if isinstance(item, str):
            out.append(prefix + branch + item)
            continue
        deep = style(f"[depth {depth}] ", "dim") if depth > MAX_INDENT else ""
        out.append(prefix + branch + deep + _label(item, style))
        if item.repeat:
            continue
        below = prefix if depth >= MAX_INDENT else prefix + ("    " if last else "│   ")
        if max_depth is not None and depth >= max_depth:
            hidden = len(item.walk()) - 1
            if hidden:
                out.append(
                    below + "└── " + style(f"… {hidden} more below (deeper than --depth {max_depth})", "dim")
                )
            continue
        stack.append((_items(item, verbose, style), 0, below, depth + 1))


def render(
    relpath: str,
    context: str,
    tree: Node,
    verbose: bool = False,
    colour: bool = False,
    max_depth: int | None = None,
) -> str:
    style = Style(colour)
    head = f"{style(relpath, 'bold')}  {style('[' + context + ']', 'cyan')}"
    if tree.defect is not None:
        head += "  " + style(f"[corrupt: {tree.defect}]", "red", "bold")
    out = [head]
    _lines(tree, verbose, style, out, max_depth)
    return "\n".join(out) + "\n"
