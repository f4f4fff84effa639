"""The one interface to a Windows machine: what ``doctor`` and the collector may ask of it.

The real implementation is :class:`dlldoctor.platform.collect.Win32`; tests pass a fake Windows built
from real DLLs with the same methods. A child step (``interpreter``, ``reproduce``, ``probe``) runs in a
new process of the target interpreter, so that a crash or a pop-up there never reaches dlldoctor.
"""

from __future__ import annotations

import sys
from typing import Protocol


class WindowsApi(Protocol):
    def registry_value(self, key: str, name: str) -> object:
        """A value under HKEY_LOCAL_MACHINE, or None."""

    def registry_values(self, key: str) -> dict[str, object]:
        """Every value of a key under HKEY_LOCAL_MACHINE."""

    def suppress_error_popups(self) -> None:
        """SetErrorMode / SetThreadErrorMode: a failed load returns an error, never shows a dialog."""

    def add_dll_directory(self, folder: str) -> None:
        """AddDllDirectory, as os.add_dll_directory calls it."""

    def prepend_path(self, folders: list[str]) -> None:
        """Put folders at the front of this process's PATH (torch's fallback after error 126)."""

    def load_library(self, path: str, flags: int) -> tuple[int, int]:
        """LoadLibraryExW: (module handle or 0, GetLastError)."""

    def module_file_name(self, handle: int) -> str:
        """GetModuleFileNameW: the file that bound."""

    def exports(self, handle: int, name: str) -> bool:
        """GetProcAddress: whether the module provides ``name``."""

    def file_version(self, path: str) -> str | None:
        """The FileVersion of a file's VS_VERSIONINFO resource."""

    def console_code_page(self) -> int | None: ...

    def system_dir(self) -> str: ...

    def environ(self) -> dict[str, str]: ...

    def run_child(self, python: str, step: str, payload: dict[str, object]) -> dict[str, object]:
        """Run one collector step in a new process of ``python``."""


def live_api() -> WindowsApi | None:
    """The machine dlldoctor runs on, when it is Windows; None elsewhere."""
    if sys.platform != "win32":
        return None
    from dlldoctor.platform.collect import Win32

    return Win32()
