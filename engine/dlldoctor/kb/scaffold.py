"""`dlldoctor rules new`: a rule skeleton that passes the schema, to be filled in."""

from __future__ import annotations

import re
from pathlib import Path

from dlldoctor.errors import InputError
from dlldoctor.kb.yamlsrc import SourceError, read_source

SKELETON = """\
# {id}: see CONTRIBUTING.md. Replace every TODO, then run:
#   dlldoctor rules lint && dlldoctor rules test {id}
id: {id}
category: {category}
status: experimental
severity: error
prevalence: occasional          # common | occasional | rare: breaks ties between rules
title:
  en: TODO one line saying what is wrong
  zh: TODO 一句话说明问题
summary:
  en: >-
    TODO why it happens and how to recognise it.
  zh: >-
    TODO 为什么会发生，如何识别。
keywords: []                    # extra words for `dlldoctor search`, any language
match:
  all:                          # every one must match
    - code: [126]               # Windows error code (also recognised from the localized message alone)
  any:                          # each adds its weight; at least one must match (or `min_any` weight)
    - family: vc-runtime        # a DLL family of rules/data/families.yaml named in the error
    - text: 'TODO an RE2 pattern that only this cause produces'
  none:                         # any of these vetoes the rule
    - text: 'OMP: Error #15'
probes:                         # checks on an installed environment that confirm the cause
  - probe: dll-resolves
    family: vc-runtime
    expect: false
fixes:
  - en: TODO first step
    zh: TODO 第一步
    commands:
      powershell: TODO exact command
references:
  - https://TODO.example/link-to-an-issue-or-documentation
examples:
  match:                        # real error texts (keep the source in a comment); at least 2
    - |
      TODO a real error text on which this rule must fire
    - |
      TODO another one
  no_match:                     # near misses on which it must not fire; at least 1
    - |
      TODO a similar text with another cause
  todo_match: []                # known gaps: reported, not failing
"""


def installed_copy(root: Path) -> bool:
    """True for a rule set inside an installed package (site-packages), where edits are lost on upgrade."""
    resolved = Path(root).resolve()
    parts = {part.lower() for part in resolved.parts}
    packaged = resolved.parent.name == "dlldoctor" and (resolved.parent / "__init__.py").is_file()
    return packaged or bool(parts & {"site-packages", "dist-packages"})


def write_skeleton(root: Path, rule_id: str, category: str, *, explicit: bool = False) -> Path:
    """``explicit``: the user named the folder (--rules); else it is the built-in set. Either way, never
    into an installed copy."""
    where = "the rule set installed with dlldoctor" if not explicit else "inside an installed package"
    if installed_copy(root):
        raise InputError(
            f"{root} is {where}: a rule written there is lost on the next "
            "upgrade and reaches nobody else. Write it in a checkout: git clone "
            "https://github.com/dlldoctor/dlldoctor && cd dlldoctor && pip install -e . && "
            f"dlldoctor rules new {rule_id} --category {category} --rules rules"
        )
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule_id):
        raise InputError(
            f"rule id {rule_id!r}: use lower-case words joined by '-', e.g. vcruntime-dll-not-found"
        )
    try:
        taxonomy = read_source(Path(root) / "taxonomy.yaml").data
    except SourceError as e:
        raise InputError(str(e)) from e
    categories = taxonomy.get("categories", {}) if isinstance(taxonomy, dict) else {}
    if category not in categories:
        raise InputError(f"unknown category {category!r}; one of: {', '.join(categories)}")
    existing = sorted(Path(root).glob(f"*/{rule_id}.yaml"))
    if existing:
        raise InputError(f"rule {rule_id!r} already exists: {existing[0]}")
    path = Path(root) / category / f"{rule_id}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SKELETON.format(id=rule_id, category=category), encoding="utf-8")
    return path
