"""A check that an answer given with ``--lang zh`` holds no English words of its own.

Names stay as they are in any language: file and DLL names, paths, URLs, options, rule ids, code
identifiers, versions, product names (the list below), and whatever is quoted (``code``, "a quote from the
error text", 「…」). What is left is looked at word by word: an ASCII word of three letters or more is
flagged.
"""

from __future__ import annotations

import re

# Product, tool and file-format names that Chinese text writes in Latin letters too.
NAMES = frozenset(
    """
    python windows powershell conda pip venv virtualenv torch pytorch cuda cudnn nvidia microsoft visual
    redistributable dll dlls pyd exe whl wheel wheels record sha256 openmp smart app control wdac lief
    pefile git lfs ide vs code pycharm anaconda prompt miniconda mkl qt pyqt sdk gdal toolkit onnxruntime
    numpy scipy tensorflow store msys2 mingw cpu gpu api ascii utf json yaml sarif github markdown zip
    dlldoctor loadlibraryexw system32 syswow64 known kernel32 path max_path win32 knowndll import atom
    cmd pyexpat ggml llama cffi cairo pango gobject vips nuitka pyinstaller intel linux oracle client vlc
    gtk geos directx studio xformers pytorch3d pyzbar pywin32 pythoncom win32api site bin false true
    """.split()
)

_DROP = [
    re.compile(r"^::\w+ [^:]*::"),  # a GitHub workflow command's name and properties
    re.compile(r"^\s*(?:[-\d.]+\s+)?\w+> .*"),  # a shell command under a fix (pip> …, PowerShell> …)
    re.compile(r"\b(?:dlldoctor|conda|pip|winget|python) [a-z]+\b"),  # a tool and its subcommand
    re.compile(r"https?://\S+"),  # URLs
    re.compile(r"`[^`]*`"),  # code
    re.compile(r'"[^"\n]*"'),  # quotes from the error text or the rule
    re.compile(r"'[^'\n]*'"),
    re.compile(r"「[^」]*」|“[^”]*”"),
    re.compile(r"<[^<>\s]*(?:\s[^<>]*)?>"),  # <placeholders>, HTML tags of Markdown
    re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*"),  # options
    re.compile(r"\S*[\\/]\S*"),  # paths
    re.compile(r"[\w+-]*\.\w[\w.+-]*"),  # file names, versions, dotted names, section names
    re.compile(r"\b\w+(?:-\w+)+\b"),  # rule ids, categories, kinds
    re.compile(r"\w*[\d_=@#%]\w*"),  # identifiers with digits or underscores
    re.compile(r"\b[A-Z]{2,}\w*\b"),  # ERROR_MOD_NOT_FOUND, CUDA, PATH
    re.compile(r"\b[a-z]+[A-Z]\w*\b|\b[A-Z]\w*[A-Z]\w*\b"),  # camelCase and CamelCase
]
_WORD = re.compile(r"[A-Za-z]{3,}")


def english_words(text: str, allowed: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """(word, line) for each English word left in ``text`` once names are taken out."""
    found = []
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):  # a fenced block quotes the error text as it was
            fenced = not fenced
            continue
        if fenced:
            continue
        rest = line
        for pattern in _DROP:
            rest = pattern.sub(" ", rest)
        for word in _WORD.findall(rest):
            if word.lower() not in NAMES and word not in allowed:
                found.append((word, line))
    return found
