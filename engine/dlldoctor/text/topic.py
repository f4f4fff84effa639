"""A failed load spoken of in general words, when the text holds no statement of one: "Missing DLL in Windows
build", "cudnn64_8.dll error", "Can't import TensorFlow", "导入 cv2 报错".

Each is an event of kind ``topic``, the weakest loader error there is: it is only read from a text in which no
other shape was found, and it says no more than that some native library did not load. It lets the
differential name the causes that most often explain such a report instead of saying nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

from dlldoctor.kb.patterns import compile_pattern
from dlldoctor.text.shapes import DLL_NAME, FactPattern, ScannedText, fact_pattern

_FAILED = (
    r"(?:missing|not found|not be found|could not|couldn't|cannot|can't|can not|unable|fail(?:s|ed|ing|ure)?|"
    r"errors?|issues?|problems?|crash(?:es|ed|ing)?|broken|(?:does not|doesn't|won't|not) (?:work|load|start|run|launch)|"
    r"找不到|缺少|缺失|无法|失败|失敗|报错|報錯|出错|错误|錯誤|見つかりません|エラー|없습니다|오류)"
)
# A DLL named with what went wrong with it: "cudnn64_8.dll missing", "python39.dll error", "missing
# MSVCR100.dll", "problem with libzmq.dll", "缺少 xxx.dll". The words must be close to the name.
_AFTER_NAME = (
    r"(?:missing|not found|could not be (?:found|loaded)|cannot be (?:found|loaded)|fail(?:s|ed|ing)?|errors?|"
    r"crash(?:es|ed)?|problems?|issues?|找不到|缺少|缺失|丢失|无法|失败|报错|错误|見つかりません|エラー|오류)"
)
_BEFORE_NAME = (
    r"(?:missing|(?:can't|cannot|could not|couldn't|unable to|fail(?:s|ed)? to) (?:find|load|locate)|"
    r"error (?:loading|with|in|from)|problems? with|issues? with|crash(?:es|ed)? (?:in|on)|缺少|丢失|找不到|"
    r"没有找到|无法(?:加载|找到)|加载失败)"
)
_NAMED = fact_pattern(
    r"(?:(?P<dll>"
    + DLL_NAME
    + r")\b[^\r\n]{0,30}?"
    + _AFTER_NAME
    + r"|"
    + _BEFORE_NAME
    + r"[^\r\n]{0,30}?(?P<dll2>"
    + DLL_NAME
    + r")\b)"
)
# DLLs at all: "Missing DLL in Windows build", "DLL error", "dlls not found", "动态链接库 出错".
_DLLS = r"(?:(?:^|[^\w.])dlls?\b|dynamic[- ]link librar(?:y|ies)|native librar(?:y|ies)|动态链接库|動態連結程式庫)"
_GENERAL = fact_pattern(
    r"(?:missing|缺少|缺失|丢失|找不到)\s*"
    + _DLLS
    + r"|"
    + _DLLS
    + r"\s*(?:(?:is |are )?(?:missing|not found)|errors?|issues?|problems?|hell|出错|错误|报错|缺失|丢失)"
)
# An import that fails: "Can't import TensorFlow", "Error when importing libraries:".
_IMPORT = fact_pattern(
    r"(?:\bimport(?:ing|s)?\b|导入|導入|インポート)[^\r\n]{0,60}?"
    + _FAILED
    + r"|"
    + _FAILED
    + r"[^\r\n]{0,30}?(?:\bimport(?:ing)?\b|导入|導入|インポート)"
)
# Lines that speak of a DLL for another reason: an installer's or a linker's error, a file lock, a missing
# Python module (wrong interpreter), Python's own ImportError of a name.
_NOT_A_LOAD = (
    r"could not install|uninstall|being used by another process|cannot open file|unresolved external|"
    r"\blink(?:er)?\b[^\r\n]*error|\bLNK\d{4}\b|no module named|cannot import name|circular import|"
    r"has no attribute|partially initiali[sz]ed module|building wheel|failed building|setup\.py|for writing|"
    r"\bno missing\b|without (?:any )?(?:errors?|problems?)"
)


def topic_events(t: ScannedText) -> Iterator[tuple[int, str | None]]:
    """(line, DLL or None) for each line that tells of a failed load in general words."""
    not_a_load = compile_pattern(_NOT_A_LOAD)
    patterns: tuple[FactPattern, ...] = (_NAMED, _GENERAL, _IMPORT)
    seen: set[int] = set()
    for pattern in patterns:
        for m in t.finditer(pattern):
            line = t.line_of(m.start())
            if line in seen:
                continue
            start = t.starts[line - 1]
            end = t.starts[line] if line < len(t.starts) else len(t.data)
            if not_a_load.search(t.data[start:end]):
                continue
            seen.add(line)
            dll = m.group("dll") or m.group("dll2") if pattern is _NAMED else None
            yield line, (dll.decode("utf-8", "replace") if isinstance(dll, bytes) else dll)
