"""The sentences of an explanation: evidence, probes and the next step, in English or Chinese."""

from __future__ import annotations

import re

from dlldoctor.diagnose.explain import Explanation, leading_per_category
from dlldoctor.diagnose.match import Evidence
from dlldoctor.kb.families import Families
from dlldoctor.kb.model import Probe, format_code
from dlldoctor.text.facts import CODE_NAMES, ErrorFacts
from dlldoctor.vocabulary import ProbeKind


def code_label(code: int) -> str:
    name = CODE_NAMES.get(code)
    return f"{format_code(code)} ({name})" if name else format_code(code)


def why(evidence: Evidence, lang: str, families: Families) -> str:
    """One matched matcher in words."""
    kind, value = evidence.kind, evidence.value
    zh = lang == "zh"
    if kind == "code":
        label = code_label(int(value))
        return f"错误代码 {label}" if zh else f"error code {label}"
    if kind == "family":
        family = families.get(evidence.detail)
        title = (family.title_zh if zh else family.title_en) if family else evidence.detail
        return f"{value} 属于{title}" if zh else f"{value} is part of the {title}"
    if kind == "dll":
        return f"错误中提到 {value}" if zh else f"the error names {value}"
    if kind == "symbol":
        return f"缺少入口点 {value}" if zh else f"missing entry point {value}"
    if kind == "module":
        return f"导入 {value} 时失败" if zh else f"failed while importing {value}"
    if kind == "text":
        return f"文本中有「{value}」" if zh else f'the text says "{value}"'
    if kind == "python":
        return f"Python {value}"
    if kind == "package":
        return f"软件包 {value}" if zh else f"package {value}"
    if kind == "env":
        return f"{value} 环境" if zh else f"a {value} environment"
    if kind == "location":
        where = evidence.detail or value
        return f"该 DLL 位于 {value} 位置（{where}）" if zh else f"the DLL sits in a {value} folder ({where})"
    if kind == "derived":
        words = {
            "abi-tag-differs": (
                "扩展模块或 wheel 的标签对应另一个 Python 版本",
                "an extension or wheel is tagged for another Python",
            ),
            "cuda-version-agrees": (
                "CUDA DLL 的主版本与文本中安装的 CUDA 相同",
                "the CUDA DLL's major version is that of the CUDA installed",
            ),
            "cuda-version-differs": (
                "CUDA DLL 的主版本与文本中安装的 CUDA 不同",
                "the CUDA DLL's major version differs from the CUDA installed",
            ),
            "dll-named": (
                "文本提到了 DLL，但没有引用任何报错",
                "the text names a DLL but quotes no error",
            ),
            "env-activated": (
                "命令提示符前显示了环境名：该环境已激活",
                "the shell prompt shows an environment's name: it is activated",
            ),
            "native-program": (
                "文本中没有任何与 Python 相关的内容：这是原生程序的报告",
                "nothing in the text speaks of Python: the report comes from a native program",
            ),
            "other-os": (
                "文本提到 Linux 或 macOS，却没有任何 Windows 的内容",
                "the text names Linux or macOS and nothing of Windows",
            ),
            "python-before-38": (
                "文本显示的是 3.8 之前的 Python，它仍会在 PATH 中查找扩展模块的 DLL",
                "the text shows a Python before 3.8, which still searched PATH for extension modules' DLLs",
            ),
            "listed-broken-release": (
                f"{evidence.detail} 是已知在 Windows 上无法加载的版本",
                f"{evidence.detail} is a release known not to load on Windows",
            ),
        }
        zh_text, en_text = words.get(value, (value, value))
        return zh_text if zh else en_text
    if kind == "prior":
        k, _, n = evidence.detail.partition("/")
        key, _, cues = value.partition(" + ")
        said = (
            (f"，并参考了文本中的其他线索：{cues}" if zh else f", weighed by what else the text says: {cues}")
            if cues
            else ""
        )
        return (
            f"在 {n} 份已解决的同类报告（{key}）中，此原因占 {k} 份{said}"
            if zh
            else f"this cause explained {k} of {n} resolved reports with the same evidence ({key}){said}"
        )
    return value


_PROBE_WORDS: dict[ProbeKind, tuple[str, str]] = {
    "dll-resolves": ("whether {target} can be found", "{target} 是否能找到"),
    "symbol-exported": (
        "whether {target} exports every name its importers need",
        "{target} 是否导出了所需的全部函数",
    ),
    "machine-matches": (
        "whether python.exe and the DLLs are all 64-bit (or all 32-bit)",
        "python.exe 与各 DLL 的位数是否一致",
    ),
    "file-intact": (
        "whether {target} is intact (matches the hashes in RECORD)",
        "{target} 是否完好（与 RECORD 中的哈希一致）",
    ),
    "mixed-install": (
        "whether files of different builds of {target} are mixed",
        "是否混装了不同构建的 {target}",
    ),
    "duplicate-dll": ("whether several copies of {target} are reachable", "是否能找到多个 {target} 副本"),
    "vcruntime-version": (
        "whether the VC++ runtime is older than the one the DLLs were built with",
        "VC++ 运行库是否比构建这些 DLL 时所用的更旧",
    ),
    "cuda-major": (
        "whether the CUDA version the DLLs need matches the CUDA DLLs installed",
        "DLL 需要的 CUDA 版本与已安装的 CUDA DLL 是否一致",
    ),
    "cuda-build": ("whether {target} is a CPU-only or a CUDA build", "{target} 是仅 CPU 版还是 CUDA 版"),
    "python-abi": (
        "whether the extension modules were built for this Python version",
        "扩展模块是否为当前 Python 版本构建",
    ),
    "environment": ("which kind of Python environment this is", "当前是哪种 Python 环境"),
    "path-ascii": ("whether the install path contains non-ASCII characters", "安装路径是否包含非 ASCII 字符"),
    "driver-version": ("whether the NVIDIA driver is new enough", "NVIDIA 驱动是否足够新"),
}

