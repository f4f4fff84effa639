"""The words of the web page in English and Chinese (the answer itself is said by formats/explain.py and
formats/doctor.py, as on the command line). Keyed by a stable id; ``{name}`` marks a part that varies."""

from __future__ import annotations

from dlldoctor.formats.sentences import pick

WORDS: dict[str, tuple[str, str]] = {
    "title": ("dlldoctor: why does this DLL not load?", "dlldoctor：为什么这个 DLL 加载失败？"),
    "intro": (
        "Paste the error (a traceback, a pop-up's message, a whole log) and get its likely causes, "
        "best first, with the fixes.",
        "粘贴报错信息（Traceback、弹窗内容或整段日志），即可得到按可能性排序的原因和修复方法。",
    ),
    "paste-label": ("The error text", "错误文本"),
    "explain": ("Explain", "分析"),
    "bundle-label": (
        "Or a bundle written by dlldoctor doctor --report or by the collector (JSON)",
        "或者上传 dlldoctor doctor --report 或收集器写出的诊断包（JSON）",
    ),
    "read-bundle": ("Read the bundle", "读取诊断包"),
    "privacy": (
        "Nothing you paste or upload is stored or logged: it is read in memory, answered and forgotten.",
        "粘贴或上传的内容不会被保存，也不会写入日志：只在内存中读取、作答，随即丢弃。",
    ),
    "answer": ("Answer", "结论"),
    "copy": ("Copy", "复制"),
    "copied": ("Copied", "已复制"),
    "confidence": ("confidence {percent}", "置信度 {percent}"),
    "not-read": ("Not read: {message}", "无法读取：{message}"),
    "too-large": (
        "The request is larger than {size} KB: paste the part around the error.",
        "请求超过 {size} KB：请只粘贴报错附近的部分。",
    ),
    "too-slow": (
        "The answer took longer than {seconds} s: paste the part around the error.",
        "分析耗时超过 {seconds} 秒：请只粘贴报错附近的部分。",
    ),
    "no-input": (
        "Paste an error text or choose a bundle file.",
        "请粘贴错误文本或选择一个诊断包文件。",
    ),
    "api": (
        'The same answer as JSON: POST /api/explain with {{"text": …}}; the command line: '
        "pip install dlldoctor, then dlldoctor explain.",
        '同样的结论也可以 JSON 形式获得：POST /api/explain，内容为 {{"text": …}}；命令行：'
        "pip install dlldoctor，然后运行 dlldoctor explain。",
    ),
}


def word(key: str, lang: str, **values: object) -> str:
    return pick(WORDS, key, lang, **values)
