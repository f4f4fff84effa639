"""Advice that agrees with itself: a fix never contradicts the finding it answers or another rule.

Each test would have caught one contradiction that shipped: a CUDA 12 fix for a missing cublas64_13.dll,
one rule saying libomp140 is in the Visual C++ Redistributable and another saying it is not, a 32-bit
process told to install the x64 redistributable, a conda environment told to use %VIRTUAL_ENV%.
"""

from __future__ import annotations

import re

import pytest

from dlldoctor.kb.machines import load_variants, rule_for_machine
from dlldoctor.kb.ruleset import RuleSet

CUDA_DLL = re.compile(
    r"(?:cublas|cublasLt|cudart|cufft|curand|cusolver|cusparse|nvrtc|nvJitLink)64_(\d+)\.dll", re.I
)
SENTENCE = re.compile(r"(?<=[.;])\s+|[。；]")  # a full stop inside a DLL name does not end a sentence
NEGATION = re.compile(r"\b(?:not|neither|no longer|never)\b|不|并不|并非|没有")


def _texts(rule_set: RuleSet) -> list[tuple[str, str]]:
    out = []
    for rule in rule_set.rules:
        for lang in ("en", "zh"):
            out.append((rule.id, rule.summary.get(lang)))
            out += [(rule.id, fix.text.get(lang)) for fix in rule.fixes]
    return out


def test_no_rule_says_the_redistributable_ships_libomp140(rule_set: RuleSet) -> None:
    claims = []
    said_not = 0
    for rule_id, text in _texts(rule_set):
        for sentence in SENTENCE.split(text):
            if "libomp140" in sentence and re.search(r"Redistributable|可再发行组件", sentence):
                if NEGATION.search(sentence):
                    said_not += 1
                else:
                    claims.append((rule_id, sentence.strip()))
    assert said_not >= 2  # the fact is stated (en and zh), so the check has something to agree with
    assert claims == []


def test_fixes_for_a_32_bit_process_never_name_the_x64_redistributable(rule_set: RuleSet) -> None:
    variants = load_variants()
    assert variants
    x64_redist = re.compile(r"(?:VCRedist|vc_redist|Redistributable|可再发行组件)[^;\n。]*?\bx64\b", re.I)
    wrong = []
    for rule in rule_set.rules:
        adapted = rule_for_machine(rule, "x86", variants)
        for fix in adapted.fixes:
            for text in (fix.text.en, fix.text.zh, fix.url or "", *(c for _, c in fix.commands)):
                # "x64 for 64-bit Python" names the condition; a bare x64 is advice for another process.
                if x64_redist.search(text) and not re.search(r"64-bit|64 位", text):
                    wrong.append((rule.id, text))
    assert wrong == []


def test_x64_fixes_are_unchanged(rule_set: RuleSet) -> None:
    variants = load_variants()
    assert all(rule_for_machine(rule, "x64", variants) is rule for rule in rule_set.rules)


def test_commands_use_no_variable_of_another_kind_of_environment(rule_set: RuleSet) -> None:
    """%VIRTUAL_ENV% is set only in an activated venv, %CONDA_PREFIX% only in conda: a rule that may fire in
    either must not depend on one of them."""
    needs = {"VIRTUAL_ENV": "venv", "CONDA_PREFIX": "conda"}
    wrong = []
    for rule in rule_set.rules:
        required = {name for m in rule.match.all if m.kind == "env" for name in m.names}
        for fix in rule.fixes:
            for shell, command in fix.commands:
                for variable, env in needs.items():
                    if variable in command and env not in required:
                        wrong.append((rule.id, shell, command))
    assert wrong == []


@pytest.mark.wheels
def test_the_cuda_version_in_a_fix_is_the_one_the_missing_dlls_name() -> None:
    import wheelcache

    from dlldoctor.diagnose.verdicts import DiagnoseWithRules
    from dlldoctor.scan.result import ScanOptions
    from dlldoctor.scan.target import scan_target

    result = scan_target(str(wheelcache.wheel(wheelcache.ONNXRUNTIME_GPU)), ScanOptions(python="3.11"))
    DiagnoseWithRules()([result])
    named = {m for f in result.findings if f.dll for m in CUDA_DLL.findall(f.dll)}
    assert named == {"13"}  # onnxruntime-gpu 1.31.1 links cublas64_13.dll
    assert result.diagnoses
    for probed in result.diagnoses:
        for fix in probed.rule.fixes:
            said = set(re.findall(r"\bCUDA (\d+)\b", fix.text.en))
            assert said <= named, (probed.rule.id, fix.text.en)


@pytest.mark.wheels
def test_a_32_bit_target_is_told_to_install_the_x86_redistributable() -> None:
    import json
    import subprocess
    import sys

    import wheelcache

    wheel = wheelcache.wheel(wheelcache.MSVC_OLD, platform="win32")
    done = subprocess.run(
        [sys.executable, "-m", "dlldoctor", "scan", str(wheel), "-q", "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    report = json.loads(done.stdout)
    assert report["environment"]["machine"] == "x86"
    commands = [c for d in report["diagnoses"] for f in d["fixes"] for c in f["commands"].values()]
    assert any("Microsoft.VCRedist.2015+.x86" in c for c in commands)
    assert not any("VCRedist.2015+.x64" in c for c in commands)
