"""The Windows console and clipboard, for the CLI: VT colour codes and a paste read from the clipboard.

cmd and PowerShell 5.1 show ANSI colour only once ENABLE_VIRTUAL_TERMINAL_PROCESSING is set on the
console (Windows Terminal sets it itself); the clipboard is read as CF_UNICODETEXT, so that text in any
script arrives whole (PowerShell 5.1 pipes text to a native program in its ``$OutputEncoding``, ASCII by
default, and ``找不到指定的模块`` arrives as ``?????????``).
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

ENABLE_VIRTUAL_TERMINAL_PROCESSING = 0x0004  # SetConsoleMode ("Console Virtual Terminal Sequences")
STD_OUTPUT_HANDLE = -11
CF_UNICODETEXT = 13  # "Standard Clipboard Formats"


def virtual_terminal(stream: TextIO) -> bool:
    """Whether ANSI escapes work on ``stream``'s console, switching VT processing on where needed."""
    if sys.platform != "win32":
        return True
    if stream is not sys.stdout:
        return False
    import ctypes

    k32: Any = getattr(ctypes, "WinDLL")("kernel32", use_last_error=True)  # noqa: B009 (win32 only)
    handle = k32.GetStdHandle(STD_OUTPUT_HANDLE)
    mode = ctypes.c_uint32()
    if not k32.GetConsoleMode(handle, ctypes.byref(mode)):
        return False
    if mode.value & ENABLE_VIRTUAL_TERMINAL_PROCESSING:
        return True
    return bool(k32.SetConsoleMode(handle, mode.value | ENABLE_VIRTUAL_TERMINAL_PROCESSING))


def clipboard_text() -> str | None:
    """The clipboard's Unicode text on Windows; None when it holds no text or this is not Windows."""
    if sys.platform != "win32":
        return None
    import ctypes

    windll: Any = getattr(ctypes, "WinDLL")  # noqa: B009 (win32 only)
    user32, k32 = windll("user32", use_last_error=True), windll("kernel32", use_last_error=True)
    user32.GetClipboardData.restype = ctypes.c_void_p
    k32.GlobalLock.restype = ctypes.c_void_p
    k32.GlobalLock.argtypes = (ctypes.c_void_p,)
    k32.GlobalUnlock.argtypes = (ctypes.c_void_p,)
    if not user32.OpenClipboard(None):
        return None
    try:
        handle = user32.GetClipboardData(CF_UNICODETEXT)
        if not handle:
            return None
        pointer = k32.GlobalLock(handle)
        try:
            return ctypes.wstring_at(pointer) if pointer else None
        finally:
            k32.GlobalUnlock(handle)
    finally:
        user32.CloseClipboard()
