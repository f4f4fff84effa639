"""The rule set: schema, lint (every problem with file and line), the rules' own examples, skeletons, cache."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from dlldoctor.cli import main
from dlldoctor.diagnose.examples import run_examples
from dlldoctor.errors import RuleError
from dlldoctor.kb.ruleset import lint_rule_set, load_rule_set
from dlldoctor.resources import rules_root

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DLLDOCTOR_CACHE_DIR", str(tmp_path / "cache"))


def test_builtin_rules_lint_clean() -> None:
    rule_set, problems = lint_rule_set(rules_root())
    assert [str(p) for p in problems] == []
    assert rule_set is not None


def test_builtin_rules_pass_their_own_examples() -> None:
    results = run_examples(load_rule_set())
    failed = [
        f"{r.rule} {r.kind}[{r.index}] fired: {', '.join(r.fired) or 'none'}" for r in results if not r.passed
    ]
    assert failed == []
    assert sum(r.kind == "match" for r in results) >= 2 * len(load_rule_set().active_rules())


def test_at_least_45_rules_cover_every_category_but_other() -> None:
    rule_set = load_rule_set()
    covered = {r.category for r in rule_set.active_rules()}
    wanted = {c for c, _ in rule_set.categories} - {"other"}
    assert sorted(wanted - covered) == []
    assert len(rule_set.active_rules()) >= 45


# --- a scratch rule set ---------------------------------------------------------------------------------

GOOD = """\
id: {id}
category: {category}
status: stable
title: {{en: Paging file too small, zh: 页面文件太小}}
summary: {{en: The paging file is too small., zh: 页面文件太小。}}
match:
  any:
    - code: [1455]
    - text: 'paging file is too small'
fixes:
  - {{en: Enlarge the paging file., zh: 增大页面文件。}}
