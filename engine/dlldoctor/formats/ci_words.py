"""The words of the CI formats (SARIF results, GitHub annotations) in English and Chinese: what each
finding kind means, and the annotations' own lines. Keyed by a stable id."""

from __future__ import annotations

from dlldoctor.formats.sentences import pick

WORDS: dict[str, tuple[str, str]] = {
    "missing-dll": (
        "A DLL in the load graph is not found where Windows would look for it (error 126).",
        "加载图中的某个 DLL 在 Windows 会查找的位置都找不到（错误 126）。",
    ),
    "missing-symbol": (
        "A DLL is found but does not export a name or ordinal its importer needs (error 127).",
        "找到了 DLL，但它没有导出导入者需要的名称或序号（错误 127）。",
    ),
    "arch-mismatch": (
        "A DLL of another machine type (32/64-bit, ARM64) would be loaded (error 193).",
        "将会加载另一种架构（32/64 位、ARM64）的 DLL（错误 193）。",
    ),
    "corrupt-file": (
        "A PE file cannot be read as one: truncated, damaged or not a PE file.",
        "某个 PE 文件无法读取：被截断、已损坏或根本不是 PE 文件。",
    ),
    "delay-load-missing": (
        "A delay-loaded DLL is not found: it fails only when first used.",
        "找不到延迟加载的 DLL：只有第一次用到它时才会失败。",
    ),
    "also": ("also confirmed for this cause: {ids}", "同一原因的其他规则：{ids}"),
    "fix": ("fix: {text}", "修复：{text}"),
    "docs": ("docs: {url}", "文档：{url}"),
    "not-windows": ("not a Windows target: it holds no PE file", "不是 Windows 目标：其中没有 PE 文件"),
    "errors": ("{n} error(s)", "{n} 个错误"),
    "healthy": ("no problems found", "未发现问题"),
    "empty": ("{n} not a Windows target (nothing checked)", "{n} 个不是 Windows 目标（未检查任何内容）"),
    "summary": ("dlldoctor: {n} target(s) scanned: {verdict}", "dlldoctor：已扫描 {n} 个目标：{verdict}"),
    "comma": (", ", "，"),
    "semicolon": ("; ", "；"),
    "finding-where": ("{message} ({where}; {context})", "{message}（{where}；{context}）"),
    "chain-context": ("{chain} ({context})", "{chain}（{context}）"),
}


def word(key: str, lang: str, **values: object) -> str:
    return pick(WORDS, key, lang, **values)
