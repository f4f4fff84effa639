#!/usr/bin/env python3
"""Generate the ``system_dlls`` list of ``rules/data/windows.yaml`` from two machine-readable sources.

The sources:

* mingw-w64's import libraries (Debian: ``gcc-mingw-w64-x86-64`` brings ``mingw-w64-x86-64-dev``):
  every ``lib<name>.a`` under ``/usr/x86_64-w64-mingw32/lib`` names the DLL it imports from, in the
  ``.idata$7`` section of a long-format member or after the symbol of a short import member;
* Wine's PE build of the system DLLs (Debian: ``wine64`` brings ``libwine``), the files of
  ``.../wine/x86_64-windows``.

A name is taken when both sources have it, or when the reviewed additions below list it, minus the
reviewed exclusions below (redistributables, optional features, Wine's own files, programs and
drivers). Names are lower-case and sorted; the KnownDLLs of the same file are not repeated.

The script rewrites only the ``system_dlls`` block (and the comment right above it); every other key
and comment of the file stays as it is. ``--check`` writes nothing and fails when the file differs.
It needs nothing beyond the standard library and PyYAML (a dependency of dlldoctor itself).
"""

from __future__ import annotations

import argparse
import difflib
import re
import shutil
import struct
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
WINDOWS_YAML = ROOT / "rules" / "data" / "windows.yaml"
MINGW_LIB = Path("/usr/x86_64-w64-mingw32/lib")
WINE_DIRS = (
    Path("/usr/lib/x86_64-linux-gnu/wine/x86_64-windows"),  # Debian, Ubuntu
    Path("/usr/lib/wine/x86_64-windows"),
    Path("/usr/lib64/wine/x86_64-windows"),  # Fedora
    Path("/opt/wine-stable/lib/wine/x86_64-windows"),  # WineHQ packages
)

# File kinds a Python extension module can import from; a name of any other kind is left out. The first
# exclusion below names the other kinds the sources carry today, so that the summary shows them.
IMPORTABLE = (".dll", ".drv", ".cpl", ".ocx")

# Reviewed exclusions: (pattern matched against the whole lower-case name, reason): names a stock
# Windows 10/11 x64 System32 does not provide. Some match nothing both sources have today and guard
# against what a newer mingw-w64 or Wine may add; the summary lists those.
EXCLUDED: tuple[tuple[str, str], ...] = (
    (
        r".*\.(exe|sys|com|tlb|acm|ax|ds|msstyles)",
        "programs, kernel drivers, type libraries, codecs and themes: never a DLL import of a module",
    ),
    # Microsoft Visual C++ redistributables, never part of Windows itself.
    (
        r"msvcr\d+.*\.dll",
        "VC++ 2002-2013 C runtimes (msvcr70 ... msvcr120, the _app builds, the debug builds): redistributable",
    ),
    (
        r"msvcp(?!60\.dll|_win\.dll)\d+.*\.dll",
        "VC++ C++ runtimes from 7.0 on (msvcp70 ... msvcp140*, _app builds): redistributable; msvcp60 "
        "and msvcp_win are Windows' own",
    ),
    (
        r"msvcrt(20|40|d)\.dll",
        "msvcrt20/msvcrt40 (VC++ 2.0/4.0 runtimes) and the debug msvcrtd: not in Windows",
    ),
    (r"msvcm\d+.*\.dll", "VC++ managed-code runtimes (msvcm80/90): redistributable"),
    (r"vcruntime.*\.dll", "VC++ 2015-2022 runtime (vcruntime140*): redistributable, see vc_runtime"),
    (r"vcomp.*\.dll", "VC++ OpenMP runtimes (vcomp, vcomp90 ... vcomp140): redistributable"),
    (r"concrt.*\.dll", "VC++ Concurrency Runtime (concrt140): redistributable"),
    (
        r"mfc(?!42u?\.dll).*\.dll",
        "MFC from 7.0 on (mfc70 ... mfc140u, mfcm*): redistributable; mfc42/mfc42u ship in System32",
    ),
    (
        r"atl\d+\.dll",
        "versioned ATL (atl80 ... atl110): redistributable; the unversioned atl.dll is Windows'",
    ),
    (r"ucrtbased\.dll", "debug Universal CRT: installed by the Windows SDK, not by Windows"),
    # The DirectX end-user runtime (June 2010): installed by games and SDKs, not by Windows.
    (r"d3dx(9|10|11)_\d+\.dll", "D3DX helper libraries: DirectX end-user runtime only"),
    (r"d3dx(9|10|11)d_\d+\.dll", "debug D3DX helper libraries: DirectX SDK only"),
    (
        r"d3dcompiler_(3[3-9]|4[0-6])\.dll",
        "HLSL compilers 33-46: DirectX end-user runtime only (d3dcompiler_47 ships with Windows 8.1+)",
    ),
    (r"d3dcsxd?_\d+\.dll", "D3DCSX compute shader helpers: DirectX SDK / end-user runtime only"),
    (r"xinput1_[123]\.dll", "XInput 1.1-1.3: DirectX end-user runtime only (xinput1_4 and xinput9_1_0 ship)"),
    (r"xaudio2_[0-7]\.dll", "XAudio 2.0-2.7: DirectX end-user runtime only (2.8 and 2.9 ship with Windows)"),
    (r"x3daudiod?1_\d+\.dll", "X3DAudio 1.0-1.7: DirectX end-user runtime only"),
    (r"xapofxd?1_\d+\.dll", "XAPOFX 1.0-1.5: DirectX end-user runtime only"),
    (r"xactengine\d_\d+\.dll", "XACT engine: DirectX end-user runtime only"),
    # Windows optional features, off on a stock install.
    (
        r"(dpn\w*|dpvoice|dplay\w*|dpwsockx)\.dll",
        "DirectPlay: the Legacy Components\\DirectPlay optional feature, not enabled by default",
    ),
    # Components whose file is not in System32 on a stock install.
    (
        r"(msado15|oledb32)\.dll",
        "ADO and OLE DB core: installed under Common Files\\System, outside any DLL search folder",
    ),
    (r"cards\.dll", "card-game library of the Windows XP games, gone since Windows Vista"),
    (r"pidgen\.dll", "Windows XP product-ID library; Windows 10/11 carry pidgenx.dll instead"),
    (
        r"(gpkcsp|slbcsp|sccbase)\.dll",
        "third-party smart-card CSPs of Windows XP, replaced by the Base Smart Card CSP since Vista",
    ),
    # Wine's own files and the mingw toolchain's; safety net, neither is in both sources today.
    (r"wine.*", "Wine's own drivers and helpers (winex11.drv, winewayland, wined3d, winemac, ...)"),
    (r".*\.(drv16|dll16|exe16|vxd)", "Wine's 16-bit and VxD modules"),
    (r"(libwinpthread-1|zlib1)\.dll", "toolchain and third-party libraries, not Windows"),
)

