"""Libraries' own words for a native library they could not load: cffi's dlopen, Paddle's third-party libraries, a
binding's "assimp library not found", and the loader's codes as such messages print them ("Error code: 126").

Each is read like a shape of :mod:`dlldoctor.text.shapes` (same kinds, same groups).
"""

from __future__ import annotations

from typing import Any

from dlldoctor.text.shapes import DLL_NAME, PATH, FactPattern, fact_pattern

# A Python exception's head: "ImportError: ", "OSError: ", "pyassimp.errors.AssimpError: ".
_RAISED = r"\b[\w.]*[A-Za-z](?-i:Error|Exception): "
_LIBRARY = r"(?:shared |dynamic |native |c |dll )?librar(?:y|ies)"

# The codes only a failed load gives, as a program prints them after a DLL's name.
_LOADER_CODE = r"(?P<code>126|127|193|1114|1455|4551|14001)"

BINDINGS: tuple[tuple[str, FactPattern, dict[str, Any]], ...] = (
    # cffi's ffi.dlopen (cairocffi, pyvips, soundfile, ...): "cannot load library 'libcairo-2.dll': error 0x7e"
    # (the Windows code in hex), and the names it tried: "no library called \"cairo\" was found",
    # "dlopen() failed to load a library: cairo / cairo-2".
    # (only a .dll's line gives the code: on Windows the .so and .dylib names it also tries always fail with 0x7e)
    (
        "ctypes",
        fact_pattern(
            r"cannot load library '(?P<path>" + PATH + r"\.dll)': error (?P<code>0x[0-9a-f]{1,8}|\d{1,5})"
        ),
        {},
    ),
    (
        "ctypes",
        fact_pattern(r"cannot load library '[^'\r\n]*?\.(?:so|dylib)[.\d]*': error 0x[0-9a-f]{1,8}"),
        {},
    ),
    # ... and a name without its ".dll", as WeasyPrint asks for its libraries ("cannot load library 'pangoft2-1.0-0':
    # error 0x7e": no file of that name, so the DLL it stands for was not found), perhaps in a folder ("cannot load
    # library 'C:\\GTK\\bin\\libcairo-2': error 0x7e"); a name's dotted parts are numbers, never ".so"
    (
        "ctypes",
        fact_pattern(
            r"cannot load library '(?:[A-Za-z]:)?(?:[^'\r\n]*[\\/])?(?P<bare>[A-Za-z][\w+-]*?(?:[.-]\d+)*)': "
            r"error (?P<code>0x[0-9a-f]{1,8}|\d{1,5})"
        ),
        {},
    ),
    # (the first no code of its own: the lines with the names that follow it give the loader's, 0xc1 for a DLL of
    # the other bitness; the older second comes alone)
    ("ctypes", fact_pattern(r"no library called \"[^\"\r\n]{1,80}\" was found"), {}),
    ("ctypes", fact_pattern(r"dlopen\(\) failed to load a library: [^\r\n]{1,200}"), {"code": 126}),
    # Paddle's dynamic loader: "The third-party dynamic library (cudnn64_7.dll) that Paddle depends on is not
    # configured correctly. (error code is 126)", or a list of the names it tried ("(cublas64_112.dll;cublas64_11.dll)")
    (
        "load-library",
        fact_pattern(
            r"third-party dynamic library \((?P<dll>"
            + DLL_NAME
            + r")(?:; ?"
            + DLL_NAME
            + r"){0,5}\) that Paddle depends on is not configured"
            r"(?: correctly\.? ?\(error code is (?P<code>\d{1,5})\))?"
        ),
        {"leaf": True},
    ),
    # cuDNN's loader, its first sentence left out: "Please make sure cudnn_ops_infer64_8.dll is in your library path!";
    # JPype finding no Java VM: "No JVM shared library file (jvm.dll) found"
    (
        "retold",
        fact_pattern(r"\bPlease make sure (?P<dll>" + DLL_NAME + r") is in your library path\b"),
        {},
    ),
    ("retold", fact_pattern(r"\bNo JVM shared library file \((?P<dll>jvm\.dll)\) found\b"), {"code": 126}),
    # a binding that looked for its library by name and found none: "AssimpError: assimp library not found",
    # "ImportError: MagickWand shared library not found.", "ImportError: Couldn't find the FluidSynth library."
    (
        "retold",
        fact_pattern(
            _RAISED
            + r"(?:the )?[\w.+-]{2,40} "
            + _LIBRARY
            + r" (?:was |were |is |are )?not found\b|"
            + _RAISED
            + r"(?:couldn'?t|could not|cannot|can'?t|unable to|failed to) (?:find|locate|load) (?:the )?"
            r"[\w.+-]{2,40} " + _LIBRARY + r"\b"
        ),
        {"code": 126},
    ),
    # libraries' loaders that searched a list of places: XGBoost's "XGBoostLibraryNotFound: Cannot find XGBoost
    # Library in the candidate path" (once "Libarary in the candicate path"), LightGBM's "Cannot find lightgbm
    # library file in following paths" (once "Library in following paths")
    (
        "retold",
        fact_pattern(
            r"\bCannot find [\w.+-]{2,40} Lib(?:r|ar)ary(?: file)? in (?:the )?(?:candidate|candicate|following) paths?\b"
        ),
        {"code": 126},
    ),
    # TorchCodec's loader, which tries its library for each FFmpeg major it supports: "RuntimeError: Could not load
    # libtorchcodec. Likely causes: 1. FFmpeg is not properly installed"
    ("retold", fact_pattern(r"\bCould not load libtorchcodec\b"), {"code": 126}),
    # the loader's code after a DLL's failure, as a program prints it: "Couldn't load xaudio_2.8.dll Error code: 126",
    # "failed to load foo.dll, error code is 193", CasADi's "Cannot open \"./aaa.dll\". Error code (WIN32): 126", a
    # game's ASI loader's "Unable to load NFS_XtendedInput.asi. Error: 126" (an .asi is a DLL renamed). Only the
    # loader's codes (any program has an "error code"), and not make's "x.asi] Error 126".
    (
        "code-mention",
        fact_pattern(
            r"\.dll\b[^\r\n]{0,40}?\berror code(?: \(win32\))?(?: is)?[ \t:=]*" + _LOADER_CODE + r"\b"
        ),
        {},
    ),
    # ... or after "error:" when the code ends the statement ("Failed to load ReShade64.dll - error: 193", not a
    # linker's "foo.dll: error: 127 undefined references"), or an .asi's after "load" (not make's "x.asi] Error 126")
    (
        "code-mention",
        fact_pattern(r"\.dll\b[^\r\n]{0,40}?\berror:[ \t]*" + _LOADER_CODE + r"[ \t]*(?:[.,;)]|\r?(?m:$))"),
        {},
    ),
    (
        "code-mention",
        fact_pattern(
            r"\bload(?:ing)?\b[^\r\n]{0,40}?\.asi\b[^\r\n]{0,40}?\berror(?: code)?[ \t:=]*"
            + _LOADER_CODE
            + r"\b"
        ),
        {},
    ),
    # LuaJIT's ffi.load, which names the library as the script asked for it, without ".dll", before the loader's
    # message: "cannot load module 'libcurl': Das angegebene Modul wurde nicht gefunden." (a name with a dot is
    # Linux's "libcurl.so.4" or macOS's, unless it ends in ".dll"); a LÖVE game's report prints
    # "cannot load module 'steam_api64': specified module not found" instead of Windows' sentence
    (
        "load-library",
        fact_pattern(r"\bcannot load module '(?P<bare>[A-Za-z0-9_+~-][\w+~-]{0,79}(?:\.dll)?)':"),
        {},
    ),
    (
        "code-mention",
        fact_pattern(r"\bcannot load module '[\w+~-]{1,80}(?:\.dll)?': specified module not found\b"),
        {"code": 126},
    ),
    # ... or before the words for a DLL's load: Ipopt's "Error 126 while loading DLL libhsl.dll"
    (
        "code-mention",
        fact_pattern(
            r"\berror (?P<code>126|127|193|1114) (?:while|when) loading (?:the )?(?:DLL|shared library|library)\b"
        ),
        {},
    ),
)
