"""Facts reasoned from two others in one text: which Python the extension modules were built for against the
one that runs, which CUDA the missing DLL belongs to against the CUDA the reporter says is installed; and
from what a text lacks: a report without a word of Python comes from a native program, one that names Linux or
macOS and nothing of Windows from another system, one that names a DLL and states no failure is a report told in
words; a prompt with an environment's name shows it activated; a Python 2 or 3.7's import error shows a Python that
still searched PATH."""

from __future__ import annotations

from collections.abc import Iterable

from dlldoctor.text.shapes import PY_VERSION, ScannedText, fact_pattern
from dlldoctor.text.topic import speaks_of_dlls_otherwise
from dlldoctor.vocabulary import DerivedFact

# Where the running interpreter's version is read: the banner, `python -V`, Store package names, install
# and embeddable folders (not the generic "Python 3.x" of prose, nor a wheel's own tag).
_INTERPRETER_PRIORITY = 5
# An extension module or a wheel tagged for one CPython: `_C.cp310-win_amd64.pyd`, `-cp39-cp39-win_amd64`,
# pywin32's `301-py3.9` build tag.
_TAGS = (
    fact_pattern(r"\.cp3(?P<min>\d{1,2})t?-win(?:_amd64|32|_arm64)\.pyd\b"),
    fact_pattern(r"-cp3(?P<min>\d{1,2})-cp3\d{1,2}t?-win"),
    fact_pattern(r"\b\d+(?:\.\d+)*-py3\.(?P<min>\d{1,2})\b"),
)
# The CUDA a reporter says is installed: "CUDA Version: 12.4", "cuda ver 12.8", "i have cuda 13", an issue
# template's "CUDA/cuDNN version: 11.2", "...\CUDA\v11.8\bin", "CUDA_PATH_V12_2".
_CUDA_FOLDER = fact_pattern(r"CUDA[\\/]v(?P<maj>\d{1,2})\.\d")
_CUDA_VARIABLE = fact_pattern(r"CUDA_PATH_V(?P<maj>\d{1,2})_\d")
_CUDA_STATED = (
    fact_pattern(r"\bcuda(?:[ _-]?(?:toolkit|version|ver))?\s*[:=]?\s*v?(?P<maj>1\d|[89])(?:\.\d)?\b"),
    # the template's first number, when it can only be CUDA's (cuDNN's majors stay below 10; "8.1/11.2" is
    # cuDNN first)
    fact_pattern(r"\bcuda ?/ ?cudnn version:?\s*v?(?P<maj>1\d)(?:\.\d)?\b"),
    _CUDA_FOLDER,
    _CUDA_VARIABLE,
)
# A CUDA toolkit the text shows installed (not nvidia-smi's "CUDA Version", the newest the driver runs, nor a CUDA
# asked about): its folder or variable, its installer, nvcc's "release 12.4", "I have CUDA 12.4 installed".
_CUDA_TOOLKIT = (
    _CUDA_FOLDER,
    _CUDA_VARIABLE,
    fact_pattern(r"\bcuda_(?P<maj>1\d)\.\d+\.\d+_\d+(?:\.\d+)?_win"),
    fact_pattern(r"\brelease (?P<maj>1\d)\.\d, V1\d"),
    fact_pattern(r"\b(?:installed|i have|i've got) cuda(?: toolkit)? v?(?P<maj>1\d)(?:\.\d)?\b"),
    fact_pattern(r"\bcuda(?: toolkit)? v?(?P<maj>1\d)(?:\.\d)? (?:is )?installed\b"),
)
# Any other CUDA the text names: a wheel's "+cu118", a requirement.
_CUDA_NAMED = (fact_pattern(r"\bcu(?P<maj>1\d)\d\b"), fact_pattern(r"\bcuda\s*v?(?P<maj>1\d)\b"))

