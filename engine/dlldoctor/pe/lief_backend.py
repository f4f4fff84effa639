"""PE facts through lief, the primary parser."""

from __future__ import annotations

from typing import Any

from dlldoctor.errors import PEFormatError
from dlldoctor.pe.exports import read_exports
from dlldoctor.pe.layout import Layout
from dlldoctor.pe.model import Import, PEImage, base_facts

_config: Any = None


def _parser_config() -> Any:
    global _config
    if _config is None:
        import lief

        lief.logging.disable()
        config = lief.PE.ParserConfig()
        config.parse_reloc = False
        config.parse_signature = False
        config.parse_exceptions = False
        config.parse_rsrc = True  # VS_VERSIONINFO
        config.parse_imports = True
        config.parse_exports = False  # read by pe_exports
        if hasattr(config, "parse_arm64x_binary"):
            config.parse_arm64x_binary = False
        _config = config
    return _config


def _imports(entries: Any, delayed: bool) -> tuple[Import, ...]:
    result = []
    for lib in entries:
        names, ordinals = [], []
        for entry in lib.entries:
            if entry.is_ordinal:
                ordinals.append(int(entry.ordinal))
            elif entry.name:
                names.append(str(entry.name))
        result.append(Import(str(lib.name), tuple(names), tuple(ordinals), delayed))
    return tuple(result)


def _version(binary: Any) -> tuple[str | None, str | None]:
    if not binary.has_resources:
        return None, None
    try:
        versions = binary.resources_manager.version
    except Exception:  # lief raises its own types on odd resource trees; the version is optional
        return None, None
    for version in versions or ():
        fixed = version.file_info
        file_version = None
        if fixed is not None and (fixed.file_version_ms or fixed.file_version_ls):
            ms, ls = fixed.file_version_ms, fixed.file_version_ls
            file_version = f"{ms >> 16}.{ms & 0xFFFF}.{ls >> 16}.{ls & 0xFFFF}"
        product = None
        info = version.string_file_info
        if info is not None:
            for table in info.children:
                for entry in table.entries:
                    if entry.key == "ProductName" and entry.value:
                        product = str(entry.value).strip("\0 ")
        return file_version, product
    return None, None


def facts(image: bytes, layout: Layout, size: int) -> PEImage:
    import lief

    binary = lief.PE.parse(image, _parser_config())
    if binary is None:
        raise PEFormatError("lief could not parse the file")
    # The export table is read from the bytes directly (pe_exports): lief's per-entry objects cost
    # more than the whole parse for torch_cpu.dll's 59,776 names.
    exports = read_exports(image)
    flags = 0
    if binary.has_configuration:
        flags = int(getattr(binary.load_configuration, "dependent_load_flags", 0) or 0)
    file_version, product = _version(binary)
    base = base_facts(layout)
    if base["machine"] == "x64" and getattr(binary, "is_arm64ec", False):
        base["machine"] = "arm64ec"
    return PEImage(
        size=size,
        imports=_imports(binary.imports, False),
        delay_imports=_imports(binary.delay_imports, True),
        export_name=exports.dll_name,
        exports=exports.names,
        export_ordinals=exports.ordinals,
        forwarders=exports.forwarders,
        file_version=file_version,
        product_name=product,
        dependent_load_flags=flags,
        parser="lief",
        **base,  # type: ignore[arg-type]
    )
