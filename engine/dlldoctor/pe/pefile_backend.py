"""PE facts through pefile: the pure-Python fallback, and the independent oracle in tests.

pefile stops reading an export table at ``max_symbol_exports`` (8,192 by default) without saying so;
torch_cpu.dll exports 59,776 names, so the limit is raised far past any real table.
"""

from __future__ import annotations

from typing import Any

from dlldoctor.errors import PEFormatError
from dlldoctor.pe.layout import NEEDED_DIRECTORIES, Layout, read_layout
from dlldoctor.pe.model import Import, PEImage, base_facts

MAX_EXPORTS = 1 << 22
# pefile also cuts symbol names at 512 characters and import lists at 8,192 entries, silently; C++
# names in torch DLLs run past 1,000 characters. These are module-level limits in pefile.
_LIMITS = {
    "MAX_SYMBOL_NAME_LENGTH": 1 << 16,
    "MAX_IMPORT_NAME_LENGTH": 1 << 16,
    "MAX_DLL_LENGTH": 1 << 12,
    "MAX_IMPORT_SYMBOLS": 1 << 22,
    "MAX_SYMBOL_EXPORT_COUNT": MAX_EXPORTS,
}


def _pefile() -> Any:
    import pefile

    for name, value in _LIMITS.items():
        if getattr(pefile, name, value) < value:
            setattr(pefile, name, value)
    return pefile


def _text(value: Any) -> str:
    return value.decode("ascii", "replace") if isinstance(value, bytes) else str(value)


def _imports(entries: Any, delayed: bool) -> tuple[Import, ...]:
    result = []
    for lib in entries or ():
        names, ordinals = [], []
        for entry in lib.imports:
            if entry.import_by_ordinal:
                ordinals.append(int(entry.ordinal))
            elif entry.name:
                names.append(_text(entry.name))
        result.append(Import(_text(lib.dll), tuple(names), tuple(ordinals), delayed))
    return tuple(result)


def _version(pe: Any) -> tuple[str | None, str | None]:
    file_version = product = None
    for fixed in getattr(pe, "VS_FIXEDFILEINFO", None) or ():
        ms, ls = fixed.FileVersionMS, fixed.FileVersionLS
        if ms or ls:
            file_version = f"{ms >> 16}.{ms & 0xFFFF}.{ls >> 16}.{ls & 0xFFFF}"
        break
    for info in getattr(pe, "FileInfo", None) or ():
        for block in info:
            for table in getattr(block, "StringTable", ()):
                value = table.entries.get(b"ProductName")
                if value:
                    product = _text(value).strip("\0 ")
    return file_version, product


def facts(image: bytes, layout: Layout, size: int) -> PEImage:
    pefile = _pefile()
    try:
        pe = pefile.PE(data=image, fast_load=True, max_symbol_exports=MAX_EXPORTS)
        pe.parse_data_directories(directories=list(NEEDED_DIRECTORIES))
    except pefile.PEFormatError as e:
        raise PEFormatError(f"pefile: {e}") from e
    names: set[str] = set()
    ordinals: set[int] = set()
    forwarders = []
    export_name = None
    directory = getattr(pe, "DIRECTORY_ENTRY_EXPORT", None)
    if directory is not None:
        export_name = _text(directory.name) if directory.name else None
        for symbol in directory.symbols:
            ordinals.add(int(symbol.ordinal))
            key = _text(symbol.name) if symbol.name else f"#{symbol.ordinal}"
            if symbol.name:
                names.add(key)
            if symbol.forwarder:
                forwarders.append((key, _text(symbol.forwarder)))
    flags = 0
    config = getattr(pe, "DIRECTORY_ENTRY_LOAD_CONFIG", None)
    if config is not None:
        flags = int(getattr(config.struct, "DependentLoadFlags", 0) or 0)
    file_version, product = _version(pe)
    return PEImage(
        size=size,
        imports=_imports(getattr(pe, "DIRECTORY_ENTRY_IMPORT", None), False),
        delay_imports=_imports(getattr(pe, "DIRECTORY_ENTRY_DELAY_IMPORT", None), True),
        export_name=export_name,
        exports=frozenset(names),
        export_ordinals=frozenset(ordinals),
        forwarders=tuple(sorted(forwarders)),
        file_version=file_version,
        product_name=product,
        dependent_load_flags=flags,
        parser="pefile",
        **base_facts(layout),  # type: ignore[arg-type]
    )


def facts_of_whole_file(data: bytes) -> PEImage:
    """Parse a complete file, not a compact image: the oracle the tests hold lief's results against."""
    layout = read_layout(data[:4096], len(data))
    return facts(data, layout, len(data))