# Any word of Python: its name, its own error words (DLL load failed, [WinError n], FileNotFoundError's
# "constructor syntax", WindowsError), a traceback, an import statement (a line of its own, at a prompt or
# not) or a user importing something, ctypes and cffi, importlib's frames, pip, conda, site-packages, a .py,
# .pyd or wheel, a freezer of Python programs and its folders, the packages most reported.
_PYTHON_WORDS = fact_pattern(
    r"(?m)python|\.pyd?\b|\bpip\b|site-packages|traceback|"
    r"^\s*(?:>>>|In \[\d+\]:)?\s*(?:from [\w.]+ )?import [\w.]+(?: as \w+)?\s*$|"
    r"\b(?:i|we|when|after|if|to|can'?t|cannot|couldn'?t|fails? to) import [\w.]+|\bimport of \w|"
    r"\bimporting \w|importerror|modulenotfounderror|windowserror|\bctypes\b|\bcffi\b|importlib|_MEI\d"
    r"|dynlib/dll|win32api|\bxgboost|dll load fail|winerror|filenotfounderror|oserror|constructor syntax"
    r"|conda\b|jupyter|ipython|pyinstaller|nuitka|cx_freeze|\bpy -3|\.whl\b|\bwheel|\bvenv\b|virtualenv"
    r"|pycharm|spyder|\btorch|tensorflow|dso_loader|could not load dynamic library|\bnumpy|\bcv2\b|\bscipy"
    r"|caffe2|pywin32|pywintypes|win32ctypes|typelib|gobject|\bpyqt|pyside|\bkeras|\bpandas"
    r"|error loading:? [\"'`]"
)


# Another system named and nothing of Windows: a report from Linux or macOS, which the loader's causes on
# Windows do not explain.
_OTHER_OS = fact_pattern(
    r"\bmac ?os\b|\bos ?x\b|\bubuntu\b|\bdebian\b|\bfedora\b|\blinux\b|\w\.so(?:\.\d+)*\b|\.dylib\b"
    r"|ld_library_path|ld_debug|/usr/(?:lib|local)/|(?:^|[\s\"'`(])/(?:home|Users)/\w|\bubuntu ?\d"
)
_WINDOWS_WORDS = fact_pattern(
    r"windows|\bwin ?(?:7|8|10|11|xp)\b|win32|win64|win_amd64|win-?64|win_arm64|winerror|\b[a-z]:[\\/]"
    r"|\.dll\b|\.exe\b|\.pyd\b|system32|appdata|specified (?:module|procedure)|not a valid win32"
    r"|dll load fail|dynamic link library|\(dll\)|%1"
)


# A shell prompt with an environment's name before it, as conda's (and a venv's) activation writes it:
# "(myenv) C:\\work>", "(base) PS C:\\>", cmder's "(env) λ"; a name that starts with a letter (not a list's "(1)"),
# and not "(x86)".
_ACTIVATED = fact_pattern(
    r"(?m)^[ \t>]*\((?:(?-i:[A-Za-wyzA-WYZ_][\w.-]*|[xX](?:[^\d)][\w.-]*)?)|[A-Za-z]:[\\/][^()\r\n]*)\)[ \t]+"
    r"(?:[A-Za-z]:[\\/]|PS [A-Za-z]:|λ)"
)


# A Python before 3.8, which still searched PATH for an extension module's DLLs: Python 2's banner, folder or tag
# ("Python 2.7.10 (default, …)", "C:\\Python27\\", "cp27"), a 3.7 interpreter's, or 3.7's and older's import error,
# which names no module ("ImportError: DLL load failed: The specified module could not be found"; 3.8 added "while
# importing X"), or its os module without os.add_dll_directory, which 3.8 added.
_PYTHON_2 = fact_pattern(r"(?m)^\s*(?:>>>\s*)?Python 2\.\d+(?:\.\d+)?\s*\(|[\\/]Python2\d[\\/]|\bcp2\d\b")
_OLD_IMPORT_ERROR = fact_pattern(
    r"(?m)^\s*ImportError: DLL load failed: |module 'os' has no attribute 'add_dll_directory'"
)
_PATH_SEARCHED_BELOW = 8  # Python 3.8 stopped searching PATH
# ... unless a Python from 3.8 on is named too ("it worked on 3.7, on Python 3.8 DLL load failed"): the one that failed
_PYTHON_38_ON = fact_pattern(
    r"\bpython ?3\.(?:[89]|1\d)\b|\bcp3(?:[89]|1\d)\b|[\\/]python3(?:[89]|1\d)t?[\\/]|"
    r"DLL load failed while importing\b"
)


