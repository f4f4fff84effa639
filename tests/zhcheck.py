"""A check that an answer given with ``--lang zh`` holds no English words of its own.

Names stay as they are in any language: file and DLL names, paths, URLs, options, rule ids, code
identifiers, versions, product names (the list below), and whatever is quoted (``code``, "a quote from the
error text", 「…」). What is left is looked at word by word: an ASCII word of three letters or more is
flagged.
"""

from __future__ import annotations

import re

# Product, tool and file-format names that Chinese text writes in Latin letters too, spelled as they are
# written (a lowercase English word is not spared because a product happens to share it capitalised).
_NAMES = """
    Python python Windows PowerShell conda pip venv virtualenv torch PyTorch Microsoft Visual Redistributable
    Studio Smart App Control Store Prompt Anaconda Miniconda Code Toolkit Intel Linux Oracle Client Nuitka
    PyInstaller Atom PyCharm NVIDIA wheel wheels dll pyd exe whl cmd lief pefile Git cuDNN cuBLAS numpy scipy
    onnxruntime tensorflow ggml llama cffi cairo pango gobject vips xformers pyzbar pywin32 pythoncom win32api
    torchvision torchaudio onnx h5py ctypes cx_Freeze VLC MPI Instant cairocffi shapely WeasyPrint GEOS DirectX
    Node Electron npm Media Foundation Octave PHP Maya MATLAB Rust Player KN Wine Proton Steam OpenSSL
    pyexpat site bin import traceback Traceback dlldoctor powershell zip False True
"""
NAMES = frozenset(_NAMES.split())

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
    re.compile(r"\b\w+(?:::\w+)+"),  # C++ scoped names (std::mutex)
    re.compile(r"\b\w+(?:-\w+)+\b"),  # rule ids, categories, kinds
    re.compile(r"\w*[\d_=@#%]\w*|\+\w+"),  # identifiers with digits or underscores, +cpu
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
            if word not in NAMES and word not in allowed:
                found.append((word, line))
    return found
