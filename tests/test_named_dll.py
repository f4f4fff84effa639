"""A report told in words: a text that names a DLL but quotes no error, nor speaks of DLLs for another reason (the
derived fact ``dll-named``). The differential answers it with the causes that most often explained such reports,
each a weak candidate and never a rule's cause; its evidence key says the DLL was only named. The texts are real
reports' (corpus/heldout24, counted in the priors) or healthy texts."""

from __future__ import annotations

import json

import pytest
from clirun import run_dlldoctor
from silence import WEAK, reading

from dlldoctor.diagnose.differential import answered_by_priors, evidence_keys, is_loader_error
from dlldoctor.diagnose.explain import explain_text
from dlldoctor.formats.explain import render_text
from dlldoctor.kb.ruleset import RuleSet

# https://github.com/pysmt/pysmt/issues/472 (the installer left out the VC++ 2012 runtime libz3.dll needs)
Z3 = (
    "The current windows installer for Z3 only copies the `libz3.dll` and `libz3.lib` binaries in addition to the "
    "python wrapper. It seems (see #328) that on some systems we need to also copy the other DLLs (`vcomp110.dll`, "
    "`msvcr110.dll` and `msvcp110.dll`) ."
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (Z3, {"incomplete-bundle", "vcredist-missing"}),
        # https://github.com/cupy/cupy/issues/6226
        (
            "cuDNN 8.3.0+ requires `zlib` as a dependency. This is not a problem for most Linux environments (because "
            "zlib often comes with the default installation), but Windows users are required to install the DLL by "
            "hand.\nWhen using CuPy's cuDNN API under Python 3.8+, the only possible location to install "
            "`zlibwapi.dll` is `C:\\Windows\\System32` or the directory where `python.exe` resides, because the DLL "
            "search path has been restricted in Python 3.8+.",
            {"cudnn-zlib-missing", "search-path-py38"},
        ),
        # https://github.com/vapoursynth/vapoursynth/issues/1100 (MEGAsync's older runtime on PATH)
        (
            "when using the portable version I have an issue with the finding/usage of runtime dlls, in this case "
            "`vcruntime140.dll`.\nOn systems with for example `MEGAsync` installed, the dump file reveals, that it's "
            "runtime dlls are used instead, which leads to a crash when API function `OpenFile()` is used",
            {"dll-shadowing"},
        ),
    ],
)
def test_a_report_told_in_words_gets_weak_candidates(
    text: str, expected: set[str], rule_set: RuleSet
) -> None:
    f, found = reading(text, rule_set)
    top3 = list(dict.fromkeys(d.rule.category for d in found))[:3]
    assert ("dll-named" in f.derived, f.states_failure, is_loader_error(f), answered_by_priors(f)) == (
        True,
        False,
        False,
        True,
    )
    assert all(d.rule.id.startswith("possible-") and d.confidence < WEAK for d in found)
    assert expected & set(top3)


def test_its_evidence_key_says_the_dll_was_only_named(rule_set: RuleSet) -> None:
    f, _ = reading(Z3, rule_set)
    assert evidence_keys(f) == ("*", "code=none", "code=none dll=other", "code=none dll=other via=named")


def test_the_answer_says_no_error_was_quoted(rule_set: RuleSet) -> None:
    ex = explain_text(Z3, rule_set, lang="en")
    out = render_text(ex, rule_set.families)
    assert ex.guessed
    assert out.startswith("No error was recognised in this text; it names a DLL")
    assert "the text names a DLL but quotes no error" in out


def test_a_rule_that_speaks_of_a_text_told_in_words_keeps_its_confidence(rule_set: RuleSet) -> None:
    # a rule that fires on a text naming a DLL without a failure is answered as before the priors spoke of such texts
    ex = explain_text("Windows 7 SP1, python 3.9, api-ms-win-core-path-l1-1-0.dll", rule_set)
    assert (ex.diagnoses[0].rule.id, ex.guessed) == ("windows7-api-ms-win-core-path-missing", False)
    assert ex.diagnoses[0].confidence > 0.9


@pytest.mark.parametrize(
    "text",
    [
        # a changelog that says a problem is over
        "v1.4.2: the Windows zip now bundles vcruntime140.dll and msvcp140.dll; fixed a crash when the config file "
        "is not found.",
        # a build log
        "building wheel for foo: copying build\\lib\\foo\\bar.dll -> dist\\foo",
        # the word for a DLL, no file named
        "I love this DLL viewer, thanks!",
        "How can I create a DLL in C# and call it from Python?",
    ],
)
def test_a_text_that_speaks_of_dlls_otherwise_gets_nothing(text: str, rule_set: RuleSet) -> None:
    f, found = reading(text, rule_set)
    assert ("dll-named" in f.derived, found) == (False, ())


def test_a_text_only_guessed_at_is_no_problem_found(rule_set: RuleSet) -> None:
    # the command exits 0, as for a text with nothing in it, and the JSON says the answer is a guess
    guessed = run_dlldoctor("explain", "--format", "json", Z3)
    stated = run_dlldoctor(
        "explain",
        "--format",
        "json",
        "ImportError: DLL load failed: The specified module could not be found.",
    )
    assert (guessed.returncode, json.loads(guessed.stdout)["guessed"]) == (0, True)
    assert (stated.returncode, json.loads(stated.stdout)["guessed"]) == (1, False)
