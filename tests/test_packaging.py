"""Package metadata a package index shows: the licence file, URLs, classifiers, keywords, and a README
whose links work off the repository (absolute) and whose example output is the real one."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]
REPOSITORY = "https://github.com/dlldoctor/dlldoctor"


def test_license_file_matches_the_declared_licence() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == {"text": "MIT"}
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Permission is hereby granted, free of charge" in text
    assert "License :: OSI Approved :: MIT License" in project["classifiers"]


def test_urls_classifiers_and_keywords() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["urls"]["Homepage"] == REPOSITORY
    assert all(url.startswith(REPOSITORY) for url in project["urls"].values())
    assert "Operating System :: Microsoft :: Windows" in project["classifiers"]
    assert {"windows", "dll", "wheel"} <= set(project["keywords"])
    from dlldoctor import REPOSITORY as code_repository

    assert code_repository == REPOSITORY


def test_readme_links_are_absolute() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)]+)\)", text)
    assert links
    relative = [link for link in links if not link.startswith(("https://", "http://", "#"))]
    assert relative == []
    for link in links:
        if link.startswith((f"{REPOSITORY}/blob/main/", f"{REPOSITORY}/tree/main/")):
            path = link.split("/main/", 1)[1].split("#", 1)[0]
            assert (ROOT / path).exists(), link


def test_readme_says_the_example_exits_1_and_shows_its_real_first_line() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### Exit status 1 after the example is expected", 1)[1].split("\n## ", 1)[0]
    shown = re.search(r"```text\n(.+?)\n```", section, re.S)
    assert shown
    done = subprocess.run(
        [sys.executable, "-m", "dlldoctor", "scan", "corpus/examples/site-packages", "--python", "3.11"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == shown.group(1)