# Reviewed additions: (name, reason). Stock DLLs fewer than both sources have; each reason says what the
# DLL is and where it is documented or since when Windows ships it.
ADDITIONS: tuple[tuple[str, str], ...] = (
    ("amsi.dll", "Antimalware Scan Interface (AmsiInitialize: Amsi.dll), Windows 10+"),
    ("atlthunk.dll", "ATL thunk allocator (AtlThunk_AllocateData: Atlthunk.dll), Windows 10+"),
    ("bcryptprimitives.dll", "CNG algorithm primitives loaded by bcrypt.dll, Windows 7+"),
    ("clfsw32.dll", "Common Log File System API (CreateLogFile: Clfsw32.dll)"),
    ("cryptbase.dll", "base cryptography helper loaded by advapi32.dll, Windows 7+"),
    ("cryptxml.dll", "XML digital signature API (CryptXmlOpenToDecode: Cryptxml.dll), Windows 7+"),
    ("cscapi.dll", "Offline Files API (OfflineFilesEnable: CscApi.dll)"),
    ("d3d10_1.dll", "Direct3D 10.1 (D3D10CreateDevice1: D3D10_1.dll), Windows Vista SP1+"),
    ("dbgcore.dll", "minidump writer behind dbghelp's MiniDumpWriteDump, Windows 8.1+"),
    ("dxcore.dll", "DXCore adapter enumeration (DXCoreCreateAdapterFactory: DXCore.dll), Windows 10 1903+"),
    ("gdi32full.dll", "GDI implementation behind gdi32.dll, Windows 10+"),
    ("hbaapi.dll", "Fibre Channel HBA API (HbaGetNumberOfAdapters: Hbaapi.dll)"),
    (
        "icuin.dll",
        "Windows' own ICU (i18n), System32 since Windows 10 1703 (Microsoft Learn: ICU in Windows)",
    ),
    ("icuuc.dll", "Windows' own ICU (common), System32 since Windows 10 1703; Qt 6 Core imports it"),
    ("iscsidsc.dll", "iSCSI discovery API (ReportIScsiTargetsW: Iscsidsc.dll)"),
    ("kernelbase.dll", "host of the Win32 base API that kernel32.dll forwards to, Windows 7+"),
    ("mfc42.dll", "MFC 4.2 (ANSI), shipped in System32 as a component of Windows itself"),
    ("mfc42u.dll", "MFC 4.2 (Unicode), shipped in System32 as a component of Windows itself"),
    (
        "mscoree.dll",
        ".NET runtime shim (CLRCreateInstance: MSCorEE.dll); .NET Framework 4.8 ships with Windows",
    ),
    ("msdelta.dll", "delta compression API (ApplyDeltaW: Msdelta.dll)"),
    ("msvcp_win.dll", "the C++ runtime of Windows' own components, Windows 10+"),
    ("msxml3.dll", "MSXML 3.0, part of Windows"),
    ("msxml6.dll", "MSXML 6.0, part of Windows since Vista"),
    ("ninput.dll", "Interaction Context API (CreateInteractionContext: Ninput.dll), Windows 8+"),
    ("ntmarta.dll", "MARTA provider behind advapi32's GetNamedSecurityInfo/SetNamedSecurityInfo"),
    ("profapi.dll", "user-profile helper loaded by userenv.dll, Windows 7+"),
    ("riched32.dll", "Rich Edit 1.0 (emulated on Rich Edit 2.0+), in System32"),
    ("rtworkq.dll", "real-time work queue API (RtwqStartup: RTWorkQ.dll), Windows 8+"),
    ("txfw32.dll", "TxF log API (TxfLogCreateFileReadContext: Txfw32.dll)"),
    ("uiautomationcore.dll", "UI Automation (UiaHostProviderFromHwnd: UIAutomationCore.dll)"),
    ("webauthn.dll", "Web Authentication API (WebAuthNGetApiVersionNumber: webauthn.dll), Windows 10 1903+"),
    ("webservices.dll", "Windows Web Services API (WsCreateHeap: WebServices.dll), Windows 7+"),
    ("wecapi.dll", "Event Collector API (EcOpenSubscriptionEnum: Wecapi.dll)"),
    ("win32u.dll", "user-mode system-call stubs of win32k, Windows 10+"),
    ("wintypes.dll", "Windows Runtime metadata resolution (RoGetMetaDataFile: WinTypes.dll), Windows 8+"),
    ("wldp.dll", "Windows Lockdown Policy (WldpIsDynamicCodePolicyEnabled: Wldp.dll), Windows 10+"),
    ("wsnmp32.dll", "WinSNMP API (SnmpStartup: Wsnmp32.dll)"),
    ("xaudio2_9.dll", "XAudio 2.9, part of Windows 10+"),
    ("xmllite.dll", "XmlLite (CreateXmlReader: XmlLite.dll)"),
    ("xpsprint.dll", "XPS Print API (StartXpsPrintJob: XpsPrint.dll), Windows 7+"),
)

