"""Texts from real threads that only sound like a failed native load get no diagnosis (tests/data/README.md)."""

from __future__ import annotations

from pathlib import Path

import yaml

from dlldoctor.diagnose.explain import diagnose
from dlldoctor.kb.ruleset import RuleSet
from dlldoctor.text.facts import extract_facts

TEXTS = yaml.safe_load((Path(__file__).parent / "data" / "real-non-load.yaml").read_text(encoding="utf-8"))[
    "texts"
]
# Not a failed load, but a diagnosis that is right all the same: pip finds no torch wheel for a 32-bit Python.
ANSWERED = {"https://github.com/pytorch/pytorch/issues/41005": "no-matching-distribution-for-platform"}


def test_the_set_is_what_its_readme_says() -> None:
    assert len(TEXTS) == 176
    assert all(str(t["source"]).startswith("http") and t["text"].strip() and t["note"] for t in TEXTS)
    assert len({t["kind"] for t in TEXTS}) == 9


def test_real_texts_that_are_not_a_failed_load_get_no_diagnosis(rule_set: RuleSet) -> None:
    answered = {}
    for t in TEXTS:
        f = extract_facts(
            t["text"], messages=rule_set.messages, families=rule_set.families, releases=rule_set.releases
        )
        found = diagnose(f, rule_set)
        if found:
            answered[t["source"]] = found[0].rule.id
    assert answered == ANSWERED


REVIEWED = yaml.safe_load(
    (Path(__file__).parent / "data" / "reviewed-non-load.yaml").read_text(encoding="utf-8")
)["texts"]
# The ones that still get a cause: an exact loader message quoted in docs, a changelog or a question (a text
# cannot tell the quote from the paste), a real failure of another kind with a loader's message, and a few
# weak candidates at the floor of the priors.
STILL_ANSWERED = {
    "java-bitness-docs": "winerror-193-not-a-valid-win32-application",
    "hresult-store": "winerror-193-no-file-named",
    "changelog-winerror-handling": "winerror-193-not-a-valid-win32-application",
    "ordinal-docs": "winerror-182-ordinal-not-found",
    "sxs-docs": "side-by-side-configuration-incorrect",
    # Node refusing an addon built for another NODE_MODULE_VERSION: the reviewer's "not a load", but an extension
    # built for another host is a cause of the taxonomy (python-abi-mismatch) and the training reports label it so
    "node-version-mismatch": "node-addon-built-for-other-node",
    # .NET's EntryPointNotFoundException for a function Windows 7 lacks, which the program handles: the failure is
    # real and the cause named (an older Windows) is the right one, though the program goes on without it
    "dotnet-entrypoint-exc": "entry-point-missing-from-windows-system-dll",
}


def test_reviewed_texts_that_only_sound_like_a_failed_load_get_no_confident_cause(rule_set: RuleSet) -> None:
    assert len(REVIEWED) == 183
    confident, weak = {}, 0
    for t in REVIEWED:
        f = extract_facts(
            t["text"], messages=rule_set.messages, families=rule_set.families, releases=rule_set.releases
        )
        found = diagnose(f, rule_set)
        if found and found[0].confidence >= 0.2:
            confident[t["id"]] = found[0].rule.id
        weak += bool(found) and found[0].confidence < 0.2
    assert confident == STILL_ANSWERED
    assert weak <= 20
