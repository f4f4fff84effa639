"""The words of ``doctor`` and of a re-read bundle in English and Chinese: the verdict sentences, what
each Windows error code of a live load means, the headings and the facts read from the machine. Keyed
by a stable id; ``{name}`` marks a part that varies."""

from __future__ import annotations

from dlldoctor.formats.sentences import pick

WORDS: dict[str, tuple[str, str]] = {
    "no-rule": (
        "✗ import {modules} fails, and no rule explains it: read the details below",
        "✗ 导入 {modules} 失败，但没有规则能解释：请阅读下面的详细信息",
    ),
    "healthy": (
        "✓ every import works and the scan finds nothing wrong",
        "✓ 每个导入都正常，扫描也没有发现问题",
    ),
    "warning": (
        "⚠ {category}: {title} — a warning: every import works; it fails only if used",
        "⚠ {category}：{title}——警告：每个导入都正常；只有用到时才会失败",
    ),
    "verdict": ("✗ {category}: {title} — {how}", "✗ {category}：{title}——{how}"),
    "confirmed": ("confirmed on this machine", "已在这台机器上证实"),
    "from-probe": (
        "read from the link the live probe saw fail (no scan of the install)",
        "取自实时探测看到失败的那一环（未扫描安装）",
    ),
    "from-text": (
        "from the error text only (the install does not confirm it)",
        "仅依据错误文本（安装未能证实）",
    ),
    "from-scan": (
        "found by the scan; the import itself works now",
        "由扫描发现；导入本身目前正常",
    ),
    "code-126": ("a DLL it needs is not found", "找不到它需要的某个 DLL（找不到指定的模块）"),
    "code-127": (
        "a DLL it needs lacks an imported name",
        "它需要的某个 DLL 缺少被导入的名称（找不到指定的程序）",
    ),
    "code-193": (
        "a file is for another machine type or is not a PE file",
        "某个文件属于另一种架构，或者不是 PE 文件（不是有效的 Win32 应用程序）",
    ),
    "code-1114": ("a DLL's initialisation failed", "某个 DLL 初始化失败（动态链接库(DLL)初始化例程失败）"),
    "code-1455": ("the paging file is too small", "页面文件太小"),
    "code-4551": ("an Application Control policy blocked the file", "应用程序控制策略阻止了该文件"),
    "code-other": ("the load failed", "加载失败"),
    "live": (
        "LoadLibraryExW({path}) failed with {code}: {meaning}",
        "LoadLibraryExW({path}) 失败，错误 {code}：{meaning}",
    ),
    "live-lacks": (" — {dll} lacks {name}", "——{dll} 缺少 {name}"),
    "live-no-load": (" — {dll} does not load", "——{dll} 无法加载"),
    "reproduced": ("reproduced", "重现"),
    "live-probe": ("live probe", "实时探测"),
    "evidence": ("evidence", "依据"),
    "fix": ("fix", "修复"),
    "colon": (": ", "："),
    "machine": ("The machine", "这台机器"),
    "live-probe-md": ("Live probe", "实时探测"),
    "reproduced-imports": ("Reproduced imports", "重现的导入"),
    "evidence-md": ("Evidence", "依据"),
    "probe-calls": ("Live probe (code, file, what failed)", "实时探测（错误代码、文件、失败的部分）"),
    "scan-findings": ("Static scan findings", "静态扫描发现的问题"),
    "none": ("none", "无"),
    "ok": ("ok", "正常"),
    "no-probe": ("no probe: every import worked", "未探测：每个导入都正常"),
    "left-out": ("… {n} more characters left out", "……另有 {n} 个字符未列出"),
    "fact-python": (
        "Python {version} ({bits}-bit, {kind}): {exe}",
        "Python {version}（{bits} 位，{kind}）：{exe}",
    ),
    "fact-windows": (
        "Windows: {product} {display} build {build}",
        "Windows：{product} {display} 版本 {build}",
    ),
    "fact-redist": ("VC++ Redistributable (x64): {version}", "VC++ 可再发行组件 (x64)：{version}"),
    "not-installed": ("not installed", "未安装"),
    "fact-system32": ("System32 DLLs: {versions}", "System32 中的 DLL：{versions}"),
    "none-read": ("none read", "未读取"),
    "present": ("present", "存在"),
    "fact-driver": ("NVIDIA driver: {driver}", "NVIDIA 驱动：{driver}"),
    "none-found": ("none found", "未找到"),
    "fact-policies": (
        "Smart App Control: {sac}; App Control (WDAC) policies in force: {wdac}; long paths: {long}; "
        "console code page: {cp}",
        "智能应用控制：{sac}；生效的应用程序控制 (WDAC) 策略：{wdac}；长路径：{long}；控制台代码页：{cp}",
    ),
    "enabled": ("enabled", "已启用"),
    "disabled": ("disabled", "未启用"),
    "sac-off": ("off", "关"),
    "sac-on": ("on", "开"),
    "sac-evaluation": ("evaluation", "评估"),
    "unknown": ("unknown", "未知"),
    "fact-path": ("PATH: {n} folder(s)", "PATH：{n} 个文件夹"),
    "fact-conda": ("conda: activated ({name})", "conda：已激活（{name}）"),
    "bundle-no-scan": (
        "The bundle holds no scan (the collector writes none); its diagnosis rests on the probes.",
        "诊断包中没有扫描结果（收集脚本不做扫描）；诊断只依据探测。",
    ),
    "bundle-scan-of": ("scan of {target} on the machine:", "在这台机器上对 {target} 的扫描："),
}


def word(key: str, lang: str, **values: object) -> str:
    return pick(WORDS, key, lang, **values)