def _ints(t: ScannedText, patterns: Iterable[object], group: str) -> set[int]:
    out: set[int] = set()
    for pattern in patterns:
        for m in t.finditer(pattern):  # type: ignore[arg-type]
            out.add(int(m.group(group)))
    return out


def _interpreter_minor(t: ScannedText) -> int | None:
    best: tuple[int, int, int] | None = None
    for priority, pattern in PY_VERSION:
        if priority < _INTERPRETER_PRIORITY:
            continue
        m = t.search(pattern)
        if not m:
            continue
        try:
            minor = int(m.group("v").decode().split(".")[1])
        except (IndexError, KeyError, AttributeError):
            minor = int(m.group("min"))
        candidate = (priority, -m.start(), minor)
        if best is None or candidate > best:
            best = candidate
    return best[2] if best else None


def derive(
    t: ScannedText,
    error_dlls: tuple[str, ...],
    versions: tuple[tuple[str, str, str], ...],
    failed: bool = True,
    windows_stated: bool = False,
) -> tuple[DerivedFact, ...]:
    """The derived facts of a text; ``failed``: whether it states a failure at all (a text that does not is
    nobody's report, native or not); ``windows_stated``: whether a statement only Windows makes was read (its
    loader's messages, a WinError, an NTSTATUS), which no word of another system outweighs."""
    found: list[DerivedFact] = []
    running = _interpreter_minor(t)
    if running is not None and any(tag != running for tag in _ints(t, _TAGS, "min")):
        found.append("abi-tag-differs")
    majors = {int(v.split(".")[0]) for dll, comp, v in versions if comp == "cuda" and dll in error_dlls}
    if majors:
        stated = _ints(t, _CUDA_STATED, "maj")
        installed = _ints(t, _CUDA_TOOLKIT, "maj")
        # another major said, or shown installed ("it wants cuda 12 but i have cuda 13": the wanted one is said
        # too); before CUDA 11 a minor apart (cudart64_101.dll on CUDA 10.2) is another rule's, by the DLL's name
        if (stated and not majors & stated) or (installed and not majors & installed):
            found.append("cuda-version-differs")
        elif (
            min(majors) >= 11  # before CUDA 11 a DLL's name holds the minor version as well
            and installed == majors  # that toolkit shown installed ...
            and (stated | _ints(t, _CUDA_NAMED, "maj")) == majors  # ... and no other CUDA named
        ):
            found.append("cuda-version-agrees")
    if failed and not t.search(_PYTHON_WORDS):
        found.append("native-program")
    if t.search(_ACTIVATED):
        found.append("env-activated")
    before_38 = running < _PATH_SEARCHED_BELOW if running is not None else False
    if (before_38 or t.search(_PYTHON_2) or t.search(_OLD_IMPORT_ERROR)) and not t.search(_PYTHON_38_ON):
        found.append("python-before-38")
    if failed and not windows_stated and t.search(_OTHER_OS) and not t.search(_WINDOWS_WORDS):
        found.append("other-os")
    # a text that names a DLL and states no failure, nor speaks of DLLs for another reason: a report told in words
    # ("the installer only copies libz3.dll; on some systems it also needs vcomp110.dll"), which the differential
    # answers, when no rule does, with the causes that most often explain such reports
    if not failed and error_dlls and not speaks_of_dlls_otherwise(t):
        found.append("dll-named")
    return tuple(found)
