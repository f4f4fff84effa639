"""The sentences the scan's engine writes in English, with their Chinese: each finding's sentence, what
each probe found (the "because" lines of a diagnosis), what it would need to decide (``to_collect``),
and the assumptions about the Windows machine. Keyed by a stable id; said through
:func:`dlldoctor.formats.sentences.say`."""

from __future__ import annotations

from dlldoctor.formats import scan_words
from dlldoctor.formats.error_words import defect
from dlldoctor.formats.sentences import say
from dlldoctor.loader.findings import Finding


def _where(value: str, lang: str) -> str:
    """The folders a loader looked in, as the finding lists them."""
    return "；".join(scan_words.place(part, lang) for part in value.split("; "))


_PARTS = {"reason": scan_words.reason, "context": scan_words.context, "where": _where, "defect": defect}

FINDINGS: dict[str, tuple[str, str]] = {
    "missing": (
        "{dll}, needed by {importer}, is not found (looked in: {where})",
        "{importer} 需要的 {dll} 找不到（查找过：{where}）",
    ),
    "delay-missing": (
        "{dll}, delay-loaded by {importer}, is not found (looked in: {where}); the first call into it will fail",
        "{importer} 延迟加载的 {dll} 找不到（查找过：{where}）；第一次调用它时会失败",
    ),
    "wrong-machine": (
        "{dll}, needed by {importer}, is first found at {location} [{reason}], which is not a {machine} DLL: "
        "Windows stops there with error 193 / 0xc000007b",
        "{importer} 需要的 {dll} 最先在 {location} 找到（{reason}），但它不是 {machine} DLL："
        "Windows 在此停止，报错误 193 / 0xc000007b",
    ),
    "corrupt-detail": (
        "{dll}, needed by {importer}, is found at {location} [{reason}] but is not a usable PE file: {defect}",
        "{importer} 需要的 {dll} 在 {location} 找到（{reason}），但它不是可用的 PE 文件：{defect}",
    ),
    "corrupt": (
        "{dll}, needed by {importer}, is found at {location} [{reason}] but is not a usable PE file",
        "{importer} 需要的 {dll} 在 {location} 找到（{reason}），但它不是可用的 PE 文件",
    ),
    "not-exported": (
        "{importer} imports names that {dll} at {location} [{reason}] does not export ({sample})",
        "{location} 处的 {dll}（{reason}）没有导出 {importer} 导入的名称（{sample}）",
    ),
    "sample": ("{n} of them, first {name}", "共 {n} 个，第一个是 {name}"),
    "forwarded": ("{name} (forwarded to {target})", "{name}（转发到 {target}）"),
    "delay-wrong-machine": (
        "{dll}, delay-loaded by {importer}, is found at {location} [{reason}], which is not a {machine} DLL; "
        "the first call into it will fail",
        "{importer} 延迟加载的 {dll} 在 {location} 找到（{reason}），但它不是 {machine} DLL；第一次调用它时会失败",
    ),
    "delay-corrupt": (
        "{dll}, delay-loaded by {importer}, is found at {location} [{reason}] but is not a usable PE file; "
        "the first call into it will fail",
        "{importer} 延迟加载的 {dll} 在 {location} 找到（{reason}），但它不是可用的 PE 文件；第一次调用它时会失败",
    ),
    "delay-not-exported": (
        "{dll}, delay-loaded by {importer}, is found at {location} [{reason}] but does not export what it "
        "needs ({sample}); the first call into it will fail",
        "{importer} 延迟加载的 {dll} 在 {location} 找到（{reason}），但没有导出所需的名称（{sample}）；"
        "第一次调用它时会失败",
    ),
    "file-corrupt": ("{dll} is not a usable PE file: {defect}", "{dll} 不是可用的 PE 文件：{defect}"),
    "file-machine": (
        "{dll} is built for {machine} but the Python process is {process}: Windows refuses it "
        "(%1 is not a valid Win32 application)",
        "{dll} 是为 {machine} 构建的，但 Python 进程是 {process}：Windows 拒绝加载它（%1 不是有效的 Win32 应用程序）",
    ),
    "speculative": (
        "{message} (if it is loaded at all: nothing in the target is known to load it)",
        "{message}（前提是它会被加载：目标中没有已知会加载它的东西）",
    ),
    "comes-with": (
        "{message}. {dll} comes with {project}, which {by} requires: not in the target",
        "{message}。{dll} 随 {project} 提供，{by} 依赖 {project}，但它不在目标中",
    ),
    "comes-with-extra": (
        "{message}. {dll} comes with {project}, which {by} needs only for {why}: that feature fails until "
        "it is installed",
        "{message}。{dll} 随 {project} 提供，{by} 只在{why}时需要 {project}：安装之前该功能无法使用",
    ),
    "optional": ("an optional feature", "使用可选功能"),
    "extra": ("its extra [{extra}]", "使用其可选依赖 [{extra}]"),
}