API_SET_PREFIXES = ("api-ms-", "ext-ms-")  # virtual names: windows.yaml `api_sets` models them
KEY = "system_dlls"


# ----- the mingw-w64 import libraries ---------------------------------------------------------------


def ar_members(data: bytes) -> Iterator[bytes]:
    """The object members of a System V / GNU ``ar`` archive (symbol and name tables skipped)."""
    if not data.startswith(b"!<arch>\n"):
        return
    pos = 8
    while pos + 60 <= len(data):
        header = data[pos : pos + 60]
        if header[58:60] != b"`\n":
            raise ValueError(f"bad ar member header at offset {pos}")
        name = header[:16].rstrip()
        size = int(header[48:58])
        body = data[pos + 60 : pos + 60 + size]
        pos += 60 + size + (size & 1)
        if name not in (b"/", b"//", b"/SYM64/"):
            yield body


def _dll_name(raw: bytes) -> str | None:
    text = raw.split(b"\0", 1)[0]
    if re.fullmatch(rb"[A-Za-z0-9_.+\-]+\.[A-Za-z0-9]+", text) is None:
        return None
    return text.decode("ascii").lower()


def imported_dlls(member: bytes) -> set[str]:
    """The DLL names an import-library member refers to (empty for ordinary objects)."""
    # Short import member: Sig1 0x0000, Sig2 0xFFFF, 20-byte header, then "symbol\0dll\0".
    if member[:4] == b"\0\0\xff\xff" and len(member) >= 20:
        (size_of_data,) = struct.unpack_from("<I", member, 12)
        strings = member[20 : 20 + size_of_data].split(b"\0")
        name = _dll_name(strings[1]) if len(strings) > 1 else None
        return {name} if name else set()
    # Long format: a COFF object; the archive's tail member holds the DLL name in .idata$7.
    if len(member) < 20:
        return set()
    sections, optional_size = struct.unpack_from("<2xH12xH", member, 0)
    names = set()
    for i in range(sections):
        offset = 20 + optional_size + 40 * i
        if offset + 40 > len(member):
            break
        if member[offset : offset + 8].rstrip(b"\0") != b".idata$7":
            continue
        raw_size, raw_pointer = struct.unpack_from("<II", member, offset + 16)
        if raw_size and raw_pointer + raw_size <= len(member):
            name = _dll_name(member[raw_pointer : raw_pointer + raw_size])
            if name:
                names.add(name)
    return names


