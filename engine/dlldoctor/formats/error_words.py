"""The one-line errors of the command line (``dlldoctor: error: …``) and the defects of a PE file, in
English and Chinese. Keyed by a stable id; the English is the engine's sentence with ``{name}`` for each
part that varies. An error with no entry here is shown as the engine wrote it."""

from __future__ import annotations

from dlldoctor.formats.sentences import say

# A defect is one of the first seven sentences, with its detail in brackets when there is one.
DEFECTS: dict[str, tuple[str, str]] = {
    "empty": ("the file is empty (0 bytes)", "文件是空的（0 字节）"),
    "lfs-pointer": (
        "the file is a Git LFS pointer, not the DLL itself",
        "该文件是 Git LFS 指针，而不是 DLL 本身",
    ),
    "not-pe": (
        "the file does not start with the MZ signature of a Windows executable",
        "文件开头没有 Windows 可执行文件的 MZ 签名",
    ),
    "bad-pe-signature": ("the PE signature is missing or out of place", "PE 签名缺失或位置不对"),
    "truncated": (
        "the file is shorter than its own headers say (truncated download or copy)",
        "文件比其文件头声明的短（下载或复制不完整）",
    ),
    "unparseable": ("the PE tables cannot be parsed", "无法解析 PE 表"),
    "bad-crc": (
        "the wheel member's bytes do not match the CRC-32 the wheel records (a damaged download)",
        "wheel 中该文件的内容与 wheel 记录的 CRC-32 不符（下载已损坏）",
    ),
    "section-cut": ("section {name} is cut short", "节 {name} 被截断"),
    "section-ends": (
        "section {name} ends at byte {end}, the file has {size}",
        "节 {name} 结束于第 {end} 字节，而文件只有 {size} 字节",
    ),
    "headers-cut": ("the headers are cut short", "文件头被截断"),
    "dos-cut": ("the DOS header is cut short", "DOS 头被截断"),
    "table-past-end": ("the section table runs past the end of the file", "节表超出了文件末尾"),
    "beyond-end": (
        "it would start at offset {offset}, beyond the file's end",
        "它应位于偏移 {offset}，超出了文件末尾",
    ),
    "implausible": (
        "it would start at offset {offset}, which is implausible",
        "它应位于偏移 {offset}，这不合理",
    ),
    "headers-claim": ("its headers claim {n} bytes", "其文件头声称有 {n} 字节"),
    "no-optional": ("there is no optional header", "没有可选头"),
    "optional-short": ("the optional header is too short", "可选头太短"),
    "magic": ("unknown optional header magic {magic}", "未知的可选头标识 {magic}"),
    "sections-fit": ("{n} sections do not fit in the headers", "文件头中放不下 {n} 个节"),
    "tables-big": ("its tables would need more than {n} MB", "其表需要超过 {n} MB"),
}