EVIDENCE: dict[str, tuple[str, str]] = {
    "not-found-needed-by": (
        "{dll} not found, needed by {importer} [{context}]",
        "找不到 {dll}，{importer} 需要它（{context}）",
    ),
    "only-through-path": (
        "{dll} found only through PATH [{reason}]: {location}",
        "{dll} 只能通过 PATH 找到（{reason}）：{location}",
    ),
    "every-importer-finds": ("every importer finds it", "每个导入它的模块都能找到它"),
    "on-path-not-loader": (
        "{dll} is not found by the loader but is on PATH: {location}",
        "加载器找不到 {dll}，但它在 PATH 上：{location}",
    ),
    "none-on-path": ("no missing DLL is on the given PATH folders", "给出的 PATH 文件夹中没有缺少的 DLL"),
    "bound-copy-lacks": (
        "{dll} at the bound copy lacks {symbol} (needed by {importer})",
        "实际绑定的 {dll} 副本没有 {symbol}（{importer} 需要它）",
    ),
    "every-name-exported": (
        "every imported name is exported by the copy the loader binds",
        "加载器绑定的副本导出了所有被导入的名称",
    ),
    "every-module-machine": ("every module is {machine}", "所有模块都是 {machine}"),
    "record-absent": (
        "{path} is listed in {owner}/RECORD but absent",
        "{path} 列在 {owner}/RECORD 中，但文件不存在",
    ),
    "record-differs": (
        "{path} differs from the sha256 in {owner}/RECORD",
        "{path} 与 {owner}/RECORD 中的 sha256 不一致",
    ),
    "record-intact": (
        "files are readable PE files matching their RECORD",
        "文件都是可读的 PE 文件，且与 RECORD 一致",
    ),
    "installed-versions": (
        "{n} installed versions of {project}: {versions}",
        "{project} 装有 {n} 个版本：{versions}",
    ),
    "pip-and-conda": (
        "{n} DLLs claimed by both pip and conda ({owner}), e.g. {example}",
        "{n} 个 DLL 同时属于 pip 和 conda（{owner}），例如 {example}",
    ),
    "not-in-torch-record": (
        "DLLs not listed in torch's RECORD: {names}",
        "不在 torch 的 RECORD 中的 DLL：{names}",
    ),
    "torch-cpu-with-cuda": (
        "torch {version} is a CPU build but CUDA DLLs are present",
        "torch {version} 是仅 CPU 版，但存在 CUDA DLL",
    ),
    "torch-cuda-no-dll": (
        "torch {version} is a CUDA build but torch_cuda.dll is missing",
        "torch {version} 是 CUDA 版，但缺少 torch_cuda.dll",
    ),
    "one-build": ("one build of each package", "每个软件包只有一个构建"),
    "binds-not-copy": (
        "{importer} binds {dll} at {location} [{reason}], not the copy at {other}",
        "{importer} 绑定的是 {location} 处的 {dll}（{reason}），而不是 {other} 处的副本",
    ),
    "copies-of": ("{n} copies of {dll}: {places}", "{dll} 有 {n} 个副本：{places}"),
    "binds-meant-copy": ("each importer binds the copy meant for it", "每个导入者都绑定了为它准备的副本"),
    "by-full-path": ("{location} (by full path)", "{location}（按完整路径）"),
    "copies-loaded": (
        "{n} copies of {runtime} loaded in one process: {places}",
        "同一进程中加载了 {runtime} 的 {n} 个副本：{places}",
    ),
    "one-openmp": ("one copy of each OpenMP runtime is loaded", "每种 OpenMP 运行库只加载了一个副本"),
    "built-with-toolset": (
        "{importer} was built with toolset {linker} but binds {dll} {version} at {location} [{reason}]",
        "{importer} 用工具集 {linker} 构建，但绑定的是 {location} 处的 {dll} {version}（{reason}）",
    ),
    "private-runtime": (
        "the modules bind renamed private copies of the runtime that export what they import",
        "这些模块绑定的是改了名的运行库私有副本，它们导出了所需的内容",
    ),
    "linked-but-absent": (
        "{dll} ({component}) is linked but absent; present instead: {others}",
        "链接了 {dll}（{component}），但它不存在；实际存在的是：{others}",
    ),
    "absent-no-other": (
        "{dll} ({component}) is absent, and no other version of it is present",
        "{dll}（{component}）不存在，也没有它的其他版本",
    ),
    "present": ("{dll} present", "{dll} 存在"),
    "package-build": ("{package} is a {build} build", "{package} 是 {build} 版"),
    "built-for-python": ("{file} is built for Python 3.{minor}", "{file} 是为 Python 3.{minor} 构建的"),
    "imports": ("{file} imports {dll}", "{file} 导入了 {dll}"),
    "targets-python": (
        "every extension module targets Python 3.{minor}",
        "所有扩展模块都面向 Python 3.{minor}",
    ),
    "environment-type": ("environment type: {env}", "环境类型：{env}"),
    "non-ascii-path": ("non-ASCII path: {location}", "含非 ASCII 字符的路径：{location}"),
    "long-path": ("path longer than MAX_PATH: {location}", "路径超过 MAX_PATH：{location}"),
    "paths-ok": (
        "every path is ASCII and shorter than 260 characters",
        "所有路径都是 ASCII 且短于 260 个字符",
    ),
    "assumed-redist": (
        "System32\\{dll} (assumed: VC++ Redistributable)",
        "System32\\{dll}（假设：VC++ 可再发行组件）",
    ),
}

