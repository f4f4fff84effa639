"""Undo what terminals, IDEs, notebooks and issue trackers do to a pasted error before it is read.

Colour codes, JSON/repr escapes (``\\u627e``, ``\\\\`` doubling, literal ``\\n``), box-drawing gutters of
rich tracebacks, full-width punctuation (NFKC), UTF-8 that was shown as Windows-1252 ("æ‰¾ä¸åˆ°", "mÃ³dulo").
Every step is linear in the text.
"""

from __future__ import annotations

import re
import unicodedata

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
_U_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")
_LITERAL_NEWLINE = re.compile(r"\\r\\n|\\n")
_X_RUN = re.compile(r"(?:\\x[0-9a-fA-F]{2}){4}")
_GUTTER = "│┃║╎┆┊╭╮╰╯╷╵"
# UTF-8 bytes shown as Windows-1252 (a console or editor in the wrong code page): a lead byte C2-F4 read as
# "Â".."ô", then continuation bytes 80-BF read as cp1252's punctuation or Latin-1's symbols.
_CP1252_HIGH = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ"
_MOJIBAKE = re.compile("[\u00c2-\u00f4](?:[\u0080-\u00bf" + _CP1252_HIGH + "]|[\u00c2-\u00f4])+")
_CP1252_BYTE = {
    ch: bytes([b]) for b in range(0x80, 0xA0) for ch in [bytes([b]).decode("cp1252", "ignore")] if ch
}
# "VCRUNTIME140.ddl", "SSLEAY32.ddl": a DLL's name mistyped when retold. Only a stem that ends in a digit or is
# written in capitals, as DLL names are and SQL scripts' "schema.ddl" are not.
_DDL_TYPO = re.compile(r"\b([A-Za-z][A-Za-z0-9_-]{0,62}[0-9]|[A-Z][A-Z0-9_]{1,63})\.ddl\b", re.IGNORECASE)
# ... or read from a screenshot: "libwinpthread-1.dIl", "Qt5Core.dIl", "VCRUNTIME140.D1I" (a capital I or a one for an
# "l"; no file type is spelt so), any stem of three characters or more (not a drawing's "A1.D11"), at a path's end
# but not in a URL ...
_DLL_OCR_TYPO = re.compile(
    r"(?<![A-Za-z0-9_.+/-])([A-Za-z][A-Za-z0-9_.+-]{2,62}?)\.([dD](?:[I1][lLI1]|[lL][I1]))(?![A-Za-z0-9_./\\-])"
)
# ... or cut short in the pop-up's own sentence: "The code execution cannot proceed because libwinpthread-1.dl was not
# found" (a bare ".dl" elsewhere is a Datalog program or a download)
_DLL_CUT_SHORT = re.compile(
    r"(?:(?<=cannot proceed because )|(?<=can't proceed because )|(?<=can't start because )|(?<=to start because ))"
    r"([A-Za-z][A-Za-z0-9_.+-]{0,62}?)\.dl(?= (?:was not found|is missing|could not be found))"
)
# ... or left off an API set's name in the pop-up's sentence: "The program can't start because
# api-ms-win-core-rtlsupport-l1-2-0 is missing from your computer" (an API set is always a DLL)
_API_SET_NO_EXT = re.compile(
    r"(?<=because )((?:api|ext)-ms-win-[a-z0-9-]+-l\d-\d-\d)(?= (?:was not found|is missing|could not be found))",
    re.IGNORECASE,
)
# ... or glued to the next word by a lost space: "api-ms-win-core-synch-l1-2-2.dllis missing from your computer"
_DLL_GLUED = re.compile(r"(?<=[A-Za-z0-9_])(\.dll)(?=(?:is|was) (?:missing|not found)\b)", re.IGNORECASE)
# ... and Python's words retyped with a slip: "DDL load failed", "dll load file failed"
_DDL_LOAD_TYPO = re.compile(r"\bDDL load failed\b|\bDLL load file failed\b", re.IGNORECASE)
# Python's message with its "load" dropped in a retelling: "ImportError: DLL failed while importing _pyllamacpp"
_DLL_FAILED_IMPORTING = re.compile(r"\bImportError: DLL failed (?=while importing\b)")
# HTML line breaks of an issue form's rendered answer ("DPI-1047: Cannot locate ... library: <br/>"): a break
# before a newline is dropped, one inside a line becomes the newline it stands for.
_HTML_BREAK = re.compile(r"[ \t]*<br\s*/?>[ \t]*\n?", re.IGNORECASE)
# A space that a wrapped line left between two Chinese or Japanese characters ("应用程 序"), which never
# separate words: a message's words are matched without it.
_CJK_SPACE = re.compile(r"(?<=[\u3040-\u30ff\u4e00-\u9fff]) (?=[\u3040-\u30ff\u4e00-\u9fff])")
# A Windows message in the ANSI code page printed to a console in the OEM one: Russian cp1251 shown as cp866
# ("═х эрщфхэ єърчрээ√щ ьюфєы№" for "Не найден указанный модуль"), Western cp1252 as cp850 ("spÚcifiÚ"). A line is
# read back only when the repaired line holds a word of the loader's messages that the line itself does not.
_OEM_CODE_PAGES = (
    ("cp866", "cp1251", re.compile(r"модул|процедур|приложени|библиотек|найден", re.IGNORECASE)),
    ("cp850", "cp1252", re.compile(r"spécifié|procédure|módulo|vínculos|dinámic", re.IGNORECASE)),
)
_OEM_HINT = re.compile("[\u2500-\u25a0\u0400-\u04ff\u00a0-\u00ff\u2219\u221a\u2116]")
_OEM_LINE = 2_000  # characters: longer lines are no console message
_PATH_WINDOW = 260  # characters looked back from a space between CJK characters for a path's separator
# (and the acute accent and the modifier letter typed for an apostrophe: "Can´t find dependent libraries")
_QUOTES = str.maketrans(
    {"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2018": "'", "\u2019": "'", "\u00b4": "'", "\u02bc": "'"}
)


