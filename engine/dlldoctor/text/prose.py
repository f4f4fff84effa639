"""A user's own words that a DLL is missing, and the words that make such a sentence no failure (a question, a
tool that packs DLLs, a problem said to be over)."""

from __future__ import annotations

from dlldoctor.text.shapes import DLL_NAME, FactPattern, fact_pattern

# A user's own words: "fbgemm.dll is missing", "missing msvcr100.dll", "缺少 MSVCP140.dll". ``next`` is the word
# after "missing", to tell a missing file from a DLL "missing an entry point".
PROSE_MISSING: tuple[FactPattern, ...] = (
    fact_pattern(
        r"\b(?P<dll>" + DLL_NAME + r")[\"'`]?\s+(?:is |was |are |were |seems to be |appears to be |file is |"
        r"files are |went |got |goes )?missing\b(?P<next>[ \t]+[A-Za-z]+)?"
    ),
    fact_pattern(
        r"\bmissing(?: the| a)?(?: file| files| dll| DLL| library)?:?\s+[\"'`]?(?P<dll>" + DLL_NAME + r")\b"
    ),
    fact_pattern(
        r"\b(?P<dll>" + DLL_NAME + r")[\"'`]?\s+(?:is |was |being )?(?:not (?:being )?available|unavailable|"
        r"could not be found|cannot be found|can't be found|is not found|was not found|not found)"
    ),
    fact_pattern(
        r"\b(?:not found|missing|cannot find|can't find|could not find):\s*[\"'`]?(?P<dll>"
        + DLL_NAME
        + r")\b"
    ),
    fact_pattern(r"(?:缺少|缺失|丢失|遺失)了?\s*(?:文件|檔案)?\s*[\"'`]?(?P<dll>" + DLL_NAME + r")\b"),
    fact_pattern(r"\b(?P<dll>" + DLL_NAME + r")[\"'`]?\s*(?:文件|檔案)?\s*(?:丢失|缺失|遺失|找不到|不存在)"),
    # ... in other languages, after the name: "vcruntime140.dll이 없어서", "VCRUNTIME140.dll が見つかりません",
    # "MSVCP140.dll fehlt", "msvcr100.dll не найден"; or before it: "не найден файл MSVCP140.dll"
    fact_pattern(
        r"\b(?P<dll>"
        + DLL_NAME
        + r")[\"'`」]?\s*(?:(?:이|가|파일이)?\s*(?:없어서|없습니다|없다|없음|없어요|없네요|누락)|"
        r"(?:ファイル)?が\s*(?:見つからない|見つかりません|ありません)|"
        r"(?:fehlt|wurde nicht gefunden|nicht gefunden|не найден|отсутствует))"
    ),
    fact_pattern(r"(?:не найден|отсутствует)\s+(?:файл|библиотека)?\s*[\"'`«]?(?P<dll>" + DLL_NAME + r")\b"),
    # "There is no such file `graphbolt_pytorch_2.4.1.dll`"
    fact_pattern(r"\bthere (?:is|was) no such (?:file|dll|DLL)\s*:?\s*[\"'`]?(?P<dll>" + DLL_NAME + r")\b"),
    # "lack of dll: X.dll", "lacks X.dll", the name perhaps on the next line
    fact_pattern(
        r"\black(?:s|ing)?(?: of)?(?: the)?(?: dlls?| files?)?:?\s+[\"'`]?(?P<dll>" + DLL_NAME + r")\b"
    ),
)
# Lines on which "X.dll is missing" is not a failure: a question whether it is, a tool that packs or checks
# DLLs, a problem said to be over. ("X.dll is missing, what should I do?" is a failure.)
PROSE_QUESTION = (
    r"(?m)^\s*(?:is|are|does|do|did|should|can|could)[ \t]|^\s*(?:what happens if|why is|why does)\b|"
    r"場合は|場合には|如果"
)
PROSE_OVER = (
    r"will not be vendored|not be bundled|delvewheel|auditwheel|dependency walker|dumpbin|"
    r"已经好了|已解决|解决了|\b(?:now|already) (?:fixed|solved|resolved)\b"
)
PROSE_NOT_A_FAILURE = PROSE_QUESTION + "|" + PROSE_OVER
# After "X.dll is missing": words that make it a missing *part* of the DLL, not a missing file.
NOT_A_FILE = frozenset(
    [
        "a",
        "an",
        "the",
        "some",
        "entry",
        "export",
        "exports",
        "symbol",
        "symbols",
        "function",
        "functions",
        "procedure",
        "procedures",
        "ordinal",
        "dependency",
        "dependencies",
    ]
)
