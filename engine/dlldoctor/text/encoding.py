"""Bytes of a saved log → text: UTF-8/UTF-16, else the legacy code page whose decoding reads most like text;
and the language a text's script says.

A Windows console writes logs in the system's ANSI/OEM code page: GBK (cp936) in mainland China, Big5 (cp950)
in Taiwan, Shift-JIS (cp932) in Japan, cp949 in Korea, cp1251 for Russian. Their byte ranges overlap, so a
Japanese or Korean log often decodes as GBK without an error, into nonsense. Each candidate that decodes
cleanly is scored by how many of its non-ASCII characters are frequent in its language; the best wins.
"""

from __future__ import annotations

# Frequent characters of each language, error-message words included. A wrong code page yields characters
# spread over the whole table, which rarely fall in these sets.
_ZH_CN = set(
    "的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里用"
    "道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心本前开但因只从想实日找指模"
    "块错误文件程序无启动加载失败运行库请问题试装版"
)
_ZH_TW = set(
    "的一是不了在人有我他這個們中來上大為和國地到以說時要就出會可也你對生能而子那得於著下自之年過發後作裡用"
    "道行所然家種事成方多經麼去法學如都同現當沒動面起看定天分還進好小部其些主樣理心本前開但因只從想實日找指模"
    "組錯誤檔案程式無啟動載入失敗執行請問題試裝版"
)
_KO = set(
    "다니습을를이는수없지정된모듈찾에서의가한하고로있도록오류파일실행프로그램설치버전문제시으면해요것니까었였"
    "아어게기사용합적인주대라때서요"
)
_RU = set("оеаинтсрвлкмдпуяыьгзбчйхжшюцщэфъё")
_LATIN1 = set("éèêàâçùûüöäßñóíúáôîëïœÉÈÀÇÖÄÜ")


def _score(text: str, codec: str) -> float:
    chars = [ch for ch in text if ord(ch) >= 0x80]
    if not chars:
        return 1.0
    if codec == "cp932":
        good = sum(1 for ch in chars if 0x3041 <= ord(ch) <= 0x30FF)  # hiragana and full-width katakana
        good -= sum(1 for ch in chars if 0xFF61 <= ord(ch) <= 0xFF9F)  # half-width katakana: rare in logs
    elif codec == "cp949":
        good = sum(1 for ch in chars if ch in _KO)
    elif codec == "gbk":
        good = sum(1 for ch in chars if ch in _ZH_CN)
    elif codec == "cp950":
        good = sum(1 for ch in chars if ch in _ZH_TW)
    elif codec == "cp1251":
        good = sum(1 for ch in chars if ch.lower() in _RU)
    else:
        good = sum(1 for ch in chars if ch in _LATIN1)
    return good / len(chars)


# Tried in this order; on equal scores the earlier wins (GBK is the most common legacy code page of pastes).
LEGACY_CODECS = ("gbk", "cp950", "cp932", "cp949", "cp1252", "cp1251")
SAMPLE = 200_000


def decode_bytes(data: bytes) -> str:
    """Text of a file or pipe in the encodings Windows users paste."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", "replace")
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", "replace")
    if len(data) >= 4 and data[1:4:2] == b"\0\0" and data[0] and data[2]:
        return data.decode("utf-16-le", "replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    sample = data[:SAMPLE]
    best: tuple[float, str] | None = None
    for codec in LEGACY_CODECS:
        try:
            text = sample.decode(codec)
        except UnicodeDecodeError:
            # a cut multi-byte character at the end of the sample is no reason to reject the code page
            try:
                text = sample[:-1].decode(codec) if len(data) > SAMPLE else ""
            except UnicodeDecodeError:
                continue
            if not text:
                continue
        score = _score(text, codec)
        if best is None or score > best[0]:
            best = (score, codec)
    if best is None:
        return data.decode("utf-8", "replace")
    return data.decode(best[1], "replace")


def script_language(text: str) -> str | None:
    """The language a text's script says, where its letters tell (Japanese kana, Hangul, Han, Cyrillic)."""
    han = kana = hangul = cyrillic = 0
    for ch in text[:200_000]:
        o = ord(ch)
        if o < 0x400:
            continue
        if 0x4E00 <= o <= 0x9FFF:
            han += 1
        elif 0x3040 <= o <= 0x30FF:
            kana += 1
        elif 0xAC00 <= o <= 0xD7AF:
            hangul += 1
        elif 0x400 <= o <= 0x4FF:
            cyrillic += 1
    if kana >= 2:
        return "ja"
    if hangul >= 2:
        return "ko"
    if han >= 2:
        traditional = sum(text.count(c) for c in "們錯誤組數據檔無法啟動載為請選項將這")
        simplified = sum(text.count(c) for c in "们错误组数据档无法启动载为请选项将这")
        return "zh-TW" if traditional > simplified else "zh-CN"
    if cyrillic >= 5:
        return "ru"
    return None