def _dll_for_ddl(m: re.Match[str]) -> str:
    """ "VCRUNTIME140.ddl" -> "VCRUNTIME140.dll" (the extension in the case it was written in)."""
    stem, ext = m.group(1), m.group(0)[len(m.group(1)) + 1 :]
    if not (stem[-1].isdigit() or stem.isupper()):  # an SQL script's "schema.ddl"
        return m.group(0)
    return f"{stem}.{'DLL' if ext.isupper() else 'dll'}"


def _dll_for_ocr(m: re.Match[str]) -> str:
    """ "Qt5Core.dIl" -> "Qt5Core.dll", "VCRUNTIME140.D1I" -> "VCRUNTIME140.DLL"."""
    return f"{m.group(1)}.{'DLL' if m.group(2)[0] == 'D' else 'dll'}"


def _unescape_u(m: re.Match[str]) -> str:
    ch = chr(int(m.group(1), 16))
    return m.group(0) if 0xD800 <= ord(ch) <= 0xDFFF else ch


def normalize_text(raw: str) -> str:
    """The text facts and patterns are read from."""
    text = raw.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    if not text.isascii() and _MOJIBAKE.search(text):
        text = _MOJIBAKE.sub(_repair_mojibake, text)
    if not text.isascii() and _OEM_HINT.search(text):
        text = _repair_oem(text)
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if "\\u" in text:
        text = _U_ESCAPE.sub(_unescape_u, text)
    # A traceback pasted as a Python or JSON string: "...\\n  File ...\\nOSError: ..." on one line.
    if text.count("\n") <= 2 and len(_LITERAL_NEWLINE.findall(text, 0, 1_000_000)) >= 2:
        text = _LITERAL_NEWLINE.sub("\n", text)
    if "\\x" in text and "\\\\" not in text and _X_RUN.search(text[:1_000_000]):
        text = _unescape_bytes(text)
    low = text.lower()  # one lowering of the text for the typos
    if "ddl" in low or "load file failed" in low:
        text = _DDL_LOAD_TYPO.sub("DLL load failed", text)
        text = _DDL_TYPO.sub(_dll_for_ddl, text)
    if ".d" in text or ".D" in text:
        text = _DLL_OCR_TYPO.sub(_dll_for_ocr, text)
        text = _DLL_CUT_SHORT.sub(r"\1.dll", text)
        text = _DLL_GLUED.sub(r"\1 ", text)
    if "-ms-win-" in text or "-MS-WIN-" in text:
        text = _API_SET_NO_EXT.sub(r"\1.dll", text)
    if "<br" in text or "<BR" in text:
        text = _HTML_BREAK.sub("\n", text)
    if "DLL failed while" in text:
        text = _DLL_FAILED_IMPORTING.sub("ImportError: DLL load failed ", text)
    # Backslashes doubled (repr of a Windows path) or quadrupled (repr of a repr).
    while "\\\\" in text:
        text = text.replace("\\\\", "\\")
    if not text.isascii():
        # curly quotes of word processors and issue titles around paths
        text = text.translate(_QUOTES)
        for ch in _GUTTER:
            if ch in text:
                text = text.replace(ch, " ")
        text = unicodedata.normalize("NFKC", text)
        if _CJK_SPACE.search(text):
            text = _CJK_SPACE.sub(_cjk_space, text)
    return text


