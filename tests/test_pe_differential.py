"""Exact PE facts on real wheels: what the scanner reads equals a full pefile parse of the same bytes.

For every PE file of the sweep (the CI sample, or every wheel with DLLDOCTOR_SWEEP=full), the facts the
scanner builds from its compact image — imports with their names and ordinals, delay imports, exports,
forwarders, machine — must equal pefile's parse of the whole file with its limits raised. Any difference
fails, with the file and what differs.
"""

from __future__ import annotations

import io
import zipfile

import pytest
import sweep

from dlldoctor.cache.pe_facts import Catalog
from dlldoctor.install.sources import WheelSource, open_target
from dlldoctor.pe import pefile_backend
from dlldoctor.pe.compact import read_compact
from dlldoctor.pe.layout import DefectError
from dlldoctor.pe.model import PEImage

pytestmark = pytest.mark.wheels


def comparable(image: PEImage) -> dict[str, object]:
    return {
        "machine": image.machine,
        "is_dll": image.is_dll,
        "imports": image.imports,
        "delay_imports": image.delay_imports,
        "export_name": image.export_name,
        "exports": image.exports,
        "export_ordinals": image.export_ordinals,
        "forwarders": image.forwarders,
    }


def differences(ours: PEImage, oracle: PEImage) -> list[str]:
    mine, theirs = comparable(ours), comparable(oracle)
    return [key for key in mine if mine[key] != theirs[key]]


@pytest.mark.parametrize("wheel", sweep.sample(), ids=lambda w: w.spec)
def test_scanner_facts_equal_a_full_parse(wheel: sweep.SweepWheel) -> None:
    path = sweep.fetch(wheel)
    source = open_target(str(path))
    assert isinstance(source, WheelSource)
    wrong = []
    with Catalog(None) as catalog, zipfile.ZipFile(path) as archive:
        for entry in source.entries():
            ours = catalog.facts(entry)
            data = archive.read(entry.relpath)
            try:
                oracle = pefile_backend.facts_of_whole_file(data)
            except Exception as e:  # a file pefile cannot read either must be a defect for us too
                if not isinstance(ours, DefectError):
                    wrong.append(f"{entry.relpath}: pefile fails ({e}), dlldoctor reads it")
                continue
            if isinstance(ours, DefectError):
                wrong.append(f"{entry.relpath}: dlldoctor reports {ours.defect}, pefile reads it")
                continue
            diff = differences(ours, oracle)
            if diff:
                wrong.append(f"{entry.relpath}: {', '.join(diff)} differ")
    assert wrong == []


def test_names_in_a_section_before_the_import_table_need_a_second_pass() -> None:
    """scipy's mingw-built modules, repaired by delvewheel, keep the renamed OpenBLAS name in .data, which
    comes before .idata: read once without a way to start again, the file is refused, never misread."""
    wheel = next(w for w in sweep.wheels() if w.name == "scipy")
    path = sweep.fetch(wheel)
    member = "scipy/integrate/_odepack.cp311-win_amd64.pyd"
    with zipfile.ZipFile(path) as archive:
        data = archive.read(member)
    with pytest.raises(DefectError, match="point into sections read before them"):
        read_compact(io.BytesIO(data), len(data))
    layout, image = read_compact(io.BytesIO(data), len(data), reopen=lambda: io.BytesIO(data))
    facts = pefile_backend.facts(image, layout, len(data))
    assert any(i.dll.startswith("libscipy_openblas-") for i in facts.imports)
    assert facts.imports == pefile_backend.facts_of_whole_file(data).imports
