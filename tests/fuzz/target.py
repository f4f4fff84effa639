"""The fuzz target: the PE path (compact reader, lief, pefile) and the text path (extract_facts).

Run as a program under atheris (coverage-guided, libFuzzer's engine)::

    python tests/fuzz/target.py -runs=1000000 -seed=1 -max_len=65536 tests/fuzz/seeds

An input that starts with ``MZ`` goes to the PE path, anything else to the text path. The only failure
allowed on the PE path is a :class:`~dlldoctor.pe.layout.DefectError` (a finding); the text path must
never raise. Anything else is a crash: libFuzzer writes the input to ``crash-<sha1>``, and it belongs in
``tests/fuzz/crashers/`` (tests/test_fuzz.py replays every file there).
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterator
from typing import Any


def _load() -> tuple[Any, Any, Any, Any]:
    from dlldoctor.kb.ruleset import load_rule_set
    from dlldoctor.pe.layout import DefectError
    from dlldoctor.pe.read import read_pe
    from dlldoctor.text.facts import extract_facts

    rules = load_rule_set(use_cache=False)
    return read_pe, DefectError, extract_facts, rules


_STATE: tuple[Any, Any, Any, Any] | None = None


def one_input(data: bytes) -> None:
    """Run one input through the path it belongs to; raise on anything that is not a finding."""
    global _STATE
    if _STATE is None:
        _STATE = _load()
    read_pe, defect_error, extract_facts, rules = _STATE
    if data.startswith(b"MZ"):

        @contextlib.contextmanager
        def reopen() -> Iterator[io.BytesIO]:
            yield io.BytesIO(data)

        with contextlib.suppress(defect_error):
            read_pe(io.BytesIO(data), len(data), reopen=reopen)
        return
    text = data.decode("utf-8", "replace")
    extract_facts(text, messages=rules.messages, families=rules.families)


def main(argv: list[str]) -> None:
    import atheris

    with atheris.instrument_imports(include=["dlldoctor"]):
        import dlldoctor.pe.read
        import dlldoctor.text.facts  # noqa: F401
    atheris.Setup(argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