def _cjk_space(m: re.Match[str]) -> str:
    """The space between two CJK characters dropped, unless it is inside a path ("C:\\Users\\张 三\\")."""
    text, end = m.string, m.start()
    lo = max(0, end - _PATH_WINDOW)  # a bounded look back: a path's part is no longer than MAX_PATH
    start = max(text.rfind(" ", lo, end), text.rfind("\n", lo, end), text.rfind("\t", lo, end), lo - 1)
    return " " if any(sep in text[start + 1 : end] for sep in ("\\", "/")) else ""


def _repair_oem(text: str) -> str:
    """Each line that reads as a loader's message once its OEM code page is turned back into the ANSI one."""
    lines = text.split("\n")
    for i, line in enumerate(lines[:10_000]):
        if line.isascii() or len(line) > _OEM_LINE or not _OEM_HINT.search(line):
            continue
        for oem, ansi, words in _OEM_CODE_PAGES:
            try:
                fixed = line.encode(oem).decode(ansi)
            except (UnicodeEncodeError, UnicodeDecodeError):
                continue
            if words.search(fixed) and not words.search(line):
                lines[i] = fixed
                break
    return "\n".join(lines)


def _repair_mojibake(m: re.Match[str]) -> str:
    """A run of Latin-1/cp1252 characters that are the bytes of valid UTF-8, decoded as UTF-8; else kept."""
    run = m.group(0)
    data = b"".join(_CP1252_BYTE.get(ch) or bytes([ord(ch)]) for ch in run)
    try:
        fixed = data.decode("utf-8")
    except UnicodeDecodeError:
        return run
    return fixed if len(fixed) < len(run) else run


def _unescape_bytes(text: str) -> str:
    """``b'\\xd5\\xd2...'`` reprs of GBK or UTF-8 messages (old Pythons printed them so)."""

    def decode(m: re.Match[str]) -> str:
        data = bytes(int(h, 16) for h in re.findall(r"\\x([0-9a-fA-F]{2})", m.group(0)))
        for codec in ("utf-8", "gbk", "cp950", "cp932", "cp949", "cp1251"):
            try:
                return data.decode(codec)
            except UnicodeDecodeError:
                continue
        return m.group(0)

    return re.sub(r"(?:\\x[0-9a-fA-F]{2})+", decode, text)


def line_starts(data: bytes) -> list[int]:
    """Byte offsets where each line starts (index i → line i+1)."""
    starts = [0]
    find = data.find
    pos = find(b"\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = find(b"\n", pos + 1)
    return starts
