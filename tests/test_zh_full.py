"""Every answer with ``--lang zh`` is Chinese: scan (text, Markdown, SARIF, GitHub annotations), tree,
explain (alone and with --target), doctor and a re-read bundle, search, rules, and the one-line errors.

Each test runs the real command on real inputs (the bundled example, the PE fixtures, a Chinese error
text from the corpus, a bundle written by doctor on the fake Windows), asserts a few key lines exactly,
and runs :func:`zhcheck.english_words` over the whole output: no English word may be left but names.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import jsonschema
import pytest
from clirun import run_dlldoctor
from zhcheck import english_words

from dlldoctor.formats import ci_words, doctor_words, error_words, scan_sentences
from dlldoctor.formats.sentences import say

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "corpus" / "examples" / "site-packages"
SARIF_SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
# A Chinese report of the corpus (corpus/errors/vcredist-missing.yaml), as the user pasted it.
ZH_TEXT = """\
Traceback (most recent call last):
  File "D:\\rapidocr\\venv\\lib\\site-packages\\onnxruntime\\capi\\_pybind_state.py", line 32, in <module>
    from .onnxruntime_pybind11_state import *  # noqa
ImportError: DLL load failed while importing onnxruntime_pybind11_state: 找不到指定的模块。
"""
PYMOD_TEXT = "ImportError: DLL load failed while importing pymod: 找不到指定的模块。\n"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return run_dlldoctor(*args, stdin=stdin, env={"NO_COLOR": "1"}, cwd=ROOT)


def assert_chinese(text: str, allowed: frozenset[str] = frozenset()) -> None:
    left = english_words(text, allowed)
    assert left == [], "\n".join(f"{word!r} in {line!r}" for word, line in left[:20])


# ----- the checker itself --------------------------------------------------------------------------


def test_the_checker_flags_english_and_spares_names() -> None:
    assert english_words("chain_b.dll 需要的 chain_c.dll 找不到（查找过：site-packages\\chain_c.dll）") == []
    assert english_words("  pip> python -m pip install --force-reinstall <package>") == []
    assert english_words("规则 onnxruntime-import-126-vcredist，文档：https://example.org/a#b") == []
    assert english_words('文本中有「DLL load failed」，"quoted words" 与 `code words`') == []
    assert [w for w, _ in english_words("  because: 找不到 x.dll")] == ["because"]
    assert english_words("它们会在 std::mutex 中初始化失败") == []
    assert [w for w, _ in english_words("在 std::mutex 中 fails")] == ["fails"]
    assert [w for w, _ in english_words("进程 x64: from the machine type")] == [
        "from",
        "the",
        "machine",
        "type",
    ]


def test_every_template_has_the_same_parts_in_both_languages_and_reads_back() -> None:
    tables = [
        scan_sentences.FINDINGS,
        scan_sentences.EVIDENCE,
        scan_sentences.COLLECT,
        scan_sentences.ASSUMPTIONS,
        error_words.ERRORS,
        error_words.DEFECTS,
        ci_words.WORDS,
        doctor_words.WORDS,
    ]
    for table in tables:
        for key, (en, zh) in table.items():
            names = set(re.findall(r"\{(\w+)", en))
            assert names == set(re.findall(r"\{(\w+)", zh)), key
            assert english_words(re.sub(r"\{\w+[^}]*\}", " ", zh)) == [], key
            if table in (ci_words.WORDS, doctor_words.WORDS) or "!r" in en:
                continue
            sample = {n: f"X{i}" for i, n in enumerate(sorted(names))}
            assert say(en.format(**sample), "zh", table) == zh.format(**sample), key
            assert say(en.format(**sample), "en", table) == en.format(**sample), key


# ----- scan --------------------------------------------------------------------------------------------


def test_scan_text_with_files_and_assumptions_in_chinese() -> None:
    done = run("scan", str(EXAMPLE), "--lang", "zh", "-v", "--files")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert "  - Python 3.11：根据 cpXY 标签和对 pythonXY.dll 的导入推断（2 票）" in lines
    assert "  - 进程架构 x64：取自目标中模块的机器类型" in lines
    assert (
        "  - 假设 System32 与未经改动的 Windows 10/11 相同（内置配置；可用 --system-dir 改用一份副本）"
        in lines
    )
    assert (
        "  - vcruntime140.dll：假设已由 Microsoft Visual C++ 2015-2022 可再发行组件安装到 System32"
        "（未给出 System32 的副本；可用 --system-dir 核实）" in lines
    )
    assert "  pymod.cp311-win_amd64.pyd  扩展模块  x64    链接器 2.40      2.5 KB" in lines
    assert "<python.exe 所在文件夹>\\chain_c.dll" in done.stdout
    assert_chinese(done.stdout)


def test_scan_evidence_and_every_kind_of_finding_in_chinese(pe_bin: Path) -> None:
    done = run("scan", str(pe_bin / "x64"), "--python", "3.11", "--lang", "zh", "-v", "--files")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert "     依据: pymod312.cp312-win_amd64.pyd 导入了 python312.dll" in lines
    assert "     依据: pymod312.cp312-win_amd64.pyd 是为 Python 3.12 构建的" in lines
    assert "     依据: 找不到 python312.dll，pymod312.cp312-win_amd64.pyd 需要它（扩展模块）" in lines
    assert (
        "      delay_user.dll 延迟加载的 delayed_missing.dll 找不到（查找过：<python.exe 所在文件夹>"
        "\\delayed_missing.dll；System32\\delayed_missing.dll）；第一次调用它时会失败" in lines
    )
    assert (
        "（fwd_missing（转发到 chain_c.nope））（前提是它会被加载：目标中没有已知会加载它的东西）"
        in done.stdout
    )
    assert_chinese(done.stdout)


def test_scan_of_corrupt_files_names_each_defect_in_chinese(pe_bin: Path) -> None:
    done = run("scan", str(pe_bin / "corrupt"), "--lang", "zh", "-v", "--files")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert "      zero.dll 不是可用的 PE 文件：文件是空的（0 字节）" in lines
    assert (
        "      truncated_body.dll 不是可用的 PE 文件：文件比其文件头声明的短（下载或复制不完整）"
        "（节 .text 结束于第 1536 字节，而文件只有 1280 字节）" in lines
    )
    assert "  lfs_pointer.dll         已损坏: 该文件是 Git LFS 指针，而不是 DLL 本身" in lines
    assert_chinese(done.stdout)


def test_scan_markdown_in_chinese(pe_bin: Path) -> None:
    done = run(
        "scan",
        str(pe_bin / "x64"),
        str(pe_bin / "corrupt"),
        "--python",
        "3.11",
        "--lang",
        "zh",
        "--format",
        "markdown",
    )
    assert "| 文件 | 角色 | 架构 | 链接器 | 大小 |" in done.stdout
    assert "| `zero.dll` | 已损坏 | | | 0 |" in done.stdout
    assert "   - pymod312.cp312-win_amd64.pyd 导入了 python312.dll" in done.stdout
    assert "| 错误 | 缺少 DLL |" in done.stdout
    assert_chinese(done.stdout)


def test_github_annotations_in_chinese(pe_bin: Path) -> None:
    done = run("scan", str(EXAMPLE), str(pe_bin / "corrupt"), "--lang", "zh", "--format", "github")
    lines = done.stdout.splitlines()
    assert lines[-1] == "dlldoctor：已扫描 2 个目标：8 个错误"
    assert (
        f"::error file={pe_bin.as_posix()}/corrupt,title=dlldoctor corrupt-file::zero.dll 不是可用的 PE 文件："
        "文件是空的（0 字节）%0Azero.dll（按完整路径加载）" in lines
    )
    assert any("%0A修复：" in line and "%0A文档：https://" in line for line in lines)
    assert_chinese(done.stdout.replace("%0A", "\n"))


def test_sarif_messages_in_chinese(pe_bin: Path) -> None:
    done = run("scan", str(EXAMPLE), str(pe_bin / "corrupt"), "--lang", "zh", "--format", "sarif")
    sarif = json.loads(done.stdout)
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(sarif)
    run_ = sarif["runs"][0]
    messages = [r["message"]["text"] for r in run_["results"]]
    assert (
        "chain_b.dll 需要的 chain_c.dll 找不到（查找过：site-packages\\chain_c.dll；<python.exe 所在文件夹>"
        "\\chain_c.dll；System32\\chain_c.dll）（pymod.cp311-win_amd64.pyd → chain_a.dll → chain_b.dll → "
        "chain_c.dll；扩展模块）" in messages
    )
    kinds = {d["id"]: d["shortDescription"]["text"] for d in run_["tool"]["driver"]["rules"]}
    assert kinds["corrupt-file"] == "某个 PE 文件无法读取：被截断、已损坏或根本不是 PE 文件。"
    texts = [*messages]
    for rule in run_["tool"]["driver"]["rules"]:
        texts += [rule["shortDescription"]["text"], rule.get("fullDescription", {}).get("text", "")]
        texts.append(rule.get("help", {}).get("text", ""))
    assert_chinese("\n".join(texts))


# ----- tree --------------------------------------------------------------------------------------------


def test_tree_tables_depth_note_and_defects_in_chinese(pe_bin: Path) -> None:
    imports = run("tree", str(pe_bin / "x64"), "--file", "delay_user.dll", "--imports", "--lang", "zh")
    assert imports.stdout.splitlines()[1:3] == ["从 3 个 DLL 导入：", "  KERNEL32.dll：3 个名称"]
    assert "  delayed_missing.dll（延迟加载）：1 个名称" in imports.stdout
    exports = run("tree", str(pe_bin / "x64"), "--file", "forwarder.dll", "--exports", "--lang", "zh")
    assert exports.stdout.splitlines()[1] == "导出 2 个名称、2 个序号："
    deep = run("tree", str(EXAMPLE), "--depth", "1", "--lang", "zh")
    assert deep.stdout.splitlines()[-1] == "✗ 有 DLL 无法加载（找不到），可能在 --depth 1 之下"
    corrupt = run("tree", str(pe_bin / "corrupt" / "zero.dll"), "--lang", "zh")
    assert corrupt.stdout == "zero.dll  [按完整路径加载]  [已损坏: 文件是空的（0 字节）]\n"
    full = run("tree", str(pe_bin / "x64"), "--python", "3.11", "--lang", "zh", "-v")
    for done in (imports, exports, deep, corrupt, full):
        assert_chinese(done.stdout)


# ----- explain -----------------------------------------------------------------------------------------


def test_explain_text_and_markdown_in_chinese() -> None:
    done = run("explain", "--lang", "zh", stdin=ZH_TEXT)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0].startswith("1. onnxruntime 无法加载其 Python 扩展")
    assert "规则 onnxruntime-import-126-vcredist，置信度 " in lines[0]
    assert lines[2].startswith(
        "   依据: 导入 onnxruntime_pybind11_state 时失败；错误代码 126 (ERROR_MOD_NOT_FOUND)；"
    )
    assert "从文本中读到的信息" in lines and "  错误代码  126 (ERROR_MOD_NOT_FOUND)" in lines
    assert_chinese(done.stdout)
    md = run("explain", "--lang", "zh", "--format", "markdown", stdin=ZH_TEXT)
    assert (
        "   - 依据: 导入 onnxruntime_pybind11_state 时失败；错误代码 126 (ERROR_MOD_NOT_FOUND)；" in md.stdout
    )
    assert "<details><summary>错误文本</summary>" in md.stdout
    assert_chinese(md.stdout)


def test_the_paste_prompt_in_chinese() -> None:
    from test_explain_console import at_a_terminal

    done = at_a_terminal(PYMOD_TEXT.encode("utf-8") + b"\n", "--lang", "zh")
    prompt = done.stderr.decode("utf-8").splitlines()[0]
    assert prompt == "请粘贴报错信息，然后输入一个空行（或按 Ctrl-D；在 Windows 上按 Ctrl-Z 再按回车键）："
    assert_chinese(prompt)
    assert done.returncode == 1, done.stdout


def test_explain_with_a_target_in_chinese(pe_bin: Path) -> None:
    done = run(
        "explain", "--lang", "zh", "--target", str(pe_bin / "x64"), "--python", "3.11", stdin=PYMOD_TEXT
    )
    lines = done.stdout.splitlines()
    assert "在安装上核实" in lines
    assert "      需要：PATH 中的文件夹：用 --path 逐个给出（副本即可）" in lines
    assert "      pymod312.cp312-win_amd64.pyd 是为 Python 3.12 构建的" in lines
    assert_chinese(done.stdout, frozenset({"pymod"}))  # the module the text names
    md = run(
        "explain",
        "--lang",
        "zh",
        "--target",
        str(pe_bin / "x64"),
        "--python",
        "3.11",
        "--format",
        "markdown",
        stdin=PYMOD_TEXT,
    )
    assert "### 在安装上核实" in md.stdout and "  - 需要：目标中没有模块导入它" in md.stdout
    assert_chinese(md.stdout, frozenset({"pymod"}))


# ----- errors ------------------------------------------------------------------------------------------


@pytest.fixture
def bad_inputs(tmp_path: Path) -> dict[str, Path]:
    bad_zip = tmp_path / "broken-1.0-cp311-cp311-win_amd64.whl"
    bad_zip.write_bytes(b"PK\x03\x04 not really a zip")
    not_json = tmp_path / "not-json.json"
    not_json.write_text("hello", encoding="utf-8")
    no_version = tmp_path / "empty-bundle.json"
    no_version.write_text("{}", encoding="utf-8")
    no_rules = tmp_path / "rules"
    no_rules.mkdir()
    return {"zip": bad_zip, "json": not_json, "schema": no_version, "rules": no_rules, "tmp": tmp_path}


def test_the_common_errors_are_one_chinese_line(bad_inputs: dict[str, Path], pe_bin: Path) -> None:
    missing = bad_inputs["tmp"] / "nowhere"
    zero = pe_bin / "corrupt" / "zero.dll"
    cases = [
        (("scan", str(missing)), f"{missing}：找不到该文件或文件夹"),
        (("tree", str(missing)), f"{missing}：找不到该文件或文件夹"),
        (
            ("scan", str(bad_inputs["zip"])),
            f"{bad_inputs['zip']}：不是可读取的 wheel（zip）文件：文件不是 zip 文件",
        ),
        (("tree", str(zero), "--imports"), "zero.dll：不是可读取的 PE 文件（文件是空的（0 字节））"),
        (
            ("scan", str(EXAMPLE), "--rules", str(bad_inputs["rules"])),
            f"{bad_inputs['rules']}/data/packages.yaml：无法读取参考数据：没有那个文件或目录",
        ),
        (
            ("scan", str(EXAMPLE), "--select", "nosuch"),
            "--select/--ignore：没有规则或类别 'nosuch'（见 `dlldoctor rules list`）",
        ),
        (
            ("explain", "--bundle", str(bad_inputs["json"])),
            f"{bad_inputs['json']}：不是诊断包：JSON 无效（此处应有一个值：第 1 行第 1 列（第 0 个字符））",
        ),
        (
            ("explain", "--bundle", str(bad_inputs["schema"])),
            f"{bad_inputs['schema']}：不是 dlldoctor 的诊断包：顶层：缺少必需的属性 'version'",
        ),
        (("explain", "--file", str(missing)), f"无法读取 {missing}：没有那个文件或目录"),
        (("explain", "   "), "错误文本是空的：请粘贴 Python 的报错信息（Traceback）或弹窗中的消息"),
        (("tree", str(EXAMPLE), "--module", "nosuch"), f"nosuch：在 {EXAMPLE} 中找不到（扩展模块：pymod）"),
        (("rules", "show", "nosuch-rule-at-all"), "没有规则 'nosuch-rule-at-all'"),
        (("search", "--", "-"), "查询中没有可搜索的词"),
    ]
    for args, said in cases:
        done = run(*args, "--lang", "zh") if args[0] != "search" else run("search", "--lang", "zh", "-")
        assert done.returncode == 2, args
        assert done.stderr == f"dlldoctor: 错误: {said}\n", args
        assert_chinese(done.stderr, frozenset({"nowhere", "nosuch", "pymod", "json", "empty"}))
        english = run(*args) if args[0] != "search" else run("search", "-")
        assert english.stderr.startswith("dlldoctor: error: ") and not re.search(
            r"[\u4e00-\u9fff]", english.stderr
        ), args


# ----- rules and search ----------------------------------------------------------------------------------


def test_rules_list_show_and_search_in_chinese() -> None:
    listed = run("rules", "list", "--lang", "zh")
    lines = listed.stdout.splitlines()
    assert lines[-1].startswith("共 ") and lines[-1].endswith(" 条规则")
    assert any(line.split()[2] == "稳定" for line in lines[:-1])
    assert_chinese(listed.stdout, frozenset({"Error"}))  # a title quotes "OMP Error #15"
    shown = run("rules", "show", "fbgemm-126-libomp140-missing", "--lang", "zh")
    assert shown.stdout.splitlines()[0] == "fbgemm-126-libomp140-missing  [openmp-missing，稳定，错误]"
    assert "  all  dll /fbgemm\\.dll/  （权重 7）" in shown.stdout
    # the examples quote error texts as they were written, in any language
    own = "\n".join(line for line in shown.stdout.splitlines() if "match: " not in line)
    kinds = {"all", "any", "none", "text", "code", "symbol", "module", "package", "env", "location", "family"}
    assert_chinese(own, frozenset({*kinds, "Studio"}))  # the matchers as the rule file writes them
    search = run("search", "vcruntime", "--lang", "zh", "--format", "markdown")
    assert search.stdout.startswith("| 规则 | 类别 | 标题 |\n")
    assert run("search", "zzqqxx", "--lang", "zh").stdout == "没有匹配的规则。\n"
    assert_chinese(search.stdout)


# ----- doctor and a re-read bundle ---------------------------------------------------------------------


@pytest.mark.wheels
def test_doctor_and_its_bundle_in_chinese(
    tmp_path: Path, pe_bin: Path, torch_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from test_doctor import deleted_uv, machine, run_doctor

    fw = machine(tmp_path, pe_bin, torch_tree)
    deleted_uv(fw, pe_bin)
    report = tmp_path / "bundle.json"
    status, out = run_doctor(fw, capsys, report=report, lang="zh")
    assert status == 1
    lines = out.splitlines()
    assert lines[0].startswith("✗ corrupt-file：") and lines[0].endswith("——已在这台机器上证实")
    assert any(
        line.startswith("  实时探测：LoadLibraryExW(") and "失败，错误 126：" in line for line in lines
    )
    assert "这台机器" in lines
    assert any(line.startswith("  PATH：") and line.endswith(" 个文件夹") for line in lines)
    reproduced = [line for line in lines if line.startswith("  重现：")]
    assert reproduced  # the error text as Python printed it: quoted, not checked
    own = "\n".join(line for line in lines if not line.startswith("  重现："))
    assert_chinese(own, frozenset({"Pro"}))  # the Windows edition, as the machine names it
    again = run("explain", "--bundle", str(report), "--lang", "zh")
    assert again.stdout.splitlines()[0] == lines[0]
    md = run("explain", "--bundle", str(report), "--lang", "zh", "--format", "markdown")
    assert "<details><summary>重现的导入</summary>" in md.stdout
    assert "<details><summary>静态扫描发现的问题</summary>" in md.stdout
    assert_chinese(md.stdout, frozenset({"Pro"}))
    scanned = run("scan", "--bundle", str(report), "--lang", "zh")
    first = scanned.stdout.splitlines()[0]
    assert first.startswith("在这台机器上对 ") and first.endswith(" 的扫描：")
    assert "  ✗ 缺少 DLL  torch_cpu.dll 需要的 uv.dll 找不到（查找过：" in scanned.stdout
    assert "  错误：corrupt-file (" in scanned.stdout
    assert_chinese(
        "\n".join(x for x in scanned.stdout.splitlines() if not x.startswith("  重现：")), frozenset({"Pro"})
    )


def test_usage_errors_are_one_chinese_line_too() -> None:
    cases = [
        (("scan", "--lang", "zh", "--bogus", "x"), "dlldoctor: 错误: 无法识别的参数：--bogus"),
        (("tree", "--lang", "zh"), "dlldoctor tree: 错误: 缺少必需的参数：TARGET"),
        (
            ("scan", "x", "--lang=zh", "--format", "nope"),
            "dlldoctor scan: 错误: 参数 --format：无效的选择 'nope'"
            "（可选：'text', 'json', 'markdown', 'sarif', 'github'）",
        ),
    ]
    for args, line in cases:
        done = run(*args)
        assert (done.returncode, done.stderr) == (2, line + "\n"), args
        assert_chinese(done.stderr)
    english = run("scan", "x", "--format", "nope")
    assert english.stderr.startswith("dlldoctor scan: error: argument --format: invalid choice: 'nope'")