COLLECT: dict[str, tuple[str, str]] = {
    "no-importer": ("no module of the target imports it", "目标中没有模块导入它"),
    "not-loaded-as-such": (
        "the importers that miss it are not loaded into python.exe as such",
        "缺少它的导入者并不会这样被加载到 python.exe 中",
    ),
    "pass-path": (
        "the PATH folders: pass each with --path (copies are enough)",
        "PATH 中的文件夹：用 --path 逐个给出（副本即可）",
    ),
    "no-pe": ("the target holds no PE file", "目标中没有 PE 文件"),
    "scan-installed": (
        "scan the installed site-packages folder (with its .dist-info)",
        "扫描已安装的 site-packages 文件夹（连同其中的 .dist-info）",
    ),
    "scan-dist-info": (
        "scan the site-packages folder with its .dist-info folders",
        "扫描 site-packages 文件夹及其中的 .dist-info 文件夹",
    ),
    "no-copy": ("no copy of it in the target or the given folders", "目标和给出的文件夹中都没有它的副本"),
    "no-openmp": ("no module of the target loads an OpenMP runtime", "目标中没有模块加载 OpenMP 运行库"),
    "system32-unknown": (
        "the runtime binds to System32, whose version is unknown: pass --system-dir (a copy of System32)",
        "运行库绑定到 System32，其版本未知：请用 --system-dir 给出 System32 的副本",
    ),
    "no-cuda-link": (
        "no module of the target links a versioned CUDA DLL",
        "目标中没有模块链接带版本号的 CUDA DLL",
    ),
    "package-absent": ("{package} is not in the target", "目标中没有 {package}"),
    "pass-python": ("the interpreter version: pass --python X.Y", "解释器版本：请用 --python X.Y 给出"),
    "no-extension": ("the target holds no extension module", "目标中没有扩展模块"),
    "scan-root": (
        "scan the environment root (the folder of python.exe)",
        "扫描环境根目录（python.exe 所在的文件夹）",
    ),
    "nvidia-smi": ("nvidia-smi output", "nvidia-smi 的输出"),
    "unknown-probe": ("probe kind {kind} is not known to this version", "此版本不认识探测类型 {kind}"),
    "no-trace": (
        "this cause leaves no trace in the files; the error text is all there is to go on",
        "这个原因在文件中不留痕迹；只能依据错误文本判断",
    ),
}