ERRORS: dict[str, tuple[str, str]] = {
    "prefix": ("dlldoctor: error: {message}", "dlldoctor: 错误: {message}"),
    # argparse's own usage errors (Lib/argparse.py), as the command line prints them.
    "args-unrecognized": ("unrecognized arguments: {args}", "无法识别的参数：{args}"),
    "args-required": ("the following arguments are required: {args}", "缺少必需的参数：{args}"),
    "args-choice": (
        "argument {arg}: invalid choice: {value} (choose from {choices})",
        "参数 {arg}：无效的选择 {value}（可选：{choices}）",
    ),
    "args-one": ("argument {arg}: expected one argument", "参数 {arg}：需要一个值"),
    "args-at-least-one": ("argument {arg}: expected at least one argument", "参数 {arg}：至少需要一个值"),
    "args-invalid-value": (
        "argument {arg}: invalid {kind} value: {value}",
        "参数 {arg}：无效的 {kind} 值 {value}",
    ),
    "args-not-allowed": (
        "argument {arg}: not allowed with argument {other}",
        "参数 {arg}：不能与参数 {other} 同时使用",
    ),
    "args-ambiguous": (
        "ambiguous option: {option} could match {matches}",
        "选项不明确：{option} 可能是 {matches}",
    ),
    "args-own": ("argument {arg}: {reason}", "参数 {arg}：{reason}"),
    "not-windows-unchecked": (
        "{path}: not a Windows target (no DLL, .pyd or .exe in it); nothing was checked",
        "{path}：不是 Windows 目标（其中没有 DLL、.pyd 或 .exe），未做任何检查",
    ),
    "no-such-path": ("{path}: no such file or folder", "{path}：找不到该文件或文件夹"),
    "folder-unreadable": ("{path}: folder is not readable", "{path}：无法读取该文件夹"),
    "file-unreadable": ("{path}: file is not readable", "{path}：无法读取该文件"),
    "not-regular": ("{path}: not a regular file or folder", "{path}：不是普通文件或文件夹"),
    "bad-zip": (
        "{path}: not a readable wheel (zip) file: {detail}",
        "{path}：不是可读取的 wheel（zip）文件：{detail}",
    ),
    "together": (
        "{path}: --together combines wheels (.whl files) only",
        "{path}：--together 只能合并 wheel（.whl 文件）",
    ),
    "no-match": ("{path}: no file matches", "{path}：没有匹配的文件"),
    "no-target": (
        "no target: give a .whl, a folder or a PE file (or --bundle FILE)",
        "没有目标：请给出一个 .whl、一个文件夹或一个 PE 文件（或 --bundle FILE）",
    ),
    "bundle-no-target": (
        "--bundle holds its own install: give no TARGET",
        "--bundle 给出的诊断包自带安装信息：不要再给出 TARGET",
    ),
    "not-windows": (
        "{path}: not a Windows target (no DLL, .pyd or .exe in it)",
        "{path}：不是 Windows 目标（其中没有 DLL、.pyd 或 .exe）",
    ),
    "not-pe": ("{path}: not a readable PE file ({defect})", "{path}：不是可读取的 PE 文件（{defect}）"),
    "not-pe-bare": ("{path}: not a readable PE file", "{path}：不是可读取的 PE 文件"),
    "no-tree": (
        "{path}: nothing is known to load it, so it has no tree; try --imports",
        "{path}：没有已知会加载它的东西，所以它没有依赖树；请试试 --imports",
    ),
    "cannot-read": ("cannot read {path}: {detail}", "无法读取 {path}：{detail}"),
    "cannot-write": ("cannot write {path}: {detail}", "无法写入 {path}：{detail}"),
    "option-cannot-write": ("{option} {path}: cannot write: {detail}", "{option} {path}：无法写入：{detail}"),
    "one-way": (
        "give the error text one way only, not with {ways}",
        "错误文本只能用一种方式给出，不能同时用 {ways}",
    ),
    "ways": ("{a} and {b}", "{a} 和 {b}"),
    "empty-text": (
        "the error text is empty: paste the traceback or the pop-up's message",
        "错误文本是空的：请粘贴 Python 的报错信息（Traceback）或弹窗中的消息",
    ),
    "binary": ("this looks like a binary file, not an error text", "这看起来是二进制文件，而不是错误文本"),
    "too-large": (
        "input larger than {n} MB; paste the part around the error",
        "输入超过 {n} MB；请只粘贴错误附近的部分",
    ),
    "no-clipboard": (
        "--clipboard reads the Windows clipboard, and it holds no text here",
        "--clipboard 读取 Windows 剪贴板，但这里剪贴板中没有文本",
    ),
    "bundle-own": (
        "--bundle brings its own error text and install: give no text, --file or --target",
        "--bundle 给出的诊断包自带错误文本和安装信息：不要再给出文本、--file 或 --target",
    ),
    "bundle-not-read": ("{path}: bundle not read: {detail}", "{path}：未能读取诊断包：{detail}"),
    "bundle-cannot-read": ("{path}: cannot read the bundle: {detail}", "{path}：无法读取诊断包：{detail}"),
    "bundle-encoding": (
        "{path}: not a bundle: not UTF-8 or UTF-16 text (byte {n})",
        "{path}：不是诊断包：不是 UTF-8 或 UTF-16 文本（第 {n} 字节）",
    ),
    "bundle-deep": ("{path}: not a bundle: JSON nested too deeply", "{path}：不是诊断包：JSON 嵌套过深"),
    "bundle-nested": ("{path}: not a bundle: nested too deeply", "{path}：不是诊断包：嵌套过深"),
    "bundle-json": (
        "{path}: not a bundle: invalid JSON ({detail})",
        "{path}：不是诊断包：JSON 无效（{detail}）",
    ),
    "bundle-schema": (
        "{path}: not a dlldoctor bundle: at {where}: {detail}",
        "{path}：不是 dlldoctor 的诊断包：{where}：{detail}",
    ),
    "top-level": ("the top level", "顶层"),
    "no-rule-hint": ("no rule {rule}; did you mean {hint}?", "没有规则 {rule}；你是不是要找 {hint}？"),
    "no-rule": ("no rule {rule}", "没有规则 {rule}"),
    "unknown-category": ("unknown category {category}", "未知的类别 {category}"),
    "select": (
        "--select/--ignore: no rule or category {name} (see `dlldoctor rules list`)",
        "--select/--ignore：没有规则或类别 {name}（见 `dlldoctor rules list`）",
    ),
    "not-rules": ("{path}: not a folder of rules", "{path}：不是规则文件夹"),
    "rule-problems": (
        "{path}: {n} problems; run `dlldoctor rules lint`",
        "{path}：{n} 个问题；请运行 `dlldoctor rules lint`",
    ),
    "extra-problems": ("--extra-rules: {n} problem(s):\n  {shown}", "--extra-rules：{n} 个问题：\n  {shown}"),
    "data-cannot-read": (
        "{path}: cannot read reference data: {detail}",
        "{path}：无法读取参考数据：{detail}",
    ),
    "data-not-read": ("{path}: reference data not read: {detail}", "{path}：未读取参考数据：{detail}"),
    "data-invalid": ("{path}: invalid reference data: {detail}", "{path}：参考数据无效：{detail}"),
    "yaml-line": ("{path}:{line}: invalid YAML: {detail}", "{path}:{line}：YAML 无效：{detail}"),
    "yaml": ("{path}: invalid YAML: {detail}", "{path}：YAML 无效：{detail}"),
    "no-builtin": (
        "the built-in rule set is missing from this installation",
        "此安装中缺少内置规则集",
    ),
    "folder-missing": ("{path}: {role} folder does not exist", "{path}：{role} 文件夹不存在"),
    "python-version": (
        "--python {text}: expected a version like 3.11",
        "--python {text}：应为 3.11 这样的版本号",
    ),
    "no-interpreter": ("--python {path}: no such interpreter", "--python {path}：没有这个解释器"),
    "no-words": ("the query has no words to search for", "查询中没有可搜索的词"),
    "limit": ("--limit must be at least 1", "--limit 至少为 1"),
    "module-not-found": (
        "{name}: not found in {path} (extension modules: {known})",
        "{name}：在 {path} 中找不到（扩展模块：{known}）",
    ),
    "many-match": (
        "{name}: {n} files match; name one with --file",
        "{name}：有 {n} 个文件匹配；请用 --file 指定一个",
    ),
    "none": ("none", "无"),
    # the standard library's reasons that follow a path most often (strerror, json, jsonschema)
    "required-property": ("{name} is a required property", "缺少必需的属性 {name}"),
    "expecting-value": (
        "Expecting value: line {line} column {column} (char {char})",
        "此处应有一个值：第 {line} 行第 {column} 列（第 {char} 个字符）",
    ),
    "enoent": ("No such file or directory", "没有那个文件或目录"),
    "eacces": ("Permission denied", "权限不够"),
    "eisdir": ("Is a directory", "是一个目录"),
    "bad-zip-detail": ("File is not a zip file", "文件不是 zip 文件"),
}


def defect(text: str, lang: str) -> str:
    """A PE file's defect: its sentence, then its detail in brackets (itself a sentence of DEFECTS)."""
    if lang != "zh":
        return text
    for en, zh in DEFECTS.values():
        if "{" in en or not text.startswith(en):
            continue
        rest = text[len(en) :]
        if not rest:
            return zh
        if rest.startswith(" (") and rest.endswith(")"):
            return f"{zh}（{say(rest[2:-1], lang, DEFECTS)}）"
    return text


def error_message(message: str, lang: str) -> str:
    """An error the engine wrote in English, in ``lang`` (unchanged when no template says it)."""
    return say(message, lang, ERRORS, parts={"defect": defect})


def error_line(message: str, lang: str) -> str:
    """The line the command prints for an error: ``dlldoctor: error: …`` with the error in ``lang``."""
    en, zh = ERRORS["prefix"]
    return (zh if lang == "zh" else en).format(message=error_message(message, lang))


def usage_error_line(prog: str, message: str, lang: str) -> str:
    """argparse's one-line usage error, ``prog: error: …``, in ``lang``."""
    if lang != "zh":
        return f"{prog}: error: {message}"
    return f"{prog}: 错误: {say(message, lang, ERRORS)}"
