"""Loader failures as hosts, launchers and translations tell them: Wine's own line for a program it cannot start, an
HRESULT after IIS's "Error Code:" or after .NET's words without their colon, foobar2000's component of another
processor architecture, Ruby's require frame with the loader's code, the pop-up's "program input point" (a
translation of the Chinese 程序输入点), 0xc000007b without its "c", a Win32 function said to be missing on an old Windows
(in English or Chinese, or a title that names the two), an NTSTATUS name said to be raised, Qt's words for the
OpenSSL DLLs it could not load, a mod's DLL that Wine's builtin one stood in for, the side-by-side error in a title's
short words, and DLLs said in general words not to load. Each text is a real report's (its source beside it) or a
healthy text that must stay silent."""

from __future__ import annotations

import pytest
from silence import only_named_guesses, reading
from test_text_facts import facts

from dlldoctor.diagnose.differential import is_loader_error
from dlldoctor.diagnose.explain import explain_text
from dlldoctor.kb.ruleset import RuleSet

STATUS_DLL_NOT_FOUND = 0xC0000135
STATUS_ENTRYPOINT_NOT_FOUND = 0xC0000139


@pytest.mark.parametrize(
    ("text", "codes", "symbol"),
    [
        # https://github.com/3ct0s/dystopia-c2/issues/147
        (
            'wine: failed to open "/root/.wine/drive_c/users/root/AppData/Local/Programs/Python/Python38-32/Scripts/'
            'pyinstaller.exe": c0000135',
            (STATUS_DLL_NOT_FOUND,),
            None,
        ),
        # https://github.com/hexdump42/isapi-wsgi/issues/10 (IIS's error page)
        ("Handler: AboMapperCustom-80761726\nError Code: 0x800700c1", (193,), None),
        # https://github.com/TheQwertiest/foo_discord_rich/issues/49
        (
            'Could not load component "foo_discord_rich.fb2k-component": This component was built for a different '
            "processor architecture.",
            (193,),
            None,
        ),
        # https://github.com/gosu/gosu/issues/611 (the system's words shown as mojibake)
        (
            "<internal:C:/Ruby/lib/ruby/3.1.0/rubygems/core_ext/kernel_require.rb>:85:in `require': 126: \ufffd\ufffd\ufffd"
            "   - C:/Ruby/lib/ruby/gems/3.1.0/gems/gosu-1.3.0/lib/gosu.so (LoadError)",
            (126,),
            None,
        ),
        # https://github.com/mpv-player/mpv/issues/13103
        (
            "- Windows Version Windows 7 SP1\n"
            'It show"The program input point could not be located" GetSystemTimePreciseAsFileTime..."',
            (127,),
            None,
        ),
        # https://github.com/thestr4ng3r/chiaki/issues/7 (a title)
        ("SetThreadDescription not available on Windows 7", (127,), "SetThreadDescription"),
        # https://github.com/ldcsaa/HP-Socket/issues/316 (in Chinese: it cannot be used on 64-bit Windows 7)
        (
            "SetThreadDescription WIN764无法使用 这个函数是不是只有WIN10以上或以上的版本才可以",
            (127,),
            "SetThreadDescription",
        ),
        # https://github.com/Azure/diagnostics-eventflow/issues/142 (a title: "prior" for "prior to")
        (
            "GetSystemTimePreciseAsFileTime is not supported on operating systems prior Windows 8",
            (127,),
            "GetSystemTimePreciseAsFileTime",
        ),
        # https://github.com/chronoxor/CppServer/issues/9 (a title that is the name and the Windows)
        (
            "GetSystemTimePreciseAsFileTime Win 7\nI get this error on Win7.",
            (127,),
            "GetSystemTimePreciseAsFileTime",
        ),
        # https://github.com/justinsteven/dostackbufferoverflowgood/issues/7 (0xc000007b without its "c", "O" for 0)
        ("I'm failing to get it to run. Error Ox000007b, on Win 7", (0xC000007B,), None),
        # https://github.com/APSIMInitiative/APSIM710/issues/672 (the HRESULT without its colon)
        (
            '"An attempt was made to load a program with an incorrect format.\n(Exception from HRESULT 0x8007000B"',
            (193,),
            None,
        ),
        # https://github.com/koush/sqlite-net/issues/9 (an Italian Visual Studio's output)
        (
            "Eccezione first-chance di tipo 'System.DllNotFoundException' (Exception HRESULT: 0x8007007E)",
            (126,),
            None,
        ),
        # https://github.com/LemonHX/ioring-rs/issues/4
        ("`STATUS_ENTRYPOINT_NOT_FOUND` is raised in github actions", (STATUS_ENTRYPOINT_NOT_FOUND,), None),
        # https://github.com/MaximumADHD/Roblox-2007-Client/issues/18 (a title)
        (
            "Side-By-Side Config Incorrect\nReports the error above when executing. (I also installed the 2005 Service "
            "pack 1)",
            (14001,),
            None,
        ),
    ],
)
def test_a_host_s_words_for_a_failed_load_are_read(
    text: str, codes: tuple[int, ...], symbol: str | None, rule_set: RuleSet
) -> None:
    f = facts(text, rule_set)
    assert (tuple(f.codes), f.symbol, is_loader_error(f)) == (codes, symbol, True)