ASSUMPTIONS: dict[str, tuple[str, str]] = {
    "python-unknown": (
        "Python version unknown: any pythonXY.dll is taken as the interpreter's (pass --python X.Y)",
        "Python 版本未知：任何 pythonXY.dll 都当作解释器自己的（可用 --python X.Y 指定）",
    ),
    "python-version": ("Python {major}.{minor}: {how}", "Python {major}.{minor}：{how}"),
    "votes-also": (
        "inferred from cpXY tags and pythonXY.dll imports ({n} votes; also seen: {others})",
        "根据 cpXY 标签和对 pythonXY.dll 的导入推断（{n} 票；另见：{others}）",
    ),
    "votes": (
        "inferred from cpXY tags and pythonXY.dll imports ({n} votes)",
        "根据 cpXY 标签和对 pythonXY.dll 的导入推断（{n} 票）",
    ),
    "machine": ("process machine {machine}: {how}", "进程架构 {machine}：{how}"),
    "from-exe": ("from python.exe", "取自 python.exe"),
    "from-tag": ("from the platform tag {tag}", "取自平台标签 {tag}"),
    "any-platform": (
        "assumed 64-bit (x64) Python: the wheel is for any platform",
        "假设为 64 位（x64）Python：该 wheel 适用于任何平台",
    ),
    "from-modules": ("from the machine type of the target's modules", "取自目标中模块的机器类型"),
    "common-case": (
        "assumed 64-bit (x64) Python, the common case",
        "假设为 64 位（x64）Python，这是最常见的情况",
    ),
    "data-files": (
        "the wheel's data files (.data/data) are installed next to python.exe",
        "wheel 的数据文件（.data/data）安装在 python.exe 旁边",
    ),
    "exe-folder-unknown": (
        "python.exe folder unknown: only the interpreter's own DLLs are assumed there "
        "(pass --app-dir or scan the environment root)",
        "python.exe 所在文件夹未知：只假设其中有解释器自己的 DLL（可用 --app-dir 指定，或扫描环境根目录）",
    ),
    "stock-system32": (
        "System32 is a stock Windows 10/11 (built-in profile; pass --system-dir to use a copy)",
        "假设 System32 与未经改动的 Windows 10/11 相同（内置配置；可用 --system-dir 改用一份副本）",
    ),
    "package-loaded": (
        "DLLs that only another folder of the same package holds are taken as loaded by that "
        "package before they are needed (a Qt plugin binds the Qt DLLs its host loaded)",
        "只存在于同一软件包另一文件夹中的 DLL，视为在需要之前已由该软件包加载"
        "（Qt 插件绑定的是宿主已加载的 Qt DLL）",
    ),
    "redist": (
        "{dll}: assumed installed in System32 by the Microsoft Visual C++ 2015-2022 "
        "Redistributable (no copy of System32 was given; pass --system-dir to check)",
        "{dll}：假设已由 Microsoft Visual C++ 2015-2022 可再发行组件安装到 System32"
        "（未给出 System32 的副本；可用 --system-dir 核实）",
    ),
    "driver": (
        "{dll}: assumed installed by the NVIDIA display driver",
        "{dll}：假设已由 NVIDIA 显卡驱动安装",
    ),
    "interpreter-dll": (
        "{dll}: assumed to be the running interpreter's DLL (Python version unknown)",
        "{dll}：假设是正在运行的解释器的 DLL（Python 版本未知）",
    ),
    "links-out": (
        "{n} file(s) are links out of the target, not read: {names}",
        "{n} 个文件是指向目标之外的链接，未读取：{names}",
    ),
}


def finding_message(finding: Finding, lang: str) -> str:
    """The finding's sentence in ``lang``."""
    return say_finding(finding.message, lang)


def say_finding(message: str, lang: str) -> str:
    """A finding's sentence (as a scan's JSON holds it) in ``lang``."""
    return say(message, lang, FINDINGS, parts=_PARTS)


def evidence(line: str, lang: str) -> str:
    """A probe's evidence: its own sentence, or a finding's."""
    return say(line, lang, EVIDENCE, FINDINGS, parts=_PARTS)


def collect(line: str, lang: str) -> str:
    return say(line, lang, COLLECT, parts=_PARTS)


def assumption(line: str, lang: str) -> str:
    return say(line, lang, ASSUMPTIONS, parts=_PARTS)
