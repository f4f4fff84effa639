"""A failed load spoken of in general words, when the text holds no statement of one: "Missing DLL in Windows
build", "numpy.pyd not loading", "libgio-2.0-0.dll caught in antivirus", "缺少dll文件"; a title or a line or two
that says an import failed on Windows; a traceback pasted only down to the frame that loads a native library
(``_imp.create_dynamic``, ``self._handle = _dlopen(...)``, ``swig_import_helper``), its error cut off.

Each is an event of kind ``topic``, the weakest loader error there is: it is only read from a text in which no
other shape was found, and it says no more than that some native library did not load. It lets the
differential name the causes that most often explain such a report instead of saying nothing.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any

from dlldoctor.kb.patterns import compile_pattern
from dlldoctor.text.prose import PROSE_OVER, PROSE_QUESTION
from dlldoctor.text.shapes import DLL_NAME, ScannedText, fact_pattern

# A DLL named with words that say it did not load: "cudnn64_8.dll missing", "python39.dll not found",
# "missing MSVCR100.dll", "failed to load libzmq.dll", "缺少 xxx.dll". The words must be close to the name.
_AFTER_NAME = (
    r"(?:(?:is |was |are )?missing|not found|could not be (?:found|loaded)|cannot be (?:found|loaded)|"
    r"(?:does not|doesn't|doesnt) (?:exist|exsit)|(?:is|was|are|were) ?(?:not|n't) present|"
    r"(?:fails|failed) to load|not loading|(?:was |got |is )?(?:quarantined|caught) "
    r"(?:by|in) (?:the |an? |my )?(?:anti-?virus|av|defender)|not (?:in|on) (?:my|your|this|the) (?:pc|computer|machine)|"
    r"找不到|缺少|缺失|丢失|无法加载|加载失败|見つかりません|が見つから|が不足|がありません|が存在しません|отсутс?т?вует)"
)
_BEFORE_NAME = (
    r"(?:missing|(?:can't|cant|cannot|could not|couldn't|unable to|fail(?:s|ed)? to|impossible to) (?:find|load|locate)|"
    r"error loading|\bnot found:?|\bdll ?not ?found ?exception|(?:doesn't|does not|don't|do not) have|error \(|"
    r"no (?:se )?encuentra(?: la librería| el archivo| la biblioteca)?|não (?:foi )?encontrad[oa]|"
    r"introuvable|nicht gefunden|не найден[аоы]?|отсутс?т?вует|(?:ругается|жалуется|ругалась|жаловалась|ругался|жаловался) на отсутствие|缺少|丢失|找不到|没有找到|无法(?:加载|找到)|加载失败|"
    r"無法(?:加載|載入|找到)|載入失敗)"
)
# The same in Portuguese, Italian, Polish, Turkish, Ukrainian, Dutch, Czech, Vietnamese and Indonesian, only right
# next to the name (their words also say "no threat found in x.dll", "x.dll: virus not found"): after it, at a
# sentence's end ...
_AFTER_NAME_TIGHT = (
    r"(?:non (?:è|e'|é) stat[oa] trovat[oa]|non trovat[oa]|non è presente|"
    r"nie (?:został[oa]? )?(?:znalezion[oy]|odnalezion[oy])|bulunamad(?:ı|i|ığı(?:ndan)?)|eksik|не знайдено|відсутній|"
    r"niet gevonden|ontbreekt|nebyl[ao]? nalezen[ao]?|chybí|không tìm thấy|tidak ditemukan)"
    # ... or before where it was looked for, or the word for the error: "non trovato nel sistema", "bulunamadı hatası"
    r"(?:[ \t]+(?:nel (?:sistema|computer|pc)|w systemie|na (?:komputerze|pc)|op (?:mijn|de|uw|deze) (?:pc|computer)|"
    r"v počítači|trên máy(?: tính)?|saat [^\s.,;!]+(?: [^\s.,;!]+)?|di (?:komputer|pc)|hatası[^\s.,;!]*(?: [^\s.,;!]+)?|"
    r"sistemde|в системі|"
    r"devam edemiyor))?"
    r"[ \t]*(?:[.!,;)\]]|\r?(?m:$))"
)
# ... or right before it
_BEFORE_NAME_TIGHT = (
    r"(?:não (?:se )?encontr(?:a|ou)(?: o arquivo| a biblioteca)?|impossibile (?:trovare|caricare)(?: il file)?|"
    r"nie (?:można|udało się) (?:odnaleźć|znaleźć|załadować)(?: pliku)?|brak pliku|nie (?:znaleziono|odnaleziono)|"
    r"не вдається (?:знайти|завантажити)|kan (?:het bestand )?niet (?:vinden|laden)|nelze (?:najít|načíst)|"
    r"không tìm thấy|tidak dapat (?:menemukan|memuat)|"
    # ... and, in English, an error with it ("Error with MSVCP140.dll"; not a crash, an issue or a problem with it,
    # which are as often a DLL that loaded and then failed)
    r"\berrors? (?:with|about|regarding)(?: the)?)[ \t]*:?[ \t]*[\"'`]?"
)
_NAMED = fact_pattern(
    r"(?:(?P<dll>"
    + DLL_NAME
    + r")\b[^\r\n]{0,30}?"
    + _AFTER_NAME
    + r"|"
    + _BEFORE_NAME
    + r"[^\r\n]{0,30}?(?P<dll2>"
    + DLL_NAME
    + r")\b|"
    # a title that is the word and the DLL alone: "Error api-ms-win-crt-runtime-l1-1-0.dll", "ERR0R x.dll" (not
    # "Error x.dll: checksum mismatch", a stack frame "ntdll.dll!Rtl...")
    + r"(?m:^)[ \t#*]*err(?:or|0r)[:!]?[ \t]+(?P<dll3>"
    + DLL_NAME
    + r")[ \t]*[.:!]?[ \t]*\r?(?m:$)|(?P<dll4>"
    + DLL_NAME
    + r")[\"'`]?[ \t]*[:-]?[ \t]*"
    + _AFTER_NAME_TIGHT
    + r"|"
    + _BEFORE_NAME_TIGHT
    + r"(?P<dll5>"
    + DLL_NAME
    + r")\b|"
    # a program that asks for the DLL, the name ending the sentence or a clause ("minetest asks for OpenAL32.dll", "it
    # keeps asking for d3dx9_43.dll", "asks for x.dll and then closes"; not "asks for x.dll to be bundled", "asks for the
    # x.dll version", nor someone who "asked for" it)
    + r"\b(?:asks|askes|asking) for(?: the(?: file)?| a)?[ \t]+[\"'`]?(?P<dll6>"
    + DLL_NAME
    + r")[\"'`]?[ \t]*(?:[.!,;)\]]|\r?(?m:$)|\s(?:and|which|but|then|when)\b)|"
    # an issue or a problem with the DLL when the DLL ends the line ("Issue with GDI32.dll", "... start massive
    # problems with msvcp140.dll"; not "Problems with d3d11.dll: the screen flickers", "issues with the x.dll version")
    + r"\b(?:issues?|problems?) (?:with|about|regarding)(?: the)?[ \t]+[\"'`]?(?P<dll7>"
    + DLL_NAME
    + r")[\"'`]?[ \t]*[.!]?[ \t]*\r?(?m:$))"
)
# DLLs at all: "Missing DLL in Windows build", "missing ucrt dlls", "DLLs not found", "Dll was not found", "PDO dll's
# not loading", "缺少dll文件", "找不到动态链接库".
_FAMILY_WORD = (
    r"(?:ucrt|crt|vc\+\+|vc|msvc|visual c\+\+|c\+\+|runtime|qt|cuda|cudnn|system|python|mingw|gcc|opencv|directx|"
    r"openmp|ffmpeg|gtk|boost|openssl|sdl2?|openal|d3d\w*|vulkan|steam|game|required|needed|several|multiple|many|"
    r"two|three|\d+) "
)
_GENERAL = fact_pattern(
    r"\bmissing (?:a |the |some )?(?:"
    + _FAMILY_WORD
    + r")?\.?dlls?\b|(?:^|[^\w.])dll(?:'?s)? (?:is |are |was |were )?(?:missing|not found|not loading)\b|"
    r"(?:^|[^\w.])dll(?:'?s)? (?:could ?n'?t|could not|can'?t|cannot|fail(?:s|ed)? to|won'?t) (?:be )?"
    r"(?:found|load(?:ed)?)\b|"
    r"(?:^|[^\w.])dll[- ]?files? (?:could ?n'?t|could not|can'?t|cannot|was not|wasn'?t) (?:be )?found"
    r"[ \t]*(?:[.!,;)]|\r?(?m:$))|"
    r"(?:缺少|缺失|丢失|找不到)\s*(?:(?:以下|如下|下列|下面的?)\s*)?(?:dlls?\b|动态链接库|動態連結程式庫)|(?:^|[^\w.])dlls?(?:文件)?\s*(?:都)?(?:找不到|缺失|丢失)"
)
# Texts that speak of DLLs for another reason, anywhere in them: an installer's or a linker's error, a file
# lock, a build log, Python's own import errors, a request for a feature, a problem said to be solved.
_NOT_A_LOAD = (
    r"could not install|uninstall|being used by another process|cannot open file|unresolved external|"
    r"\bLNK\d{4}\b|no module named|cannot import name|circular import|has no attribute|"
    r"partially initiali[sz]ed module|building wheel|failed building|setup\.py|for writing|"
    r"\bno missing\b|without (?:any )?(?:errors?|problems?)|feature request|\b(?:fixed|solved|resolved)\b|"
    r"works now|now it works|false positive|dependency walker|dumpbin|dll-files|\bcheck(?:s|ing)? for\b|"
    r"\bsymbols\b|检查|下载(?:地址|链接|站|网站)|dll下载|免费下载|\bfaq\b|\bguide\b|tutorial|解决了|已解决|解決了|"
    r"http 40[34]|40[34] (?:not found|forbidden)|error 40[34]|download link|\bwebsite\b|"
    r"missing (?:[\w+-]{2,12} )?dlls? (?:version|info|detection|feature|check|report|list|warning)|"
    # an optional file that a program goes on without
    r"\boptional\b|opzional[ei]|opcjonaln|isteğe bağlı|\bskipping\b|ignorat[oa]\b|pomijam|"
    # a scan's or a cache's look-up in other languages: "brak pliku x.dll w kwarantannie", "não encontrou ... na
    # quarentena, tudo certo", "nella cache", "trong danh sách đen", "di daftar virus"
    r"kwarantann|quarentena|quarantena|karantina|cách ly|danh sách|daftar virus|nella cache|\bskanowanie\b|"
    r"\bpemindaian\b|\bquét\b|tudo certo"
)

# Frames of a traceback that load a native library: CPython's extension loader (3.5+ and imp), ctypes, cffi,
# SWIG's and TensorFlow's import helpers, torch's DLL preloading.
_NATIVE_FRAME = fact_pattern(
    r"_imp\.create_dynamic|\bin create_module\b|\bimp\.load_dynamic\(|\bin load_dynamic\b|"
    r"self\._handle = _dlopen\(|\bin (?:__init__|LoadLibrary)\b[^\r\n]*\n[^\r\n]*_dlopen|"
    r"\bin swig_import_helper\b|pywrap_tensorflow(?:_internal)?\.py\b|\bin _load_dll_libraries\b|"
    r"\bffi\.dlopen\(|\bkernel32\.LoadLibraryExW\("
)
# ... which must be the traceback's last frame: at most this many lines follow it.
_AFTER_FRAME = 2
_TRACEBACK = fact_pattern(r"(?m)Traceback \(most recent call last\)|^\s*File \"[^\"\r\n]+\", line \d+")
# What ends a traceback other than a failed load, or says it is not one, from the traceback on: an exception
# or a warning whatever precedes it (pytest's "E   ", a log's time stamp, an exception group's "| "), the dump
# of a hang, a timeout, a segmentation fault or an access violation, an interrupted run, a recursion, a slow
# import that ends, a build that works.
_NOT_CUT_AT_A_LOAD = fact_pattern(
    r"(?m)(?-i:\b[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Iteration|Group|timeout))(?::|[ \t]*$)|"
    r"During handling of the above exception|Segmentation fault|exit code -?\d{2,}|Exception ignored|"
    r"\bslow\b|takes \d+ ?s(?:ec|econds)?\b"
)
# ... and anywhere in the text: a crash's or a hang's dump, a run interrupted, a build that works.
_NOT_A_CUT_LOAD = fact_pattern(
    r"Fatal Python error|Windows fatal exception|most recent call first|\btime ?out\b|\btimed out\b|\bhangs?\b|"
    r"\bhanging\b|\bfreez|\^C|KeyboardInterrupt|Previous line repeated|\bworking[*_\s]{1,4}(?:build|version|one)\b"
)

# A short text (a title, a line or two) that says an import or a load failed, with a DLL named or Windows and
# a word of Python around it: "pyzmq 22 on Windows conda Python 3.8 fails to load", "Python/WinRT import
# error", "Phyton DLL Error". Never when what failed to load is data, a linter's or an IDE's complaint.
_SHORT = 320  # characters
_SHORT_FAILURE = fact_pattern(
    r"\b(?:fail(?:s|ed|ing)?|unable|can'?t|cannot|could(?:n'?t| not)|won'?t|does(?:n'?t| not)|regression)\b"
    r"[^\r\n]{0,30}?\b(?:import(?:ing)?|load(?:ing)?)\b|"
    r"\b(?:import(?:ing)?|loading)\b[^\r\n]{0,40}?\b(?:fail(?:s|ed|ing|ure)?|errors?|issues?|problems?)\b|"
    r"(?:^|[^\w.])dlls?\s+(?:errors?|issues?|problems?)\b|(?:^|[^\w.])dll load failures?\b|\.dll[\"'`]?\s+(?:error|issue|problem)(?:[\s.!?]|$)|"
    r"\b(?:fail(?:s|ed)?|unable|can'?t|cannot|could(?:n'?t| not)) (?:to )?find (?:the )?(?:cuda|cudnn|cublas|dlls?)\b"
)
# A DLL named, or Windows together with a word of Python.
_SHORT_DLL = r"\bdlls?\b|\.pyd\b|\.dll\b"
_SHORT_WINDOWS = r"\bwin(?:dows|32\w*|64|rt|\d+)?\b"
_SHORT_PYTHON = r"python|\bpip\b|conda|\w{3,}py\b|\bpy\d|numpy|torch|tensorflow|\bcv2\b|jupyter|win32api"
_SHORT_NOT_A_LOAD = (
    r"pylint|pylance|linter|intellisense|flake8|mypy|\bmodel|weights|checkpoint|dataset|state_dict|config|"
    r"settings|bookmark|photo|image|picture|video|\bfiles?\b|\bpage|\bfont|\bsaves?\b|json|csv|\burl|plugin|"
    r"\bfix(?:es|ed|ing)?\b|lazy|\buntil\b|on demand|extension for|theme|\bdata\b|excel|sheet|table|\bpdf|"
    r"document|project|workspace|notebook file|\bdocs?\b|readme|\badd (?:a )?section"
)


def speaks_of_dlls_otherwise(t: ScannedText) -> bool:
    """Whether a text speaks of DLLs for a reason other than a failed load, by the words :func:`topic_events` keeps
    out: an installer's, a linker's or a build's words, Python's own import errors, a feature request, an optional
    file, a scan's or a download page's words, a problem said to be over, a tool that packs DLLs. A question is not
    one of them: real reports ask as often as they tell."""
    return bool(compile_pattern(_NOT_A_LOAD).search(t.data) or compile_pattern(PROSE_OVER).search(t.data))


def topic_events(t: ScannedText) -> Iterator[tuple[int, Any]]:
    """(line, match) for each line that tells of a failed load in general words, then for a short text that
    says an import failed, then for a traceback cut at a native load, each only when nothing before was found;
    a match of a named DLL has one of the groups ``dll`` to ``dll7``."""
    if compile_pattern(_NOT_A_LOAD).search(t.data):
        return
    seen: set[int] = set()
    found = False
    question = compile_pattern(PROSE_QUESTION)
    # a problem said to be over, or a tool that packs DLLs, anywhere in the text
    over = compile_pattern(PROSE_OVER).search(t.data)
    for pattern in () if over else (_NAMED, _GENERAL):
        for m in t.finditer(pattern):
            line = t.line_of(m.start())
            if line in seen:
                continue
            seen.add(line)
            # not on a line that asks whether it is missing
            if not question.search(t.line_data(line).rstrip(b"\r\n")):
                found = True
                yield line, m
    if found:
        return
    prose = over or question.search(t.data)
    if (
        not prose
        and len(t.text) <= _SHORT
        and (
            compile_pattern(_SHORT_DLL).search(t.data)
            or (
                compile_pattern(_SHORT_WINDOWS).search(t.data)
                and compile_pattern(_SHORT_PYTHON).search(t.data)
            )
        )
        and not compile_pattern(_SHORT_NOT_A_LOAD).search(t.data)
    ):
        m = t.search(_SHORT_FAILURE)
        if m:
            yield t.line_of(m.start()), m
            return
    start = t.search(_TRACEBACK)
    if (
        start
        and not t.search(_NOT_A_CUT_LOAD)
        and not _NOT_CUT_AT_A_LOAD.compiled.search(t.data[start.start() :])
    ):
        # the last native frame (of the first few, as every shape reads at most that many)
        last = next(iter(deque(t.finditer(_NATIVE_FRAME), maxlen=1)), None)
        if last and sum(1 for line in t.data[last.end() :].splitlines() if line.strip()) <= _AFTER_FRAME:
            yield t.line_of(last.start()), last