def mingw_dlls(lib_dir: Path) -> set[str]:
    """Every DLL some ``lib*.a`` in ``lib_dir`` imports from, API sets left out."""
    names: set[str] = set()
    for library in sorted(lib_dir.glob("lib*.a")):
        for member in ar_members(library.read_bytes()):
            names |= imported_dlls(member)
    return {n for n in names if not n.startswith(API_SET_PREFIXES)}


# ----- Wine's system DLLs ----------------------------------------------------------------------------


def wine_dlls(wine_dir: Path) -> set[str]:
    """The file names of Wine's 64-bit PE build of the system."""
    return {p.name.lower() for p in wine_dir.iterdir() if p.is_file()}


def find_wine_dir() -> Path | None:
    return next((d for d in WINE_DIRS if (d / "kernel32.dll").is_file()), None)


def missing_sources(mingw_lib: Path = MINGW_LIB, wine_dir: Path | None = None) -> list[str]:
    """What is not installed, as Debian package hints; empty when both sources are there."""
    missing = []
    if not (mingw_lib / "libkernel32.a").is_file():
        missing.append(
            f"mingw-w64 import libraries in {mingw_lib} (Debian: apt-get install gcc-mingw-w64-x86-64)"
        )
    if wine_dir is None:
        wine_dir = find_wine_dir()
    if wine_dir is None or not (wine_dir / "kernel32.dll").is_file():
        missing.append("Wine's x86_64-windows DLLs (Debian: apt-get install wine64)")
    return missing