# The words of a probe that names no DLL or package, where "the missing dependency" would not fit.
_NO_TARGET: dict[ProbeKind, tuple[str, str]] = {
    "mixed-install": (
        "whether files of different builds of one package are mixed",
        "是否混装了同一个包的不同构建",
    ),
    "cuda-build": ("whether the package is a CPU-only or a CUDA build", "该包是仅 CPU 版还是 CUDA 版"),
}

# The English verbs of a probe whose target is a family of DLLs, not one.
_PLURAL = (
    (" exports ", " export "),
    (" is intact", " are intact"),
    (" its importers", " their importers"),
    (" is a CPU-only or a CUDA build", " are CPU-only or CUDA builds"),
)


def probe_words(probe: Probe, lang: str, families: Families) -> str:
    en, zh = _PROBE_WORDS.get(probe.kind, (probe.kind, probe.kind))
    if probe.kind == "dll-resolves" and probe.arg("context") in ("path", ("path",)):
        en, zh = "whether {target} can only be found through PATH", "{target} 是否只能通过 PATH 找到"
    target = probe.arg("dll") or probe.arg("package") or ""
    family_id = probe.arg("family")
    if family_id:
        family = families.get(str(family_id))
        target = (family.title_zh if lang == "zh" else f"the {family.title_en}") if family else str(family_id)
        if not target.upper().endswith("DLL"):
            target += " DLL" if lang == "zh" else " DLLs"
        elif lang != "zh":
            target += "s"
        for one, many in _PLURAL:
            en = en.replace(one, many)
    if not target and probe.kind in _NO_TARGET:
        en, zh = _NO_TARGET[probe.kind]
    elif not target:
        target = "缺少的依赖 DLL" if lang == "zh" else "the missing dependency"
    return (zh if lang == "zh" else en).format(target=target)


_PURELIB = "python -c \"import sysconfig; print(sysconfig.get_paths()['purelib'])\""
_SITE_PACKAGES = re.compile(r"^(.*?[\\/]site-packages)(?:[\\/]|$)", re.IGNORECASE)


def release_words(facts: ErrorFacts, lang: str) -> str:
    """The listed broken releases the text names, each with the release to install and its source."""
    zh = lang == "zh"
    parts = []
    for r, version in facts.releases:
        command = f'pip install "{r.package}=={r.instead}"'
        if zh:
            when = "已修复于" if r.fixed else "可改用"
            parts.append(
                f"{r.package} {version}（{r.symptom}）→ {when} {r.instead}：{command}（来源 {r.source}）"
            )
        else:
            when = "fixed in" if r.fixed else "use instead"
            parts.append(
                f"{r.package} {version} ({r.symptom}) → {when} {r.instead}: {command} (source {r.source})"
            )
    return "; ".join(parts)


def site_packages(facts: ErrorFacts) -> str | None:
    for path in [facts.dll_path] + [e.dll_path for e in facts.events]:
        m = _SITE_PACKAGES.match(path or "")
        if m:
            return m.group(1)
    return None


def decide_steps(ex: Explanation, families: Families) -> tuple[str, ...]:
    """When no cause stands out: the scan that tells the top candidates apart, and what it checks."""
    if not ex.ambiguous:
        return ()
    facts, diagnoses, lang = ex.facts, ex.diagnoses, ex.lang
    zh = lang == "zh"
    target = site_packages(facts)
    where = f'"{target}"' if target else ("<site-packages 文件夹>" if zh else "<site-packages folder>")
    steps = []
    if zh:
        steps.append(
            f"有几种原因都符合这段文本。在出错的 Python 上运行 `dlldoctor scan {where}` 可以区分它们"
            + ("" if target else f"（`{_PURELIB}` 会打印该文件夹）")
            + "。"
        )
    else:
        steps.append(
            f"Several causes fit this text. Run `dlldoctor scan {where}` on the Python that fails "
            "to tell them apart" + ("" if target else f" (`{_PURELIB}` prints the folder)") + "."
        )
    for d in leading_per_category(diagnoses)[:3]:
        checks = [probe_words(p, lang, families) for p in d.rule.probes[:2]]
        if checks:
            joined = "；".join(checks) if zh else "; ".join(checks)
            steps.append(f"{d.rule.id}：检查{joined}" if zh else f"{d.rule.id}: it checks {joined}")
    return tuple(steps)