references: [https://github.com/pytorch/pytorch/issues/77959]
examples:
  match:
    - "OSError: [WinError 1455] The paging file is too small for this operation to complete."
    - "the paging file is too small"
  no_match:
    - "OSError: [WinError 126] The specified module could not be found."
"""


def scratch(tmp_path: Path, rules: dict[str, str]) -> Path:
    root = tmp_path / "rules"
    (root / "data").mkdir(parents=True)
    shutil.copy(ROOT / "rules" / "taxonomy.yaml", root / "taxonomy.yaml")
    shutil.copy(ROOT / "rules" / "data" / "families.yaml", root / "data" / "families.yaml")
    messages = ROOT / "rules" / "data" / "messages.yaml"
    if messages.exists():
        shutil.copy(messages, root / "data" / "messages.yaml")
    for rel, text in rules.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def test_a_valid_scratch_set_loads(tmp_path: Path) -> None:
    root = scratch(tmp_path, {"paging-file/p1.yaml": GOOD.format(id="p1", category="paging-file")})
    rule_set, problems = lint_rule_set(root)
    assert problems == []
    assert rule_set is not None and [r.id for r in rule_set.rules] == ["p1"]


BROKEN = """\
id: not-the-stem
category: paging-file
status: stable
title: {en: Paging file too small}
summary: {en: The paging file is too small., zh: The paging file is too small.}
match:
  all:
    - family: no-such-family
  any:
    - text: '(?<=paging) file'
    - code: [1455]
      text: 'both kinds'
    - weird: 1
fixes:
  - {en: Enlarge it., zh: 增大页面文件。}
references: [not-a-url]
probes:
  - probe: dll-resolves
    dll: x.dll
    family: vc-runtime
    expect: false
  - probe: telepathy
examples:
  match:
    - only one
  no_match: []
"""


def test_lint_reports_every_problem_at_once_with_file_and_line(tmp_path: Path) -> None:
    root = scratch(
        tmp_path,
        {
            "paging-file/broken.yaml": BROKEN,
            "arch-mismatch/dup-a.yaml": GOOD.format(id="dup-a", category="paging-file"),
            "paging-file/dup-a.yaml": GOOD.format(id="dup-a", category="paging-file"),
            "not-a-category/x.yaml": GOOD.format(id="x", category="paging-file"),
            "paging-file/bad.yml": "id: bad\n",
            "paging-file/syntax.yaml": "id: syntax\ntitle: [unclosed\n",
        },
    )
    rule_set, problems = lint_rule_set(root)
    assert rule_set is None
    found = {(Path(p.path).relative_to(root).as_posix(), p.line, p.message) for p in problems}
    b = "paging-file/broken.yaml"
    expected = {
        (b, 4, "title: missing zh text (every title, summary and fix step needs en and zh)"),
        (b, 1, "id 'not-the-stem' differs from the file name 'broken'"),
        (b, 8, "unknown DLL family 'no-such-family' (see data/families.yaml)"),
        (
            b,
            10,
            "pattern '(?<=paging) file' is not valid RE2 syntax (no backreferences or lookaround): "
            "invalid perl operator: (?<=",
        ),
        (
            b,
            11,
            "match.any[1]: a matcher needs exactly one kind key (code, family, dll, symbol, module, text, "
            "python, package, env, location, derived); this one has code and text",
        ),
        (
            b,
            13,
            "match.any[2]: a matcher needs exactly one kind key (code, family, dll, symbol, module, text, "
            "python, package, env, location, derived); this one has none",
        ),
        (b, 16, "references[0]: 'not-a-url' is not an http(s) URL"),
        (b, 18, "probes[0]: probe 'dll-resolves' takes `dll` or `family`, not both"),
        (
            b,
            22,
            "probes[1]: unknown probe 'telepathy' (one of dll-resolves, symbol-exported, machine-matches, "
            "file-intact, mixed-install, duplicate-dll, vcruntime-version, cuda-major, cuda-build, python-abi, "
            "environment, path-ascii, driver-version)",
        ),
        (b, 25, "examples.match: too few examples: 1 given, at least 2 needed"),
        (b, 26, "examples.no_match: too few examples: 0 given, at least 1 needed"),
        (b, 5, "summary.zh: the zh text has no Chinese in it"),
        ("arch-mismatch/dup-a.yaml", 2, "category 'paging-file' differs from the folder 'arch-mismatch'"),
        (
            "arch-mismatch/dup-a.yaml",
            1,
            f"duplicate rule id 'dup-a' (in {root}/arch-mismatch/dup-a.yaml, {root}/paging-file/dup-a.yaml)",
        ),
        (
            "paging-file/dup-a.yaml",
            1,
            f"duplicate rule id 'dup-a' (in {root}/arch-mismatch/dup-a.yaml, {root}/paging-file/dup-a.yaml)",
        ),
        ("not-a-category", 0, "folder 'not-a-category' is not a category of taxonomy.yaml"),
        ("not-a-category/x.yaml", 2, "category 'paging-file' differs from the folder 'not-a-category'"),
        ("paging-file/bad.yml", 0, "rule files end in .yaml"),
    }
    syntax = {f for f in found if f[0] == "paging-file/syntax.yaml"}
    assert [(f[1], f[2].startswith("invalid YAML: ")) for f in syntax] == [(3, True)]
    assert found - syntax == expected


def test_cli_lint_exit_status_and_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = scratch(tmp_path, {"paging-file/broken.yaml": BROKEN})
    assert main(["rules", "lint", "--rules", str(root)]) == 1
    out = capsys.readouterr().out
    assert f"{root}/paging-file/broken.yaml:10: pattern '(?<=paging) file' is not valid RE2" in out
    good = scratch(tmp_path / "good", {"paging-file/p1.yaml": GOOD.format(id="p1", category="paging-file")})
    assert main(["rules", "lint", "--rules", str(good)]) == 0
    assert "1 rules OK" in capsys.readouterr().out


def test_an_invalid_rule_set_is_a_usage_error_for_explain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = scratch(tmp_path, {"paging-file/broken.yaml": BROKEN})
    with pytest.raises(RuleError, match="problems; run `dlldoctor rules lint`"):
        load_rule_set(root)
    assert main(["explain", "--rules", str(root), "[WinError 1455] The paging file is too small"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dlldoctor: error: the rule set in ")
    assert "Traceback" not in err


OVERLAP = """\
id: {id}
category: {category}
status: stable
title: {{en: Two rules, zh: 两条规则}}
summary: {{en: Fires on the same words., zh: 在相同的文字上触发。}}
match:
  any:
    - text: '{pattern}'
fixes:
  - {{en: Nothing., zh: 无。}}
references: [https://example.org/x]
examples:
  match:
    - "{m1}"
    - "{m2}"
  no_match:
    - "{n1}"
  todo_match:
    - "{todo}"
"""


def test_rules_test_reports_the_exact_set_that_fires(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = scratch(
        tmp_path,
        {
            "paging-file/alpha.yaml": OVERLAP.format(
                id="alpha",
                category="paging-file",
                pattern="alpha|shared",
                m1="alpha here",
                m2="shared words",
                n1="gamma",
                todo="not yet",
            ),
            "paging-file/beta.yaml": OVERLAP.format(
                id="beta",
                category="paging-file",
                pattern="beta|shared",
                m1="beta here",
                m2="shared words",
                n1="alpha shared",
                todo="beta again",
            ),
        },
    )
    results = {(r.rule, r.kind, r.index): r for r in run_examples(load_rule_set(root))}
    assert results[("alpha", "match", 1)].fired == ("alpha", "beta")
    assert results[("beta", "no_match", 0)].fired == ("alpha", "beta")
    assert not results[("beta", "no_match", 0)].passed
    assert results[("alpha", "todo_match", 0)].passed and not results[("alpha", "todo_match", 0)].todo_fixed
    assert results[("beta", "todo_match", 0)].todo_fixed

    assert main(["rules", "test", "--rules", str(root)]) == 1
    out = capsys.readouterr().out
    assert (
        f"{root}/paging-file/beta.yaml:17: FAIL: beta should not fire on examples.no_match[0]: alpha shared\n"
        "    rules that fire: alpha, beta\n"
    ) in out
    assert (
        f"{root}/paging-file/alpha.yaml:19: TODO: alpha not expected yet on examples.todo_match[0]: not yet"
        in out
    )
    assert "TODO fixed (move it to match): beta" in out
    assert "5/6 examples pass, 1 fail, 2 todo (1 of them now fire), 2 rules" in out
    assert main(["rules", "test", "--rules", str(root), "alpha"]) == 0


def test_new_writes_a_skeleton_that_lint_calls_unfinished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = scratch(tmp_path, {})
    assert main(["rules", "new", "my-new-rule", "--category", "ucrt-missing", "--rules", str(root)]) == 0
    assert (root / "ucrt-missing" / "my-new-rule.yaml").is_file()
    capsys.readouterr()
    # The skeleton passes the schema, but its TODO placeholders must not reach users' answers.
    assert main(["rules", "lint", "--rules", str(root)]) == 1
    out = capsys.readouterr().out
    assert "my-new-rule.yaml:9: title.en: unfinished skeleton: replace the TODO placeholder" in out
    assert "references[0]: unfinished skeleton" in out
    assert main(["rules", "new", "my-new-rule", "--category", "ucrt-missing", "--rules", str(root)]) == 2
    assert main(["rules", "new", "Bad_Id", "--category", "ucrt-missing", "--rules", str(root)]) == 2
    assert main(["rules", "new", "x", "--category", "no-such", "--rules", str(root)]) == 2
    err = capsys.readouterr().err
    assert "already exists" in err and "lower-case words" in err and "unknown category 'no-such'" in err


def test_list_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "list", "--category", "paging-file"]) == 0
    out = capsys.readouterr().out
    assert "winerror-1455-paging-file" in out and "vcruntime-dll-not-found" not in out
    assert main(["rules", "show", "winerror-1455-paging-file", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "页面文件太小" in out and "SystemPropertiesPerformance.exe" in out
    assert main(["rules", "show", "winerror-1455-paging-fil"]) == 2
    assert "did you mean winerror-1455-paging-file?" in capsys.readouterr().err


def test_cache_is_used_and_a_corrupt_entry_is_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dlldoctor.cache import rule_store as rulecache
    from dlldoctor.kb import ruleset

    root = scratch(tmp_path, {"paging-file/p1.yaml": GOOD.format(id="p1", category="paging-file")})
    first = load_rule_set(root)
    entries = list(rulecache.cache_dir().glob("rules-*.pickle"))
    assert len(entries) == 1

    def no_parsing(_: Path) -> None:
        raise AssertionError("the cache should have been used")

    with monkeypatch.context() as m:
        m.setattr(ruleset, "lint_rule_set", no_parsing)
        assert load_rule_set(root) == first

    entries[0].write_bytes(b"\x80\x04 not a pickle")
    assert load_rule_set(root) == first
    assert entries[0].read_bytes()[:1] == b"\x80" and len(entries[0].read_bytes()) > 100

    (root / "paging-file" / "p1.yaml").write_text(
        GOOD.format(id="p1", category="paging-file").replace("Paging file too small", "Changed"),
        encoding="utf-8",
    )
    assert load_rule_set(root).rules[0].title.en == "Changed"


# ---- the compiled built-in set ----------------------------------------------------------------------


def test_compiled_file_is_current() -> None:
    from dlldoctor.kb.compiled import NAME
    from dlldoctor.kb.ruleset import compiled_text

    current = (rules_root() / NAME).read_text(encoding="utf-8")
    assert current == compiled_text(rules_root()), "regenerate: dlldoctor rules compile"
    assert main(["rules", "compile", "--check"]) == 0


def _compiled_with_title(root: Path, digest: str, title: str) -> str:
    """Write a compiled file for ``root`` whose first rule file has another English title; its id."""
    import json

    from dlldoctor.kb.compiled import NAME, render
    from dlldoctor.kb.ruleset import lint_parts

    parts, problems = lint_parts(root)
    assert parts is not None and not problems
    parts["rules"][0][1]["title"]["en"] = title
    (root / NAME).write_text(render(digest, json.loads(json.dumps(parts))), encoding="utf-8")
    return str(parts["rules"][0][1]["id"])


def test_the_built_in_set_reads_its_compiled_file_only_when_the_rules_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    import dlldoctor.resources
    from dlldoctor.kb.ruleset import content_digest

    root = tmp_path / "rules"
    shutil.copytree(rules_root(), root)
    truth = lint_rule_set(root)[0]
    assert truth is not None
    monkeypatch.setattr(dlldoctor.resources, "rules_root", lambda: root)

    first = _compiled_with_title(root, content_digest(root), "from the compiled file")
    loaded = load_rule_set(use_cache=False)
    assert loaded.get(first).title.en == "from the compiled file"  # the file was used, not the YAML

    _compiled_with_title(root, "0" * 64, "from a stale compiled file")
    assert load_rule_set(use_cache=False) == truth  # another digest: the rules are checked instead

    damaged = json.dumps({"format": 1, "digest": content_digest(root), "parts": {}})
    (root / "compiled.json").write_text(damaged, encoding="utf-8")
    assert load_rule_set(use_cache=False) == truth  # damaged: checked instead, no traceback


def test_a_rule_set_given_by_folder_never_reads_a_compiled_file(tmp_path: Path) -> None:
    from dlldoctor.kb.ruleset import content_digest

    root = tmp_path / "rules"
    shutil.copytree(rules_root(), root)
    _compiled_with_title(root, content_digest(root), "planted")
    loaded = load_rule_set(root, use_cache=False)
    assert "planted" not in {r.title.en for r in loaded.rules}


def test_releases_file_is_checked_with_the_other_data_files(tmp_path: Path) -> None:
    root = scratch(tmp_path, {"paging-file/p1.yaml": GOOD.format(id="p1", category="paging-file")})
    (root / "data" / "releases.yaml").write_text(
        textwrap.dedent(
            """\
            releases:
              - package: h5py
                versions: "==3.12.0"
                platform: windows
                symptom: module-not-found
                fixed_in: "3.12.1"
                source: https://pypi.org/pypi/h5py/3.12.0/json
              - package: somepkg
                versions: "about 2"
                platform: linux
                symptom: sad
                fixed_in: "2.1"
                use_instead: "1.9"
                source: not-a-url
                colour: blue
            """
        ),
        encoding="utf-8",
    )
    rule_set, problems = lint_rule_set(root)
    assert rule_set is None
    found = sorted((p.line, p.message.split(" ")[0]) for p in problems if p.path.endswith("releases.yaml"))
    assert found == [
        (8, "exactly"),
        (9, "`versions`"),
        (10, "`platform`"),
        (11, "`symptom`"),
        (14, "`source`"),
        (15, "unknown"),
    ]
    (root / "data" / "releases.yaml").write_text(
        "releases:\n  - {package: H5Py, versions: '3.12.0', platform: windows, symptom: module-not-found,"
        " fixed_in: '3.12.1', source: 'https://pypi.org/pypi/h5py/3.12.0/json'}\n",
        encoding="utf-8",
    )
    rule_set, problems = lint_rule_set(root)
    assert problems == [] and rule_set is not None
    (entry,) = rule_set.releases.entries
    assert (entry.package, entry.versions, entry.instead, entry.fixed) == ("h5py", "==3.12.0", "3.12.1", True)


def test_every_built_in_release_has_a_source_and_loads() -> None:
    rule_set = load_rule_set(use_cache=False)
    assert len(rule_set.releases.entries) >= 9
    assert all(r.source.startswith("https://") for r in rule_set.releases.entries)


def test_cues_file_is_checked_and_its_counts_must_name_its_cues(tmp_path: Path) -> None:
    root = scratch(tmp_path, {"paging-file/p1.yaml": GOOD.format(id="p1", category="paging-file")})
    cues = root / "data" / "cues.yaml"
    cues.write_text(
        textwrap.dedent(
            """\
            cues:
              conda:
                what: a conda environment
                pattern: '\\bconda\\b'
              Bad_Id:
                what: x
                pattern: 'x'
              lookahead:
                what: an RE2 cannot
                pattern: 'foo(?=bar)'
              no-what:
                pattern: 'y'
              empty:
                what: matches everything
                pattern: 'z*'
            """
        ),
        encoding="utf-8",
    )
    rule_set, problems = lint_rule_set(root)
    assert rule_set is None
    found = sorted((p.line, p.message.split(" ")[0]) for p in problems if p.path.endswith("cues.yaml"))
    # each at its cue's first line: the bad id, the lookahead, the missing `what`, the empty match
    assert found == [(6, "a"), (10, "pattern"), (12, "`what`"), (15, "pattern")]
    cues.write_text(
        "cues:\n  conda:\n    what: a conda environment\n    pattern: 'conda'\n", encoding="utf-8"
    )
    (root / "data" / "priors.yaml").write_text(
        "counts: {'*': {paging-file: 1}}\ncues: {conda: {paging-file: 1}, gone: {paging-file: 1}}\n",
        encoding="utf-8",
    )
    rule_set, problems = lint_rule_set(root)
    assert rule_set is None
    assert [p.message for p in problems] == [
        "priors count cue 'gone', which cues.yaml does not define (rerun `dlldoctor rules priors`)"
    ]
    (root / "data" / "priors.yaml").write_text(
        "counts: {'*': {paging-file: 1}}\ncues: {conda: {paging-file: 1}}\n", encoding="utf-8"
    )
    rule_set, problems = lint_rule_set(root)
    assert problems == [] and rule_set is not None
    assert rule_set.cues.found(b"conda activate base") == ("conda",)
    assert rule_set.priors.cues == (("conda", (("paging-file", 1),)),)


def test_causes_only_python_can_have_must_be_categories(tmp_path: Path) -> None:
    good = GOOD.format(id="p1", category="paging-file")
    causes = (
        "representatives: {paging-file: p1}\nruled_out_by: {native-program: [store-python, no-such-cause]}\n"
    )
    root = scratch(tmp_path, {"paging-file/p1.yaml": good, "data/causes.yaml": causes})
    rule_set, problems = lint_rule_set(root)
    assert rule_set is None
    assert [(Path(p.path).name, p.message) for p in problems] == [
        ("causes.yaml", "`ruled_out_by:` maps derived facts to lists of categories of taxonomy.yaml")
    ]
    (root / "data" / "causes.yaml").write_text(causes.replace(", no-such-cause", ""), encoding="utf-8")
    rule_set, problems = lint_rule_set(root)
    assert problems == [] and rule_set is not None
    assert rule_set.ruled_out_by(("native-program",)) == frozenset({"store-python"})
