"""The words of the scan and tree reports in English and Chinese: headings, verdicts, finding kinds,
load contexts, roles, severities and the reasons a DLL resolved where it did (each finding's sentence is
in formats/scan_sentences.py)."""

from __future__ import annotations

import re

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "errors": "{n} error(s)",
        "healthy": "no problems found",
        "warnings": "{n} warning(s)",
        "not_windows": "not a Windows target (no DLL, .pyd or .exe in it)",
        "context_line": "{python}, {machine} process, {files} PE file(s)",
        "python": "Python {version}",
        "python_unknown": "Python version unknown",
        "diagnoses": "Diagnoses",
        "because": "because",
        "fix": "fix",
        "docs": "docs",
        "also": "also confirmed for this cause",
        "findings": "Findings",
        "context": "context",
        "hints": "{n} hint(s) about files nothing is known to load; -v shows them",
        "files_checked": "{n} PE file(s) checked; --files lists them",
        "files": "Files",
        "assumptions": "Assumptions",
        "assumptions_hidden": "{n} assumption(s) about the Windows machine; -v lists them",
        "corrupt": "corrupt",
        "not_found": "not found",
        "looked_in": "looked in",
        "wrong_machine": "wrong machine",
        "assumed": "(assumed)",
        "see_above": "(see above)",
        "missing_names": "missing {n} name(s): {first}",
        "system_dlls": "+ {n} system DLL(s): {names}",
        "more_below": "… {n} more below (deeper than --depth {depth})",
        "depth": "depth {n}",
        "linker": "linker",
        "unknown": "unknown",
        "and_more": " and {n} more",
        "in_targets": "in {names}",
        "of_targets": " ({n} of {total} targets)",
        "files_head": "| file | role | machine | linker | size |",
        "exe_folder": "<python.exe folder>",
        "other_folders": "{n} other folder(s) of the package",
        "deeper": "✗ a DLL does not load ({kinds}); it may be deeper than --depth {depth}",
        "imports_from": "imports from {n} DLL(s):",
        "import_names": "  {dll}{delayed}: {n} name(s)",
        "delayed": "  (delay-load)",
        "exports": "exports {n} name(s), {ordinals} ordinal(s):",
    },
    "zh": {
        "errors": "{n} 个错误",
        "healthy": "未发现问题",
        "warnings": "{n} 个警告",
        "not_windows": "不是 Windows 目标（其中没有 DLL、.pyd 或 .exe）",
        "context_line": "{python}，{machine} 进程，{files} 个 PE 文件",
        "python": "Python {version}",
        "python_unknown": "Python 版本未知",
        "diagnoses": "诊断",
        "because": "依据",
        "fix": "修复",
        "docs": "文档",
        "also": "同一原因的其他规则",
        "findings": "发现的问题",
        "context": "加载方式",
        "hints": "{n} 条关于未知是否会被加载的文件的提示；-v 显示它们",
        "files_checked": "已检查 {n} 个 PE 文件；--files 列出它们",
        "files": "文件",
        "assumptions": "假设",
        "assumptions_hidden": "对这台 Windows 机器做了 {n} 条假设；-v 列出它们",
        "corrupt": "已损坏",
        "not_found": "找不到",
        "looked_in": "查找过",
        "wrong_machine": "架构不符",
        "assumed": "（假设）",
        "see_above": "（见上文）",
        "missing_names": "缺少 {n} 个名称：{first}",
        "system_dlls": "+ {n} 个系统 DLL：{names}",
        "more_below": "… 其下还有 {n} 项（超过 --depth {depth}）",
        "depth": "第 {n} 层",
        "linker": "链接器",
        "unknown": "未知",
        "and_more": " 等另外 {n} 个",
        "in_targets": "见于 {names}",
        "of_targets": "（{total} 个目标中的 {n} 个）",
        "files_head": "| 文件 | 角色 | 架构 | 链接器 | 大小 |",
        "exe_folder": "<python.exe 所在文件夹>",
        "other_folders": "该软件包的另外 {n} 个文件夹",
        "deeper": "✗ 有 DLL 无法加载（{kinds}），可能在 --depth {depth} 之下",
        "imports_from": "从 {n} 个 DLL 导入：",
        "import_names": "  {dll}{delayed}：{n} 个名称",
        "delayed": "（延迟加载）",
        "exports": "导出 {n} 个名称、{ordinals} 个序号：",
    },
}

_OTHER_FOLDERS = re.compile(r"(\d+) other folder\(s\) of the package")
ROLES_ZH = {"extension": "扩展模块", "dll": "DLL", "exe": "程序"}
STATUSES_ZH = {"missing": "找不到", "wrong-machine": "架构不符", "corrupt": "已损坏"}
SEVERITIES_ZH = {"error": "错误", "warning": "警告", "info": "提示"}

KINDS_ZH = {
    "missing-dll": "缺少 DLL",
    "missing-symbol": "缺少导出",
    "arch-mismatch": "架构不符",
    "corrupt-file": "文件损坏",
    "delay-load-missing": "缺少延迟加载的 DLL",
}

CONTEXTS_ZH = {
    "extension module": "扩展模块",
    "extension module (Python < 3.8)": "扩展模块（Python < 3.8）",
    "torch preload": "torch 预加载",
    "program start": "程序启动",
    "loaded by full path": "按完整路径加载",
    "file check": "文件检查",
}

# The reasons of the tree, word by word (a reason may combine several: "already loaded; torch preload").
REASONS_ZH = (
    ("already loaded", "已加载"),
    ("same folder", "同一文件夹"),
    ("<python.exe folder>", "<python.exe 所在文件夹>"),
    ("python.exe folder", "python.exe 所在文件夹"),
    ("add_dll_directory", "add_dll_directory"),
    ("PATH fallback", "PATH 回退"),
    ("loaded by its package", "由其软件包加载"),
    ("KnownDLL", "KnownDLL"),
    ("API set", "API 集"),
    ("delay-load", "延迟加载"),
    ("torch preload", "torch 预加载"),
)


def label(lang: str, key: str, **values: object) -> str:
    return LABELS["zh" if lang == "zh" else "en"][key].format(**values)


def kind(value: str, lang: str) -> str:
    return KINDS_ZH.get(value, value) if lang == "zh" else value


def role(value: str, lang: str) -> str:
    return ROLES_ZH.get(value, value) if lang == "zh" else value


def statuses(values: set[str], lang: str) -> str:
    """The ways DLLs failed to load, as a list (``missing, wrong-machine``)."""
    if lang != "zh":
        return ", ".join(sorted(values))
    return "、".join(STATUSES_ZH.get(v, v) for v in sorted(values))


def severity(value: str, lang: str) -> str:
    return SEVERITIES_ZH.get(value, value) if lang == "zh" else value


def place(value: str, lang: str) -> str:
    """A folder the loader looked in, as the report names it (``<python.exe folder>`` when unknown)."""
    if lang != "zh":
        return value
    others = _OTHER_FOLDERS.fullmatch(value)
    if others:
        return label(lang, "other_folders", n=others.group(1))
    return value.replace(LABELS["en"]["exe_folder"], LABELS["zh"]["exe_folder"])


def context(value: str, lang: str) -> str:
    return CONTEXTS_ZH.get(value, value) if lang == "zh" else value


def reason(value: str, lang: str) -> str:
    if lang != "zh":
        return value
    for en, zh in REASONS_ZH:
        value = value.replace(en, zh)
    return value
