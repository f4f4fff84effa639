"""The words other code branches on, as types: renaming one is a type error, not a silent change.

Each vocabulary is a ``Literal`` with a tuple of its values beside it (for loops, schemas and tests);
``tests/test_vocabulary.py`` ties the tuples to the rule schema, the engine's registries and the docs.
"""

from __future__ import annotations

from typing import Literal, get_args

# One load operation inside python.exe (dlldoctor.scan.target lays them out).
LoadContext = Literal[
    "extension module",
    "extension module (Python < 3.8)",
    "torch preload",
    "program start",
    "loaded by full path",
]
LOAD_CONTEXTS: tuple[LoadContext, ...] = get_args(LoadContext)

# Where a finding was made: in a load operation, or checking a file that nothing loads.
FindingContext = LoadContext | Literal["file check"]

# The load contexts a rule's probe names (``context:`` in a rule file), and the operations each covers.
RuleContext = Literal["extension", "torch-preload", "loadlibrary", "path"]
RULE_CONTEXTS: dict[RuleContext, tuple[LoadContext, ...]] = {
    "extension": ("extension module",),
    "torch-preload": ("torch preload",),
    "loadlibrary": ("loaded by full path", "program start"),
    "path": ("torch preload", "extension module (Python < 3.8)"),  # with other contexts in a list
}

# Why a folder is searched, as the tree shows it before the folder's own label ("add_dll_directory: …").
SearchKind = Literal[
    "same folder",
    "python.exe folder",
    "System32",
    "PATH",
    "add_dll_directory",
    "conda",
    "loaded by its package",  # a DLL of the same package, taken as loaded before it is needed (Qt plugins)
]
SEARCH_KINDS: tuple[SearchKind, ...] = get_args(SearchKind)

# Where one imported name ends up.
ResolutionStatus = Literal["found", "missing", "wrong-machine", "corrupt"]
RESOLUTION_STATUSES: tuple[ResolutionStatus, ...] = get_args(ResolutionStatus)

FindingKind = Literal["missing-dll", "missing-symbol", "arch-mismatch", "corrupt-file", "delay-load-missing"]
FINDING_KINDS: tuple[FindingKind, ...] = get_args(FindingKind)

# What a doctor run's verdict rests on: the install confirms it, the live probe's failing link, the
# reproduced text alone, or nothing.
ConclusionSource = Literal["scan", "probe", "text", "none"]
CONCLUSION_SOURCES: tuple[ConclusionSource, ...] = get_args(ConclusionSource)

Severity = Literal["error", "warning", "info"]
SEVERITIES: tuple[Severity, ...] = get_args(Severity)
SEVERITY_RANK: dict[Severity, int] = {s: i for i, s in enumerate(SEVERITIES)}  # most severe first

RuleStatus = Literal["experimental", "stable", "deprecated"]
RULE_STATUSES: tuple[RuleStatus, ...] = get_args(RuleStatus)

Prevalence = Literal["common", "occasional", "rare"]
PREVALENCES: tuple[Prevalence, ...] = get_args(Prevalence)

MatcherKind = Literal[
    "code", "family", "dll", "symbol", "module", "text", "python", "package", "env", "location", "derived"
]
MATCHER_KINDS: tuple[MatcherKind, ...] = get_args(MatcherKind)
# Where a DLL named in an error sits (dlldoctor.text.locations), for the `location` matcher.
Location = Literal[
    "system32",
    "store",
    "pyinstaller",
    "embedded",
    "user-site",
    "conda-library-bin",
    "site-packages",
    "target",
    "program-files",
]
LOCATIONS: tuple[Location, ...] = get_args(Location)
# Facts reasoned from two others in the text (dlldoctor.text.derived), for the `derived` matcher:
# an extension module or wheel tagged for another Python than the one that runs; a CUDA DLL of another major
# version than the CUDA the text says is installed, or of the one toolkit it shows installed (then no CUDA version
# mismatch); a package version the text names is a release that rules/data/releases.yaml lists as broken on Windows
# with the symptom the text shows; a text names a DLL but states no failure, nor speaks of DLLs for another reason.
DerivedFact = Literal[
    "abi-tag-differs",
    "cuda-version-agrees",
    "cuda-version-differs",
    "dll-named",
    "env-activated",
    "listed-broken-release",
    "native-program",
    "other-os",
    "python-before-38",
]
DERIVED_FACTS: tuple[DerivedFact, ...] = get_args(DerivedFact)
# What the loader says when a listed broken release is imported (rules/data/releases.yaml), and where.
ReleaseSymptom = Literal["module-not-found", "procedure-not-found", "init-failed", "crash"]
RELEASE_SYMPTOMS: tuple[ReleaseSymptom, ...] = get_args(ReleaseSymptom)
ReleasePlatform = Literal["win_amd64", "win32", "windows"]
RELEASE_PLATFORMS: tuple[ReleasePlatform, ...] = get_args(ReleasePlatform)
# What a diagnosis rests on: the matchers of its rule, and the priors of the differential diagnosis.
EvidenceKind = Literal[MatcherKind, "prior"]
EVIDENCE_KINDS: tuple[str, ...] = (*MATCHER_KINDS, "prior")

ProbeKind = Literal[
    "dll-resolves",
    "symbol-exported",
    "machine-matches",
    "file-intact",
    "mixed-install",
    "duplicate-dll",
    "vcruntime-version",
    "cuda-major",
    "cuda-build",
    "python-abi",
    "environment",
    "path-ascii",
    "driver-version",
]
PROBE_KINDS: tuple[ProbeKind, ...] = get_args(ProbeKind)

# What a probe's answers make of a rule on one install.
Verdict = Literal["confirmed", "refuted", "unknown"]
VERDICTS: tuple[Verdict, ...] = get_args(Verdict)