@pytest.mark.parametrize(
    "text",
    [
        # https://github.com/microsoft/msphpsql/issues/85 (a title)
        "PDO dll's not loading",
        # https://github.com/tryphotino/photino.NET/issues/60 (the title; the rest is a screenshot)
        "Dll was not found in some computer\nDoes the operation system lost something?",
    ],
)
def test_dlls_said_not_to_load_in_general_words_are_a_failed_load(text: str, rule_set: RuleSet) -> None:
    f, diagnoses = reading(text, rule_set)
    assert (is_loader_error(f), len({d.rule.category for d in diagnoses}) >= 2) == (True, True)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # https://github.com/TheQwertiest/foo_discord_rich/issues/49
        (
            'Could not load component "foo_discord_rich.fb2k-component": This component was built for a different '
            "processor architecture.",
            "arch-mismatch",
        ),
        # https://github.com/hexdump42/isapi-wsgi/issues/10
        ("Error Code: 0x800700c1", "arch-mismatch"),
        # https://github.com/thestr4ng3r/chiaki/issues/7 (the title and the body)
        (
            "SetThreadDescription not available on Windows 7\n\ni had installed Visual C++ 2015-2019 both x64 and x86 "
            "... i'm using windows 7 pro 64bit",
            "unsupported-platform",
        ),
        # https://github.com/mpv-player/mpv/issues/13103
        (
            "- Windows Version Windows 7 SP1\n"
            'It show"The program input point could not be located" GetSystemTimePreciseAsFileTime..."',
            "unsupported-platform",
        ),
        # https://github.com/ldcsaa/HP-Socket/issues/316
        (
            "SetThreadDescription WIN764无法使用 这个函数是不是只有WIN10以上或以上的版本才可以",
            "unsupported-platform",
        ),
        # https://github.com/Jmgr/actiona/issues/214 (the Windows package without Qt's OpenSSL DLLs)
        (
            "Web download/Web (code): TLS initialization failed\nIt seems that most (all?) SSL websites cannot be "
            "reached when using either the Web action or Web in code: an error TLS initialization failed is returned. "
            "Seems to occur only on Windows (10/11).",
            "incomplete-bundle",
        ),
        # https://github.com/StevenMXZ/Winlator-Ludashi/issues/211 (Wine's builtin winmm.dll won over the game's)
        (
            "Using custom .dlls aren't recognized by Winlator? Even when using an exec argument that works in SteamOS "
            "proton.\nThis appears to be an issue with Winlator, it seems to fail to load the winmm.dll file.",
            "dll-shadowing",
        ),
    ],
)
def test_those_words_name_their_cause_first(text: str, category: str, rule_set: RuleSet) -> None:
    assert explain_text(text, rule_set).diagnoses[0].rule.category == category


@pytest.mark.parametrize(
    "text",
    [
        # a product said unsupported, not a function missing
        "PyTorch is not supported on Windows 7",
        # a blue screen's stop code, not the loader's status
        "STOP: 0x0000007B (0xF78D2524, 0xC0000034, 0x00000000, 0x00000000)",
        # the status as a value in code
        "    return STATUS_ENTRYPOINT_NOT_FOUND;",
        # an HRESULT that is no loader's
        "Error Code: 0x80070005",
        # Wine starting a program that then crashes, another status
        'wine: failed to open "C:/games/x.exe": c0000005',
        # DLLs that load on demand
        "The plugin DLLs are loaded lazily, and a DLL not loaded yet costs nothing.",
        # a Qt change log
        "Fixed: TLS initialization no longer fails when the OpenSSL DLLs are beside the exe.",
        # a component of the right architecture that loaded
        'Loaded component "foo_discord_rich.fb2k-component" (x64).',
    ],
)
def test_words_near_those_shapes_that_are_no_failure_stay_silent(text: str, rule_set: RuleSet) -> None:
    assert only_named_guesses(*reading(text, rule_set))
