"""`scan --lang zh` and `tree --lang zh`: the report's own words in Chinese (headings, verdict, finding
kinds, load contexts, each finding's sentence, the tree's reasons)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from clirun import run_dlldoctor

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "corpus" / "examples" / "site-packages"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_dlldoctor(*args)


def test_scan_report_words_are_chinese() -> None:
    done = run("scan", str(EXAMPLE), "--python", "3.11", "--lang", "zh")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0] == f"✗ {EXAMPLE}：1 个错误  （Python 3.11，x64 进程，3 个 PE 文件）"
    assert "发现的问题" in lines and "假设" in lines
    assert "  ✗ 缺少 DLL  pymod.cp311-win_amd64.pyd → chain_a.dll → chain_b.dll → chain_c.dll" in lines
    assert "      chain_b.dll 需要的 chain_c.dll 找不到（查找过：site-packages\\chain_c.dll；" in done.stdout
    assert "      加载方式: 扩展模块" in lines
    for english in ("Findings", "Assumptions", "error(s)", "is not found", "context:", "PE file(s)"):
        assert english not in done.stdout, english


def test_scan_of_corrupt_files_in_chinese(pe_bin: Path) -> None:
    done = run("scan", str(pe_bin / "corrupt"), "--lang", "zh")
    assert "诊断" in done.stdout and "修复 1:" in done.stdout and "文档: https://" in done.stdout
    assert "  ✗ 文件损坏  truncated_body.dll" in done.stdout
    assert "truncated_body.dll 不是可用的 PE 文件：" in done.stdout


def test_tree_words_are_chinese() -> None:
    done = run("tree", str(EXAMPLE), "--module", "pymod", "--python", "3.11", "--lang", "zh")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0] == "pymod.cp311-win_amd64.pyd  [扩展模块]"
    assert "chain_a.dll  [同一文件夹]" in lines[1]
    assert "chain_c.dll  [找不到]  查找过: site-packages\\chain_c.dll；" in lines[3]
    assert lines[-1] == "└── + 1 个系统 DLL：python311.dll"


def test_scan_markdown_in_chinese() -> None:
    done = run("scan", str(EXAMPLE), "--python", "3.11", "--lang", "zh", "--format", "markdown")
    assert done.stdout.startswith("### dlldoctor scan：1 个目标，1 个错误\n")
    assert "| 目标 | 结论 | Python | 进程 | PE 文件 | 警告 |" in done.stdout
    assert "| 缺少 DLL |" in done.stdout and "chain_b.dll 需要的 chain_c.dll 找不到" in done.stdout
    assert "Findings" not in done.stdout and "Assumptions" not in done.stdout


def test_not_a_windows_target_in_chinese(tmp_path: Path) -> None:
    done = run("scan", str(tmp_path), "--lang", "zh")
    assert done.returncode == 2
    assert (
        done.stderr
        == f"dlldoctor: 错误: {tmp_path}：不是 Windows 目标（其中没有 DLL、.pyd 或 .exe），未做任何检查\n"
    )
    assert done.stdout.startswith(f"? {tmp_path}：不是 Windows 目标")
