"""More loader failures in a program's or a person's words: Python4Delphi's "Error 193: Could not open Dll", the
entry-point pop-up in Dutch and retold with its DLL unnamed, the side-by-side failure as a title and as XP's pop-up
say it, IBM J9's missing prerequisite library, Java's words retyped, Russian and Chinese words for a missing DLL, 193
as "not a valid 32-bit application", Smart App Control's block told in words. Each text is a real report's (its
source beside it) or a healthy text that must stay silent."""

from __future__ import annotations

import pytest
from silence import only_named_guesses, reading
from test_text_facts import facts

from dlldoctor.diagnose.differential import is_loader_error
from dlldoctor.diagnose.explain import explain_text
from dlldoctor.kb.ruleset import RuleSet


@pytest.mark.parametrize(
    ("text", "codes", "dll"),
    [
        # https://github.com/lmbelo/python4delphi/issues/417
        (
            'Error 193: Could not open Dll "python33.dll"\nNothing works waste of time.',
            (193,),
            "python33.dll",
        ),
        # https://github.com/ObjectVision/GeoDMS/issues/1186
        (
            "Kan toegangspunt van procedure `__std_calloc_crt` niet vinden in DLL-bestand "
            "`...\\GeoDms20.12.0.c\\arrow.dll`",
            (127,),
            "arrow.dll",
        ),
        # https://github.com/danielga/gmsv_serversecure/issues/80 (a title)
        ("SetThreadDescription could not be located in the DLL", (127,), None),
        # https://github.com/namazso/SecureUxTheme/issues/26
        (
            "unable to locate the entry point for the RtlGetTokenNamedObjectpath procedure in the dynamic link "
            'library "path of .exe"',
            (127,),
            None,
        ),
        # https://github.com/netprofilesmod/netprofilesmod/issues/31 (a title)
        ("Wrong Side-by-Side configuration (microsoft.vc80.crt could not be found)", (14001,), None),
        # https://github.com/java-native-access/jna/issues/636 (IBM J9)
        (
            "C:\\Users\\ADMINI~1\\AppData\\Local\\Temp\\1\\jna-146731693\\jna290172322139546992.dll (JVMPORT015E "
            "Unable to resolve shared library references - a prerequisite shared library may be missing)\n"
            "Exception: java.lang.UnsatisfiedLinkError",
            (126,),
            None,
        ),
        # https://github.com/norecha/pokubot/issues/43 (a title)
        ("Bot worked but now stuck on cant find dependant libraries", (126,), None),
        # https://github.com/durs/node-activex/issues/57
        ("Winax is not a valid 32-bit application。\nCan you support both 32-bit and 64-bit？", (193,), None),
        # https://github.com/jchristn/SuperSimpleTcp/issues/233
        (
            "However as of today we have started seeing it being blocked form loading on windows 11 pro due to "
            "'smart app control' - and right now, as that doesn't have a white list we have had to temporarily "
            "disable smart app control which is not desirable.",
            (4551,),
            None,
        ),
    ],
)
def test_a_program_s_or_a_person_s_words_are_the_failed_load(
    text: str, codes: tuple[int, ...], dll: str | None, rule_set: RuleSet
) -> None:
    f = facts(text, rule_set)
    assert (tuple(f.codes), f.dll, is_loader_error(f)) == (codes, dll, True)


@pytest.mark.parametrize(
    ("text", "dll"),
    [
        # https://github.com/Leadaxe/singbox-launcher/issues/82 (a title: "on Windows 7 it complains of the absence of")
        ("на виндовс7 ругается на отсутствие bcryptprimitives.dll", "bcryptprimitives.dll"),
        # https://github.com/BLumia/pineapple-pictures/issues/135 ("it says the following DLLs are missing")
        ("- 提示缺少以下 dll\n    - libwinpthread-1.dll\n    - libgcc_s_seh-1.dll", None),
    ],
)
def test_words_for_a_missing_dll_are_a_failed_load(text: str, dll: str | None, rule_set: RuleSet) -> None:
    f = facts(text, rule_set)
    assert (f.dll, is_loader_error(f)) == (dll, True)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # https://github.com/danielga/gmsv_serversecure/issues/80: SetThreadDescription came with Windows 10 1607
        (
            "SetThreadDescription could not be located in the DLL",
            "entry-point-missing-from-windows-system-dll",
        ),
        # https://github.com/FoldingAtHome/fah-issues/issues/662: XP's wording of the side-by-side failure
        (
            "This application has failed to start because the application configuration is incorrect.  Reinstalling "
            "the application may fix the problem.",
            "side-by-side-configuration-incorrect",
        ),
        (
            "Wrong Side-by-Side configuration (microsoft.vc80.crt could not be found)",
            "side-by-side-configuration-incorrect",
        ),
        (
            "However as of today we have started seeing it being blocked form loading on windows 11 pro due to "
            "'smart app control'",
            "winerror-4551-application-control-policy",
        ),
    ],
)
def test_those_words_name_their_cause(text: str, rule: str, rule_set: RuleSet) -> None:
    assert explain_text(text, rule_set).diagnoses[0].rule.id == rule


@pytest.mark.parametrize(
    "text",
    [
        # an error that is no loader's, with the same words before "DLL"
        "Error 404 while loading DLL list from the server",
        # Smart App Control spoken of, nothing blocked
        "Smart App Control is turned off on this machine; the installer ran fine.",
        # the side-by-side words about a manifest being written, no failure
        "The side-by-side manifest (microsoft.vc90.crt) is embedded by the linker.",
        # "not a valid" of something that is no program
        "This is not a valid 64-bit integer literal",
    ],
)
def test_words_near_those_shapes_that_are_no_failure_stay_silent(text: str, rule_set: RuleSet) -> None:
    assert only_named_guesses(*reading(text, rule_set))
