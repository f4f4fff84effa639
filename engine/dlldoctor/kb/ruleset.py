"""A rule set: the rules of one folder with the taxonomy and reference data they rely on.

:func:`lint_rule_set` checks everything at once and returns every problem with its file and line;
:func:`load_rule_set` returns the valid set (through the cache) or raises one :class:`RuleError` that
lists the problems.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dlldoctor.errors import RuleError
from dlldoctor.kb.cues import NO_CUES, Cues, check_cues, cues_from_data
from dlldoctor.kb.families import Families, check_families, families_from_data
from dlldoctor.kb.messages import Messages, check_messages, messages_from_data
from dlldoctor.kb.model import Rule, rule_from_data
from dlldoctor.kb.priors import Priors, check_priors, priors_from_data
from dlldoctor.kb.releases import Releases, check_releases, releases_from_data
from dlldoctor.vocabulary import DERIVED_FACTS

if TYPE_CHECKING:  # the YAML side is needed to lint and build, not to use a cached rule set
    from dlldoctor.kb.yamlsrc import Problem, Source

RULE_SCHEMA_VERSION = 1
NO_PRIORS = Priors(())
NO_RELEASES = Releases()
_MODEL_SOURCES = (
    "ruleset.py",
    "model.py",
    "lint.py",
    "families.py",
    "messages.py",
    "priors.py",
    "cues.py",
    "releases.py",
    "schemas/rule.schema.json",
)


@dataclass(frozen=True)
class RuleSet:
    root: str
    digest: str
    categories: tuple[tuple[str, str], ...]  # (category id, description) in taxonomy order
    families: Families
    messages: Messages
    rules: tuple[Rule, ...]  # sorted by id
    priors: Priors = NO_PRIORS
    # category -> the rule whose fixes a candidate cause borrows when no rule of it fired (data/causes.yaml)
    representatives: tuple[tuple[str, str], ...] = ()
    releases: Releases = NO_RELEASES  # releases whose Windows files fail to load (data/releases.yaml)
    cues: Cues = NO_CUES  # words that shift which cause is likely (data/cues.yaml, counted in priors.yaml)
    # derived fact -> the causes it rules out as candidates of the priors (data/causes.yaml `ruled_out_by`)
    ruled_out: tuple[tuple[str, frozenset[str]], ...] = ()

    def ruled_out_by(self, derived: Iterable[str]) -> frozenset[str]:
        """The causes that these derived facts of a text rule out."""
        table = dict(self.ruled_out)
        return frozenset().union(*(table.get(fact, frozenset()) for fact in derived))

    def get(self, rule_id: str) -> Rule | None:
        return next((r for r in self.rules if r.id == rule_id), None)

    def active_rules(self) -> tuple[Rule, ...]:
        return tuple(r for r in self.rules if r.active)


def _data_files(root: Path) -> list[Path]:
    files = [root / "taxonomy.yaml"]
    data = root / "data"
    if data.is_dir():
        files += sorted(p for p in data.glob("*.yaml") if not p.is_dir())
    return files


def rule_files(root: Path) -> Iterator[Path]:
    """Every file in the category folders of ``root`` (folders other than data/), sorted."""
    for folder in sorted(
        p for p in root.iterdir() if p.is_dir() and p.name != "data" and not p.name.startswith(".")
    ):
        # Not only regular files: a FIFO or a link to a device is a problem lint names, not a rule left out.
        yield from sorted(p for p in folder.iterdir() if not p.is_dir())


def content_digest(root: Path) -> str:
    """A hash of everything a rule set is made of (names and bytes), and of the engine's rule format."""
    from dlldoctor import __version__
    from dlldoctor.bounded import read_regular
    from dlldoctor.kb.yamlsrc import MAX_FILE

    h = hashlib.sha256(f"dlldoctor {__version__} rules v{RULE_SCHEMA_VERSION}\n".encode())
    # The code that turns files into the cached model is part of the key too, so a changed engine never
    # reads a model built by an older one.
    here = Path(__file__).parent
    for module in _MODEL_SOURCES:
        try:
            h.update((here / module).read_bytes())
        except OSError:
            h.update(module.encode())
    paths = [p for p in _data_files(root) if p.exists()]
    if root.is_dir():
        paths += list(rule_files(root))
    for path in paths:
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        try:
            h.update(read_regular(path, MAX_FILE, root=root))
        except OSError:  # a FIFO, a device, too big, a link out of the set: lint will say which
            h.update(b"<unreadable>")
        h.update(b"\0")
    return h.hexdigest()


