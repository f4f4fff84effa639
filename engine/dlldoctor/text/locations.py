"""Where a DLL named in an error sits, read from its path: the folder says as much as the name.

A non-system DLL under System32 is a stale copy that wins every search; a torch DLL under the user site
(``AppData\\Roaming\\Python\\Python3X\\site-packages``) or a ``--target`` folder lies outside the folders torch
registers; a DLL in PyInstaller's ``_MEI…`` folder belongs to a frozen bundle; ``Library\\bin`` is a conda
environment's DLL folder, on PATH only when the environment is activated.
"""

from __future__ import annotations

import re
from functools import cache

from dlldoctor.kb.families import base_name
from dlldoctor.vocabulary import Location

# Checked in this order; the first that matches names the location.
_LOCATIONS: tuple[tuple[Location, str], ...] = (
    ("system32", r"[\\/]windows[\\/](?:system32|syswow64|sysnative)[\\/]"),
    ("store", r"windowsapps[\\/]pythonsoftwarefoundation|packages[\\/]pythonsoftwarefoundation\.python"),
    ("pyinstaller", r"[\\/]_mei\d+[\\/]|[\\/]_internal[\\/]|\.dist[\\/]"),
    ("embedded", r"python_embed(?:d)?ed[\\/]|python-3[\d.]*-embed"),
    ("user-site", r"appdata[\\/]roaming[\\/]python[\\/]python3\d+(?:-32|-arm64)?[\\/]site-packages[\\/]"),
    ("conda-library-bin", r"[\\/]library[\\/]bin[\\/]"),
    ("site-packages", r"[\\/](?:lib[\\/])?site-packages[\\/]"),
    # a package folder outside any site-packages: `pip install --target DIR`, a copied or portable folder
    (
        "target",
        r"[\\/](?:torch|tensorflow|onnxruntime|cv2|numpy)[\\/](?:lib[\\/]|capi[\\/])?[^\\/]+\.(?:dll|pyd)$",
    ),
    ("program-files", r"[\\/]program files(?: \(x86\))?[\\/]"),
)


@cache
def _compiled() -> tuple[tuple[Location, re.Pattern[str]], ...]:
    return tuple((name, re.compile(pattern, re.IGNORECASE)) for name, pattern in _LOCATIONS)


def locate(path: str | None) -> Location | None:
    """The kind of folder a Windows path lies in, or None when it says nothing (no folder, a relative name)."""
    if not path or ("\\" not in path and "/" not in path):
        return None
    path = path.strip().strip("\"'")
    for name, pattern in _compiled():
        if pattern.search(path):
            return name
    return None


# A word of the sentence glued to the name in a language written without spaces ("由于找不到写VCRUNTIME140.DLL": one
# verb or particle), or a whole clause read as a name when the message left its place empty ("于动态链接库上，…，
# MaaPiCli.exe"); not a name that is itself partly Chinese (腾讯QQ.dll, 我的程序v2.exe).
_GLUED = re.compile(r"(?:[写到于在是的了]|.*[,;:，；：、])[ ]*([a-z0-9_.+~-]+\.(?:dll|pyd|exe))")


def named_dll(path: str | None) -> str | None:
    """The lower-case name of the DLL (or .pyd, .exe) a path or an error's words name, else None."""
    if not path:
        return None
    name = base_name(path)
    glued = None if name.isascii() else _GLUED.fullmatch(name)
    name = glued.group(1) if glued else name
    return name if name.endswith((".dll", ".pyd", ".exe")) else None


# ... and a function's name read with the sentence before it ("启动exe文件后显示无法定位程序输入点_std_free_crt")
_GLUED_SYMBOL = re.compile(r".*[^\x00-\x7f]([A-Za-z0-9_@?$.]+)")


def named_symbol(symbol: str | None) -> str | None:
    """A function's name as an error's words give it, without a sentence glued before it."""
    glued = _GLUED_SYMBOL.fullmatch(symbol) if symbol and not symbol.isascii() else None
    return glued.group(1) if glued else symbol
