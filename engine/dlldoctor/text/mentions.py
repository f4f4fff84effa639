"""Every package a text names: the shapes that say which one is installed (:attr:`ErrorFacts.packages`: a
``.dist-info`` folder, a wheel's file name, pip's lines, a site-packages folder, an ``import`` line), and every
version it names, in every way people and tools print one, for the list of broken releases.

``pip install h5py==3.12.0``, ``Successfully installed h5py-3.12.0``, ``site-packages\\h5py-3.12.0.dist-info``,
a wheel's file name, ``pip show``'s ``Name:``/``Version:`` lines, ``h5py 3.12.0``, ``pywin32 version 302``,
``onnx: 1.16.2``. Unlike :attr:`ErrorFacts.packages` (one version per package, from the shapes that say which
one is installed), every pair is kept: a report naming the failing and the working release names both.
"""

from __future__ import annotations

import sys

from dlldoctor.kb.releases import Release, Releases, norm_package
from dlldoctor.text.shapes import FactPattern, ScannedText, fact_pattern

# The shapes that say which version of a package is installed (ErrorFacts.packages), and those that name an
# installed package without its version.
PACKAGES: tuple[FactPattern, ...] = (
    fact_pattern(
        r"site-packages[\\/](?P<name>[A-Za-z0-9][A-Za-z0-9_.]*)-(?P<version>\d[A-Za-z0-9_.+!]*?)\.dist-info"
    ),
    fact_pattern(
        r"\b(?P<name>[A-Za-z0-9][A-Za-z0-9_.]*)-(?P<version>\d[A-Za-z0-9_.+!]*?)-(?:cp|py)\d{1,3}[t]?-"
    ),
    fact_pattern(
        r"\b(?P<name>torch|torchvision|torchaudio|numpy|onnxruntime(?:-gpu)?|tensorflow|jax|xformers)"
        r"(?:(?:\.__version__| version)\s*[:=]?\s*|\s*==\s*|\s+)'?"
        r"(?P<version>\d+\.\d+\.\d+(?:\+[a-z0-9.]+)?|\d+\.\d+\+[a-z0-9.]+)\b"
    ),
    fact_pattern(
        r"Requirement already satisfied: (?P<name>[A-Za-z0-9][A-Za-z0-9_.-]*)"
        r"(?:==(?P<version>\d[\w.+!]*))?"
    ),
)
INSTALLED_LIST = fact_pattern(r"Successfully installed (?P<list>[^\n]+)")
PACKAGE_DIR = fact_pattern(r"site-packages[\\/](?P<name>[A-Za-z_][A-Za-z0-9_]*)[\\/]")
# A package imported on a line of its own, as a repro or a traceback shows it: "import torch", ">>> import
# tensorflow as tf", "----> 1 import numpy as np", "In [1]: from cv2 import dnn", "`import torch`", 'python -c
# "import torch; …"'. Python's lower-case keyword only (not "Import Error"), and not Java's or Kotlin's "import
# com.sun.jna.Native;", nor prose that starts with "from".
STDLIB = frozenset(sys.stdlib_module_names) | {"__future__"}  # imports that name no package
_PROMPT = r"(?m)^[ \t]*(?:>>>[ \t]*|In \[\d+\]:[ \t]*|-*>?[ \t]*\d+[ \t]+|`)?"
IMPORTED = (
    fact_pattern(
        _PROMPT + r"(?-i:import)[ \t]+(?P<name>[A-Za-z_][A-Za-z0-9_]*)[\w.]*[ \t]*(?:$|,|`|#|[ \t]as[ \t])"
    ),
    fact_pattern(
        _PROMPT + r"(?-i:from)[ \t]+(?P<name>[A-Za-z_][A-Za-z0-9_]*)[\w.]*[ \t]+(?-i:import)[ \t]+[\w.*()]+"
        r"(?:[ \t]*,[ \t]*[\w.*()]+)*[ \t]*(?:$|,|`|#|[ \t]as[ \t])"
    ),
    fact_pattern(r"\bpython[0-9.]*(?:\.exe)? -c [\"'](?-i:import)[ \t]+(?P<name>[A-Za-z_][A-Za-z0-9_]*)"),
    fact_pattern(r"`(?-i:import)[ \t]+(?P<name>[A-Za-z_][A-Za-z0-9_]*)[\w.]*(?:`|[ \t]as[ \t])"),
)

MAX_MENTIONS = 400
_NAME = r"(?P<name>[A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9])"
_MENTIONS = (
    # pip install h5py==3.12.0, "onnx==1.16.2", requirements lines
    fact_pattern(_NAME + r"\s*===?\s*v?(?P<version>\d+(?:\.\d+)*)"),
    # h5py-3.12.0.dist-info anywhere (not only under site-packages)
    fact_pattern(_NAME + r"-(?P<version>\d+(?:\.\d+)*)\.dist-info"),
    # pip show: "Name: onnx" then "Version: 1.16.2"
    fact_pattern(r"\bName:[ \t]*" + _NAME + r"[ \t]*\r?\n[ \t]*Version:[ \t]*(?P<version>\d+(?:\.\d+)*)"),
    # "h5py 3.12.0", "h5py version: 3.12.0", "torch2.3", "kiwisolver v1.3.0"
    fact_pattern(
        r"\b(?P<name>[A-Za-z][A-Za-z0-9_-]*[A-Za-z0-9])(?:[ \t]+version|[ \t]+ver\.?)?[ \t]*[:=]?[ \t]*v?"
        r"(?P<version>\d+\.\d+(?:\.\d+)*)\b"
    ),
    # a release numbered by one integer only when the text says it is a version: "pywin32 version 302",
    # "pywin32: 301", "pywin32 v302"
    fact_pattern(
        r"\b(?P<name>[A-Za-z][A-Za-z0-9_-]*[A-Za-z0-9])(?:[ \t]+version[ \t]+|[ \t]*:[ \t]*|[ \t]+v)(?P<version>\d+)\b"
    ),
)


def _text(m: object, group: str) -> str:
    value = m.group(group)  # type: ignore[attr-defined]
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value or "")


def package_mentions(t: ScannedText) -> tuple[tuple[str, str], ...]:
    """(normalized name, version) for every package version the text names, in order, without repeats."""
    found: dict[tuple[str, str], None] = {}
    for pattern in (*PACKAGES, *_MENTIONS):
        for m in t.finditer(pattern, limit=MAX_MENTIONS):
            name, version = _text(m, "name"), _text(m, "version")
            if name and version[:1].isdigit():
                found.setdefault((norm_package(name), version))
    for m in t.finditer(INSTALLED_LIST, limit=20):
        for item in _text(m, "list").split():
            name, _, version = item.rpartition("-")
            if name and version[:1].isdigit():
                found.setdefault((norm_package(name), version))
    return tuple(found)


def listed_releases(
    t: ScannedText, releases: Releases, codes: tuple[int, ...]
) -> tuple[tuple[Release, str], ...]:
    """The broken releases of ``releases`` that the text names, with the symptom it shows."""
    if not releases.entries:
        return ()
    return releases.listed(package_mentions(t), codes)
