"""`dlldoctor serve`'s application through Starlette's TestClient: the same answer as `explain`, the
limits a public deployment needs, the headers, the bundle upload, the rule and health endpoints."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import subprocess
import sys
import warnings
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
import pytest

with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 for its TestClient; httpx still works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from dlldoctor.cli import main
from dlldoctor.diagnose.accuracy import load_cases
from dlldoctor.kb.ruleset import RuleSet
from dlldoctor.resources import schema_path
from dlldoctor.web.app import create_app
from dlldoctor.web.limits import CSP, BodyLimit, PathOnlyAccessLog

ROOT = Path(__file__).resolve().parents[1]
CASES = {c.id: c for c in load_cases(ROOT / "corpus" / "errors")}
ZH_FBGEMM = CASES["openmp-missing-011"].text  # 找不到指定的模块 … torch\lib\fbgemm.dll
HAN = range(0x4E00, 0xA000)


def bundle_of(text: str) -> dict[str, object]:
    return {
        "version": 1,
        "kind": "dlldoctor-bundle",
        "python": "C:\\Python311\\python.exe",
        "reproduced": [
            {"module": "torch", "ok": False, "error_type": "OSError", "text": text, "winerror": 126}
        ],
        "facts": {"interpreter": {"version": "3.11.7"}, "path": [], "system_dir": "C:\\Windows\\System32"},
        "probes": [],
    }


@pytest.fixture(scope="module")
def client(rule_set: RuleSet) -> TestClient:
    return TestClient(create_app(rule_set))


def cli_stdout(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    main(list(args))
    return capsys.readouterr().out


def test_the_api_answers_every_corpus_text_exactly_as_explain_json(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    different = []
    for case in [*CASES.values(), *load_cases(ROOT / "corpus" / "reports")]:
        answer = client.post("/api/explain", json={"text": case.text})
        assert answer.status_code == 200, (case.id, answer.text)
        if answer.text != cli_stdout(capsys, "explain", "--format", "json", case.text):
            different.append(case.id)
    assert len(CASES) > 300 and different == []  # and every report of corpus/reports/


def test_the_api_equals_a_real_explain_process_and_its_schema(client: TestClient) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dlldoctor", "explain", "--format", "json", ZH_FBGEMM],
        capture_output=True,
        text=True,
        check=False,
    )
    answer = client.post("/api/explain", json={"text": ZH_FBGEMM})
    assert done.returncode == 1 and answer.json() == json.loads(done.stdout)
    schema = json.loads(schema_path("explain").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(answer.json())
    assert answer.json()["language"] == "zh"
    assert answer.json()["diagnoses"][0]["rule"] == "fbgemm-126-libomp140-missing"
    english = client.post("/api/explain", json={"text": ZH_FBGEMM, "lang": "en"}).json()
    assert english["language"] == "en" and english["diagnoses"][0]["rule"] == "fbgemm-126-libomp140-missing"


def test_a_bundle_is_answered_as_explain_bundle(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle_of(ZH_FBGEMM)), encoding="utf-8")
    expected = cli_stdout(capsys, "explain", "--bundle", str(path), "--format", "json")
    assert json.loads(expected)["diagnosis"]["rule_id"] == "fbgemm-126-libomp140-missing"
    uploaded = client.post("/api/explain", files={"bundle": ("bundle.json", path.read_bytes())})
    as_body = client.post(
        "/api/explain", content=path.read_bytes(), headers={"content-type": "application/json"}
    )
    wrapped = client.post("/api/explain", json={"bundle": bundle_of(ZH_FBGEMM)})
    assert uploaded.text == as_body.text == wrapped.text == expected
    page = client.post("/", files={"bundle": ("bundle.json", path.read_bytes())})
    assert page.status_code == 200 and '<html lang="en">' in page.text  # as explain --bundle: English
    chinese = client.post(
        "/", files={"bundle": ("b.json", path.read_bytes())}, headers={"accept-language": "zh"}
    )
    assert '<html lang="zh-CN">' in chinese.text and "<h2>可能的原因（按可能性排序）</h2>" in chinese.text
    assert '<p class="verdict found" id="verdict">✗ openmp-missing: ' in page.text
    assert '<li class="cause" data-rule="fbgemm-126-libomp140-missing">' in page.text
    bad = client.post("/api/explain", files={"bundle": ("b.json", b'{"version": 1}')})
    assert bad.status_code == 400
    assert bad.json() == {
        "version": 1,
        "error": "bundle: not a dlldoctor bundle: at the top level: 'kind' is a required property",
    }


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (b"", "the request: invalid JSON (Expecting value: line 1 column 1 (char 0))"),
        (b"\x80", "the request: not UTF-8 text (byte 0)"),
        (b"[1]", 'the request must be a JSON object: {"text": "…"} or {"bundle": {…}}'),
        (b'{"text": 7}', 'the request must be a JSON object: {"text": "…"} or {"bundle": {…}}'),
        (b'{"text": "  "}', "the error text is empty: paste the traceback or the pop-up's message"),
        (b'{"text": "\\u0000\\u0001\\u0002"}', "this looks like a binary file, not an error text"),
        (b'{"text": "x", "lang": "fr"}', "lang must be one of en, zh, not 'fr'"),
        (b"[" * 100000 + b"]" * 100000, "the request: JSON nested too deeply"),
    ],
)
def test_bad_requests_are_one_line_errors(client: TestClient, body: bytes, error: str) -> None:
    answer = client.post("/api/explain", content=body, headers={"content-type": "application/json"})
    assert (answer.status_code, answer.json()) == (400, {"version": 1, "error": error})


def test_a_form_the_parser_refuses_is_a_one_line_error(client: TestClient) -> None:
    two = client.post("/api/explain", files=[("bundle", ("a.json", b"{}")), ("bundle", ("b.json", b"{}"))])
    assert (two.status_code, two.json()) == (
        400,
        {"version": 1, "error": "the form is not read: Too many files. Maximum number of files is 1."},
    )
    page = client.post("/", files=[("bundle", ("a.json", b"{}")), ("bundle", ("b.json", b"{}"))])
    assert page.status_code == 400
    assert "Not read: the form is not read: Too many files. Maximum number of files is 1." in page.text


def test_a_10_mb_body_is_refused_with_413_declared_or_streamed(client: TestClient) -> None:
    big = b"x" * (10 << 20)
    declared = client.post("/api/explain", content=big, headers={"content-type": "application/json"})
    assert declared.status_code == 413
    assert declared.json() == {
        "version": 1,
        "error": "the request is larger than 1024 KB: paste the part around the error",
    }
    assert declared.headers["content-security-policy"] == CSP

    def chunks():  # no Content-Length: the body is counted as it arrives
        for _ in range(10):
            yield b"x" * (1 << 20)

    assert client.post("/api/explain", content=chunks()).status_code == 413
    form = client.post("/", files={"text": (None, "x" * (2 << 20))}, headers={"accept-language": "zh-CN"})
    assert form.status_code == 413 and form.headers["content-type"] == "text/html; charset=utf-8"
    assert (
        '<p class="error" id="error" role="alert">请求超过 1024 KB：请只粘贴报错附近的部分。</p>' in form.text
    )


def test_a_declared_large_body_is_refused_before_any_of_it_is_read() -> None:
    reads: list[object] = []
    sent: list[dict[str, object]] = []

    async def app(scope: object, receive: object, send: object) -> None:
        raise AssertionError("the application ran")

    async def receive() -> dict[str, object]:
        reads.append(1)
        return {"type": "http.request", "body": b"x" * 65536, "more_body": True}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/explain",
        "headers": [(b"content-length", b"10485760")],
    }
    asyncio.run(BodyLimit(app, 1 << 20)(scope, receive, send))  # type: ignore[arg-type]
    assert reads == [] and sent[0]["status"] == 413


def test_a_streamed_body_is_read_no_further_than_the_cap() -> None:
    reads: list[int] = []

    async def app(scope: object, receive, send) -> None:  # type: ignore[no-untyped-def]
        while (await receive()).get("more_body"):
            pass

    async def receive() -> dict[str, object]:
        reads.append(1)
        return {"type": "http.request", "body": b"x" * 65536, "more_body": True}  # never ends

    sent: list[dict[str, object]] = []

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/", "headers": []}
    asyncio.run(BodyLimit(app, 1 << 20)(scope, receive, send))  # type: ignore[arg-type]
    assert len(reads) == 17 and sent[0]["status"] == 413  # 16 chunks make the cap; the 17th passes it


def test_the_time_cap_answers_503(rule_set: RuleSet) -> None:
    slow = TestClient(create_app(rule_set, time_limit=0))
    answer = slow.post("/api/explain", json={"text": ZH_FBGEMM})
    assert (answer.status_code, answer.json()) == (
        503,
        {"version": 1, "error": "the answer took longer than 0 s"},
    )
    page = slow.post("/", data={"text": ZH_FBGEMM})
    assert page.status_code == 503 and "The answer took longer than 0 s" in page.text


@pytest.mark.parametrize("path", ["/", "/healthz", "/api/rules/winerror-1455-paging-file", "/api/rules/nope"])
def test_security_headers_on_every_answer(client: TestClient, path: str) -> None:
    headers = client.get(path).headers
    assert headers["content-security-policy"] == CSP
    assert "frame-ancestors 'none'" in CSP and "unsafe-inline" not in CSP and "script-src 'self'" in CSP
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-frame-options"] == "DENY"
    assert headers["cache-control"] == "no-store"


def test_rules_endpoint_is_rules_show_json(client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    shown = client.get("/api/rules/fbgemm-126-libomp140-missing")
    expected = cli_stdout(capsys, "rules", "show", "fbgemm-126-libomp140-missing", "--format", "json")
    assert shown.status_code == 200 and shown.text == expected
    missing = client.get("/api/rules/no-such-rule")
    assert (missing.status_code, missing.json()) == (404, {"version": 1, "error": "no rule 'no-such-rule'"})


def test_healthz(client: TestClient, rule_set: RuleSet) -> None:
    from dlldoctor import __version__

    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok", "version": __version__, "rules": len(rule_set.active_rules())}


def test_the_page_works_without_javascript_and_says_nothing_is_kept(client: TestClient) -> None:
    page = client.get("/").text
    assert '<form method="post" action="/" enctype="multipart/form-data" class="paste">' in page
    assert (
        '<textarea id="text" name="text"' in page and '<input type="file" id="bundle" name="bundle"' in page
    )
    assert "Nothing you paste or upload is stored or logged" in page
    assert page.count("<script") == 1 and '<script src="/static/copy.js" defer></script>' in page
    assert " style=" not in page and " onclick=" not in page and "<style" not in page  # nothing inline
    assert client.get("/static/copy.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/static/page.css").status_code == 200
    assert client.get("/static/other.js").status_code == 404
    chinese = client.get("/", headers={"accept-language": "zh-CN,zh;q=0.9"}).text
    assert "粘贴或上传的内容不会被保存，也不会写入日志" in chinese and '<html lang="zh-CN">' in chinese


def test_the_form_answer_is_explains_first_cause_in_chinese(client: TestClient) -> None:
    page = client.post("/", data={"text": ZH_FBGEMM})
    api = client.post("/api/explain", json={"text": ZH_FBGEMM}).json()
    top = api["diagnoses"][0]
    assert page.status_code == 200 and '<html lang="zh-CN">' in page.text
    first = page.text.index('<li class="cause"')
    assert page.text[first:].startswith(f'<li class="cause" data-rule="{top["rule"]}">')
    assert f'<p class="verdict found" id="verdict">✗ {top["category"]}: {top["title"]}</p>' in page.text
    assert f'<p class="fix-text">{top["fixes"][0]["text"]}</p>' in page.text
    assert any(ord(ch) in HAN for ch in top["fixes"][0]["text"])
    assert (
        'class="copy" data-copy="python -m pip install --upgrade torch torchvision torchaudio"' in page.text
    )
    assert (
        'href="https://github.com/dlldoctor/dlldoctor/blob/main/docs/rules/openmp-missing.md#fbgemm-126-libomp140-missing"'
        in page.text
    )


def test_garbage_and_nothing_get_a_clear_message(client: TestClient) -> None:
    garbage = client.post("/", data={"text": "qwertz asdf 12345 hello"})
    assert garbage.status_code == 200
    assert (
        '<p class="verdict" id="verdict">Nothing in this text looks like a Windows DLL load failure.</p>'
        in garbage.text
    )
    empty = client.post("/", data={"text": "   "})
    assert empty.status_code == 400
    assert (
        '<p class="error" id="error" role="alert">Paste an error text or choose a bundle file.</p>'
        in empty.text
    )
    binary = client.post("/", data={"text": "\x01\x02\x03\x04"})
    assert "Not read: this looks like a binary file, not an error text" in binary.text


def test_the_access_log_never_holds_a_query_string() -> None:
    from uvicorn.logging import AccessFormatter

    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", "/?text=Error%20loading%20secret.dll", "1.1", 200),
        None,
    )
    assert PathOnlyAccessLog().filter(record)
    line = AccessFormatter(fmt="%(client_addr)s - %(request_line)s %(status_code)s", use_colors=False).format(
        record
    )
    assert line == "127.0.0.1:5000 - GET / HTTP/1.1 200 OK"


def test_serve_without_the_extra_is_one_line_exit_2() -> None:
    code = (
        "import sys; sys.modules['uvicorn'] = None; from dlldoctor.cli import main; sys.exit(main(['serve']))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        "dlldoctor: error: serve needs the web extra (uvicorn not installed): pip install dlldoctor[web]\n"
    )


def test_serve_refuses_a_port_that_is_not_one() -> None:
    stream = io.StringIO()
    sys_stderr, sys.stderr = sys.stderr, stream
    try:
        status = main(["serve", "--port", "70000"])
    finally:
        sys.stderr = sys_stderr
    assert status == 2 and stream.getvalue() == "dlldoctor: error: --port 70000: not a port (0-65535)\n"


class _Words(HTMLParser):
    """The words a reader sees, without the pasted text, commands and code."""

    QUOTED = frozenset({"textarea", "pre", "code", "script", "style"})

    def __init__(self) -> None:
        super().__init__()
        self.depth, self.words = 0, []

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.depth += tag in self.QUOTED

    def handle_endtag(self, tag: str) -> None:
        self.depth -= tag in self.QUOTED

    def handle_data(self, data: str) -> None:
        if not self.depth:
            self.words.append(data)


def test_the_chinese_page_says_its_own_words_in_chinese(client: TestClient) -> None:
    from zhcheck import english_words

    zh = {"accept-language": "zh-CN,zh;q=0.9"}
    pages = [
        client.get("/", headers=zh).text,
        client.post("/", data={"text": " "}, headers=zh).text,
        client.post("/", data={"text": "\x01\x02\x03"}, headers=zh).text,
        client.post("/", data={"text": "这不是报错，只是一段普通的文字。"}).text,
    ]
    left = []
    for page in pages:
        words = _Words()
        words.feed(page)
        left += english_words("\n".join(words.words))
    assert left == []
    assert "这段文本看起来不像 Windows DLL 加载失败。" in pages[3]
    assert "无法读取：这看起来是二进制文件，而不是错误文本" in pages[2]


def test_serve_on_a_port_in_use_is_one_line_exit_2() -> None:
    import socket

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "dlldoctor", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(f"dlldoctor: error: cannot listen on 127.0.0.1:{port}: ")
    assert done.stderr.count("\n") == 1


def test_a_fault_while_answering_is_a_one_line_500_with_the_headers_and_no_paste_in_the_log(
    rule_set: RuleSet, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from dlldoctor.web import app as web_app

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("SECRET-PASTE-WORDS in the message")

    monkeypatch.setattr(web_app, "answer_json", broken)
    client = TestClient(web_app.create_app(rule_set), raise_server_exceptions=False)
    with caplog.at_level(logging.DEBUG):
        done = client.post("/api/explain", json={"text": "SECRET-PASTE-WORDS"})
    assert done.status_code == 500
    assert done.json() == {"version": 1, "error": "internal error"}
    assert done.headers["content-security-policy"] == CSP
    assert "RuntimeError" in caplog.text
    assert "SECRET-PASTE-WORDS" not in caplog.text