def package_of(path: Path) -> str:
    """``package version`` of the Debian package owning ``path``, or the folder when dpkg cannot say."""
    if shutil.which("dpkg-query") is None:
        return str(path.parent)
    owner = subprocess.run(["dpkg-query", "-S", str(path)], capture_output=True, text=True, check=False)
    if owner.returncode != 0:
        return str(path.parent)
    package = owner.stdout.split(":", 1)[0].strip()
    version = subprocess.run(
        ["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, check=False
    ).stdout.strip()
    return f"{package} {version}".strip()


# ----- the decision ----------------------------------------------------------------------------------


@dataclass
class Profile:
    names: list[str]
    mingw: set[str]
    wine: set[str]
    both: set[str]
    excluded: dict[str, list[str]] = field(default_factory=dict)  # reason -> names it removed
    additions_in_both: list[str] = field(default_factory=list)  # additions the sources now agree on


def exclusion_of(name: str) -> str | None:
    return next((reason for pattern, reason in EXCLUDED if re.fullmatch(pattern, name)), None)


def stock_dlls(mingw: set[str], wine: set[str], known_dlls: set[str]) -> Profile:
    both = mingw & wine
    profile = Profile([], mingw, wine, both)
    chosen = set()
    for name in sorted(both):
        reason = exclusion_of(name)
        if reason is not None:
            profile.excluded.setdefault(reason, []).append(name)
        elif name.endswith(IMPORTABLE):
            chosen.add(name)
    for name, _ in ADDITIONS:
        if exclusion_of(name) is not None:
            raise SystemExit(f"{name} is both a reviewed addition and excluded")
        if name in both:
            profile.additions_in_both.append(name)
        chosen.add(name)
    profile.names = sorted(chosen - known_dlls)
    return profile


# ----- windows.yaml ----------------------------------------------------------------------------------


def render(names: list[str], mingw_source: str, wine_source: str) -> str:
    header = (
        "# Present in System32 (SysWOW64 for 32-bit processes) on every Windows 10/11 installation; the\n"
        "# KnownDLLs above are not repeated.\n"
        "# Generated by `python scripts/generate_system_profile.py` (edit its reviewed lists, not this one):\n"
        "# the DLLs named both by mingw-w64's import libraries and by Wine's x86_64-windows build, plus the\n"
        "# script's reviewed additions, minus its reviewed exclusions (redistributables, optional features).\n"
        f"# Sources: {mingw_source}; {wine_source}.\n"
    )
    return header + f"{KEY}:\n" + "".join(f"  - {n}\n" for n in names)


def replace_block(text: str, block: str) -> str:
    """``text`` with the ``system_dlls`` key, its items and the comment right above it replaced."""
    lines = text.splitlines(keepends=True)
    try:
        start = next(i for i, line in enumerate(lines) if line.rstrip() == f"{KEY}:")
    except StopIteration:
        raise SystemExit(f"no top-level '{KEY}:' line to replace") from None
    end = start + 1
    while end < len(lines) and lines[end].startswith("  - "):
        end += 1
    while start > 0 and lines[start - 1].startswith("#"):
        start -= 1
    return "".join(lines[:start]) + block + "".join(lines[end:])


def generate(text: str, mingw_lib: Path, wine_dir: Path) -> tuple[str, Profile]:
    data = yaml.safe_load(text)
    known = {n.lower() for n in data.get("known_dlls") or []}
    profile = stock_dlls(mingw_dlls(mingw_lib), wine_dlls(wine_dir), known)
    overlap = set(profile.names) & {
        n.lower() for n in (data.get("vc_runtime") or []) + (data.get("driver_dlls") or [])
    }
    if overlap:
        raise SystemExit(f"in system_dlls and in vc_runtime/driver_dlls: {sorted(overlap)}")
    block = render(
        profile.names,
        package_of(mingw_lib / "libkernel32.a") + " import libraries",
        package_of(wine_dir / "kernel32.dll") + " DLLs",
    )
    new = replace_block(text, block)
    after = yaml.safe_load(new)
    if {k: v for k, v in after.items() if k != KEY} != {k: v for k, v in data.items() if k != KEY}:
        raise SystemExit("rewriting system_dlls changed another key; the file layout is not understood")
    return new, profile


def summary(profile: Profile, before: list[str]) -> str:
    importable = {n for n in profile.both if n.endswith(IMPORTABLE)}
    out = [
        f"mingw-w64 import libraries name {len(profile.mingw)} DLLs (API sets left out); "
        f"Wine has {len(profile.wine)} files; {len(profile.both)} names in both "
        f"({len(importable)} of an importable kind).",
        f"system_dlls: {len(before)} names before, {len(profile.names)} now "
        f"(+{len(set(profile.names) - set(before))}, -{len(set(before) - set(profile.names))}).",
    ]
    dropped = sorted(set(before) - set(profile.names))
    if dropped:
        out.append("  no longer listed: " + " ".join(dropped))
    for reason, names in profile.excluded.items():
        out.append(f"  excluded {len(names):3d}: {reason}\n      " + " ".join(names))
    unused = [pattern for pattern, reason in EXCLUDED if reason not in profile.excluded]
    if unused:
        out.append("  exclusions that matched nothing this time: " + " ".join(unused))
    if profile.additions_in_both:
        out.append(
            "  additions both sources now have (may leave ADDITIONS): " + " ".join(profile.additions_in_both)
        )
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=WINDOWS_YAML, help="the windows.yaml to rewrite")
    parser.add_argument(
        "--mingw-lib", type=Path, default=MINGW_LIB, help="folder of the lib*.a import libraries"
    )
    parser.add_argument("--wine-dir", type=Path, default=None, help="Wine's x86_64-windows folder")
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 when the file is not current"
    )
    parser.add_argument("--quiet", action="store_true", help="no summary")
    args = parser.parse_args(argv)

    wine_dir = args.wine_dir or find_wine_dir()
    missing = missing_sources(args.mingw_lib, wine_dir)
    if missing or wine_dir is None:
        sys.stderr.write("missing: " + "; ".join(missing) + "\n")
        return 2
    text = args.output.read_text(encoding="utf-8")
    before = [n.lower() for n in yaml.safe_load(text).get(KEY) or []]
    new, profile = generate(text, args.mingw_lib, wine_dir)
    if not args.quiet:
        sys.stdout.write(summary(profile, before))
    if args.check:
        if new == text:
            return 0
        diff = difflib.unified_diff(
            text.splitlines(True), new.splitlines(True), str(args.output), "generated"
        )
        sys.stdout.write("".join(diff))
        return 1
    if new != text:
        args.output.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
