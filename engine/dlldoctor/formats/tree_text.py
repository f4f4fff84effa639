"""One module's dependency tree, with the reason each edge resolved where it did."""

from __future__ import annotations

from dlldoctor.formats import scan_words as words
from dlldoctor.formats.error_words import defect as said_defect
from dlldoctor.formats.style import Style
from dlldoctor.loader.resolution import Node


def _label(node: Node, style: Style, lang: str = "en") -> str:
    res = node.resolution
    name = style(res.name, "bold")
    say = words.label
    if res.status == "missing":
        sep = "；" if lang == "zh" else "; "
        looked = (
            f"  {say(lang, 'looked_in')}: {sep.join(words.place(c, lang) for c in res.considered)}"
            if res.considered
            else ""
        )
        return f"{name}  {style('[' + say(lang, 'not_found') + ']', 'red', 'bold')}{style(looked, 'dim')}"
    if res.status == "wrong-machine":
        return f"{name}  {style('[' + say(lang, 'wrong_machine') + ': ' + res.location + ']', 'red', 'bold')}"
    if res.status == "corrupt" or node.defect is not None:
        defect = said_defect(str(node.defect or res.location), lang)
        return f"{name}  {style('[' + say(lang, 'corrupt') + ': ' + defect + ']', 'red', 'bold')}"
    text = f"{name}  {style('[' + words.reason(res.reason, lang) + ']', 'cyan')}"
    if res.entry is not None:
        text += f"  {res.location}"
    if res.assumed:
        text += style("  " + say(lang, "assumed"), "dim")
    if node.missing_symbols:
        count = len(node.missing_symbols)
        text += "  " + style(say(lang, "missing_names", n=count, first=node.missing_symbols[0]), "red")
    if node.repeat:
        text += style("  " + say(lang, "see_above"), "dim")
    return text


def _folded(node: Node, verbose: bool) -> bool:
    res = node.resolution
    return not verbose and res.system and res.status == "found" and not node.missing_symbols


MAX_INDENT = 40  # levels drawn as indentation; deeper ones are drawn at this level with their depth


def _items(node: Node, verbose: bool, style: Style, lang: str = "en") -> list[Node | str]:
    shown = [c for c in node.children if not _folded(c, verbose)]
    folded = [c for c in node.children if _folded(c, verbose)]
    items: list[Node | str] = list(shown)
    if folded:
        unique = sorted({c.resolution.name for c in folded}, key=str.lower)
        names = ", ".join(unique[:6]) + (", …" if len(unique) > 6 else "")
        items.append(style(words.label(lang, "system_dlls", n=len(folded), names=names), "dim"))
    return items


def _lines(
    root: Node,
    verbose: bool,
    style: Style,
    out: list[str],
    max_depth: int | None = None,
    lang: str = "en",
) -> None:
    """The tree below ``root``, depth first, without recursion (a chain may be thousands deep);
    ``max_depth`` levels at most, the rest counted."""
    stack: list[tuple[list[Node | str], int, str, int]] = [(_items(root, verbose, style, lang), 0, "", 1)]
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
        deep = style(f"[{words.label(lang, 'depth', n=depth)}] ", "dim") if depth > MAX_INDENT else ""
        out.append(prefix + branch + deep + _label(item, style, lang))
        if item.repeat:
            continue
        below = prefix if depth >= MAX_INDENT else prefix + ("    " if last else "│   ")
        if max_depth is not None and depth >= max_depth:
            hidden = len(item.walk()) - 1
            if hidden:
                more = words.label(lang, "more_below", n=hidden, depth=max_depth)
                out.append(below + "└── " + style(more, "dim"))
            continue
        stack.append((_items(item, verbose, style, lang), 0, below, depth + 1))


def render(
    relpath: str,
    context: str,
    tree: Node,
    verbose: bool = False,
    colour: bool = False,
    max_depth: int | None = None,
    lang: str = "en",
) -> str:
    style = Style(colour)
    head = f"{style(relpath, 'bold')}  {style('[' + words.context(context, lang) + ']', 'cyan')}"
    if tree.defect is not None:
        head += "  " + style(
            f"[{words.label(lang, 'corrupt')}: {said_defect(str(tree.defect), lang)}]", "red", "bold"
        )
    out = [head]
    _lines(tree, verbose, style, out, max_depth, lang)
    return "\n".join(out) + "\n"