def _rel(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def lint_rule_set(root: Path) -> tuple[RuleSet | None, list[Problem]]:
    """Check a rule set completely. Returns the set (None when anything is wrong) and every problem."""
    parts, problems = lint_parts(root)
    if parts is None:
        return None, problems
    return rule_set_from_parts(Path(root), content_digest(Path(root)), parts), []


def lint_parts(root: Path) -> tuple[dict[str, Any] | None, list[Problem]]:
    """Check a rule set completely: the data its set is built from (None when anything is wrong), and
    every problem."""
    from dlldoctor.kb.lint import check_rule, pattern_cost_of_rule
    from dlldoctor.kb.patterns import MAX_TOTAL_PROGRAM, pattern_cost
    from dlldoctor.kb.yamlsrc import Problem, SourceError, read_source

    root = Path(root)
    if not root.is_dir():
        return None, [Problem(str(root), 0, "not a folder of rules")]
    problems: list[Problem] = []
    display = str(root)

    def where(path: Path) -> str:
        return str(Path(display) / _rel(root, path))

    def read(path: Path) -> Source | None:
        try:
            return read_source(path, root)
        except SourceError as e:
            problems.append(Problem(where(path), e.problem.line, e.problem.message))
            return None

    categories: dict[str, str] = {}
    taxonomy = read(root / "taxonomy.yaml")
    if taxonomy is not None:
        cats = taxonomy.data.get("categories") if isinstance(taxonomy.data, dict) else None
        if not isinstance(cats, dict) or not cats:
            problems.append(Problem(where(taxonomy.path), 1, "expected a `categories:` mapping"))
        else:
            categories = {str(k): str(v) for k, v in cats.items()}
    if not categories:
        return None, problems  # every other check needs the categories: report the cause alone

    # What the set is built from once every check passed (also what `rules compile` writes down).
    parts: dict[str, Any] = {
        "categories": categories,
        "families": None,
        "messages": None,
        "priors": None,
        "releases": None,
        "cues": None,
    }
    families = Families(())
    fam_src = read(root / "data" / "families.yaml")
    if fam_src is not None:
        fam_problems = check_families(fam_src.data, frozenset(categories))
        problems += [Problem(where(fam_src.path), fam_src.line(p), m) for p, m in fam_problems]
        if not fam_problems:
            families = families_from_data(fam_src.data)
            parts["families"] = fam_src.data

    def check_data(name: str, check: Callable[[Any], list[Any]]) -> Path:
        """Check ``data/<name>.yaml`` when it exists; its data becomes ``parts[name]`` when it passes."""
        path = root / "data" / f"{name}.yaml"
        src = read(path) if path.is_file() else None
        if src is not None:
            found = check(src.data)
            problems.extend(Problem(where(src.path), src.line(p), m) for p, m in found)
            if not found:
                parts[name] = src.data
        return path

    msg_path = check_data("messages", check_messages)
    pri_path = check_data("priors", lambda data: check_priors(data, frozenset(categories)))
    rel_path = check_data("releases", check_releases)
    cue_path = check_data("cues", check_cues)
    counted_cues = (parts["priors"] or {}).get("cues") or {}
    # (an invalid cues.yaml has its own problems; a missing one leaves every counted cue unknown)
    if parts["cues"] is not None:
        known_cues = set(parts["cues"]["cues"])
    else:
        known_cues = set(counted_cues) if cue_path.is_file() else set()
    for cue in sorted(set(counted_cues) - known_cues):
        problems.append(
            Problem(
                where(pri_path),
                0,
                f"priors count cue {cue!r}, which cues.yaml does not define (rerun `dlldoctor rules priors`)",
            )
        )
    representatives: dict[str, str] = {}
    ruled_out: dict[str, list[str]] = {}
    cause_path = root / "data" / "causes.yaml"
    if cause_path.is_file():
        cause_src = read(cause_path)
        if cause_src is not None:
            data = cause_src.data.get("representatives") if isinstance(cause_src.data, dict) else None
            if not isinstance(data, dict):
                problems.append(Problem(where(cause_src.path), 1, "expected a `representatives:` mapping"))
            else:
                representatives = {str(k): str(v) for k, v in data.items()}
            table = cause_src.data.get("ruled_out_by", {}) if isinstance(cause_src.data, dict) else {}
            if not isinstance(table, dict) or not all(
                fact in DERIVED_FACTS
                and isinstance(causes, list)
                and all(isinstance(c, str) and c in categories for c in causes)
                for fact, causes in table.items()
            ):
                problems.append(
                    Problem(
                        where(cause_src.path),
                        cause_src.line(["ruled_out_by"]),
                        "`ruled_out_by:` maps derived facts to lists of categories of taxonomy.yaml",
                    )
                )
            else:
                ruled_out = {str(fact): sorted(set(causes)) for fact, causes in table.items()}
    checked = {
        root / "taxonomy.yaml",
        root / "data" / "families.yaml",
        msg_path,
        pri_path,
        cause_path,
        rel_path,
        cue_path,
    }
    for path in _data_files(root):  # the rest of the reference data (windows.yaml): readable YAML
        if path not in checked:
            read(path)

    rule_data: list[tuple[str, Any]] = []
    sources: dict[str, list[tuple[Source, int]]] = {}
    for folder in sorted(
        p for p in root.iterdir() if p.is_dir() and p.name != "data" and not p.name.startswith(".")
    ):
        if categories and folder.name not in categories:
            problems.append(
                Problem(where(folder), 0, f"folder {folder.name!r} is not a category of taxonomy.yaml")
            )
    # The cues are searched in every explained text, like the rules' patterns: they count toward the same cap.
    cost = sum(pattern_cost(item["pattern"]) for item in (parts["cues"] or {"cues": {}})["cues"].values())
    for path in rule_files(root):
        if path.suffix != ".yaml":
            problems.append(Problem(where(path), 0, "rule files end in .yaml"))
            continue
        src = read(path)
        if src is None:
            continue
        found = check_rule(src, categories=frozenset(categories), families=families.ids())
        cost += pattern_cost_of_rule(src.data)
        problems += [Problem(where(path), line, message) for line, message in found]
        if isinstance(src.data, dict) and isinstance(src.data.get("id"), str):
            sources.setdefault(src.data["id"], []).append((src, src.line(["id"])))
        if not found:
            rule_data.append((_rel(root, path), src.data))

    if cost > MAX_TOTAL_PROGRAM:
        problems.append(
            Problem(
                display,
                0,
                f"the rules' and cues' patterns compile to {cost} RE2 instructions together, more than "
                f"{MAX_TOTAL_PROGRAM}: a rule set must stay cheap to load",
            )
        )
    for rule_id, places in sorted(sources.items()):
        if len(places) > 1:
            others = ", ".join(where(s.path) for s, _ in places)
            for src, line in places:
                problems.append(
                    Problem(where(src.path), line, f"duplicate rule id {rule_id!r} (in {others})")
                )
    rules = [rule_from_data(data, rel) for rel, data in rule_data]
    known = {r.id for r in rules} | set(sources)
    by_id = {r.id: r for r in rules}
    for category, rule_id in sorted(representatives.items()):
        rule = by_id.get(rule_id)
        if category not in categories or rule is None or rule.category != category:
            problems.append(
                Problem(
                    where(cause_path),
                    0,
                    f"representatives: {category!r} needs a rule of that category, not {rule_id!r}",
                )
            )
    for rule in rules:
        if rule.replaced_by and rule.replaced_by not in known:
            src = sources[rule.id][0][0]
            problems.append(
                Problem(
                    where(src.path), src.line(["replaced_by"]), f"replaced_by: no rule {rule.replaced_by!r}"
                )
            )

    problems.sort(key=lambda p: (p.path, p.line, p.message))
    if problems:
        return None, problems
    parts.update(representatives=representatives, ruled_out=ruled_out, rules=rule_data)
    return parts, []


def rule_set_from_parts(root: Path, digest: str, parts: dict[str, Any]) -> RuleSet:
    """Build the set from the data of files that passed every check of :func:`lint_rule_set`."""
    categories: dict[str, str] = parts["categories"]
    counted = tuple(c for c in categories if c != "other")
    rules = [rule_from_data(data, rel) for rel, data in parts["rules"]]
    return RuleSet(
        root=str(root),
        digest=digest,
        categories=tuple(categories.items()),
        families=families_from_data(parts["families"]) if parts["families"] is not None else Families(()),
        messages=messages_from_data(parts["messages"]) if parts["messages"] is not None else Messages((), ()),
        rules=tuple(sorted(rules, key=lambda r: r.id)),
        priors=priors_from_data(parts["priors"], counted) if parts["priors"] is not None else Priors(counted),
        representatives=tuple(sorted(parts["representatives"].items())),
        releases=releases_from_data(parts["releases"]) if parts.get("releases") is not None else NO_RELEASES,
        cues=cues_from_data(parts["cues"]) if parts.get("cues") is not None else NO_CUES,
        ruled_out=tuple(sorted((f, frozenset(c)) for f, c in (parts.get("ruled_out") or {}).items())),
    )


# Rule sets being loaded ahead (:func:`load_in_background`), by folder and cache use; each is handed to
# the first :func:`load_rule_set` call that asks for it, which then parses nothing.
_ahead: dict[tuple[str, bool], Future[RuleSet]] = {}


def load_in_background(root: Path | None = None, *, use_cache: bool = True) -> None:
    """Start loading a rule set on a thread of its own, so that it is ready when a scan's PE files are:
    inflating a big wheel member leaves the GIL free most of the time. An error surfaces in the later
    :func:`load_rule_set` call, which loads again."""
    folder = _folder(root)
    future: Future[RuleSet] = Future()

    def work() -> None:
        try:
            future.set_result(_load(folder, content_digest(folder), use_cache))
        except BaseException as e:  # handed to the caller, which loads again and reports it
            future.set_exception(e)

    _ahead[(str(folder), use_cache)] = future
    # Not a daemon: a process that ends early (an error elsewhere) waits for it rather than stopping it
    # inside RE2's C++ code, which aborts the process.
    threading.Thread(target=work, name="dlldoctor-rules").start()


def load_rule_set(root: Path | None = None, *, use_cache: bool = True) -> RuleSet:
    """The valid rule set at ``root`` (the built-in one by default), from the cache when it is current."""
    root = _folder(root)
    if not root.is_dir():
        raise RuleError(f"{root}: not a folder of rules")
    digest = content_digest(root)
    ahead = _ahead.pop((str(root), use_cache), None)
    if ahead is not None and ahead.exception() is None and ahead.result().digest == digest:
        return ahead.result()
    return _load(root, digest, use_cache)


def _folder(root: Path | None) -> Path:
    from dlldoctor.resources import rules_root

    return Path(root) if root is not None else rules_root()


def _load(root: Path, digest: str, use_cache: bool) -> RuleSet:
    if use_cache:
        from dlldoctor.cache import rule_store as rulecache

        cached = rulecache.load(digest)
        if isinstance(cached, RuleSet) and cached.digest == digest:
            return _rooted(cached, root)
    rule_set, problems = _built_in(root, digest) or lint_rule_set(root)
    if rule_set is None:
        shown = "\n  ".join(str(p) for p in problems[:20])
        more = f"\n  … and {len(problems) - 20} more" if len(problems) > 20 else ""
        raise RuleError(
            f"the rule set in {root} is invalid ({len(problems)} problems; "
            f"run `dlldoctor rules lint`):\n  {shown}{more}"
        )
    if use_cache:
        from dlldoctor.cache import rule_store as rulecache

        rulecache.store(digest, rule_set)
    return rule_set


def _rooted(rule_set: RuleSet, root: Path) -> RuleSet:
    if rule_set.root == str(root):
        return rule_set
    from dataclasses import replace

    return replace(rule_set, root=str(root))


def compiled_text(root: Path) -> str:
    """The text of ``compiled.json`` for the set at ``root``; a ``RuleError`` when the set fails lint."""
    import json

    from dlldoctor.kb.compiled import render

    parts, problems = lint_parts(root)
    if parts is None:
        raise RuleError(f"{root}: {len(problems)} problems; run `dlldoctor rules lint`")
    text = render(content_digest(root), parts, _data_values(root))
    # What is read back must build the very set the files build, or the file would change the answers.
    if rule_set_from_parts(root, "", json.loads(text)["parts"]) != rule_set_from_parts(root, "", parts):
        raise RuleError(f"{root}: the rule data does not survive JSON; keep rule files to plain values")
    return text


def _data_values(root: Path) -> dict[str, Any]:
    """Each reference data file parsed, under the hash of its bytes; one JSON cannot hold alike is left
    out (it is then parsed at run time)."""
    import hashlib
    import json

    from dlldoctor.bounded import read_regular
    from dlldoctor.resources import MAX_DATA_FILE, parse_yaml

    out: dict[str, Any] = {}
    for path in sorted((root / "data").glob("*.yaml")):
        raw = read_regular(path, MAX_DATA_FILE, root=root)  # as load_data reads it at run time
        value = parse_yaml(raw.decode("utf-8"))[1]
        if json.loads(json.dumps(value)) == value:
            out[path.stem] = {"sha256": hashlib.sha256(raw).hexdigest(), "value": value}
    return out


def _built_in(root: Path, digest: str) -> tuple[RuleSet, list[Problem]] | None:
    """The built-in set from its compiled file, when that file was written for these very rule files."""
    from dlldoctor.kb.compiled import read_compiled
    from dlldoctor.resources import rules_root

    if root != rules_root():
        return None
    parts = read_compiled(root, digest)
    if parts is None:
        return None
    try:
        return rule_set_from_parts(root, digest, parts), []
    except (KeyError, TypeError, ValueError, AttributeError):  # a damaged file: check the rules instead
        return None
