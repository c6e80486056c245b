"""gunicorn as every recipe starts it (``gunicorn.conf.py`` from the checkout): slow and
half-open clients hold no thread, and the access log keeps no join link's token."""

from __future__ import annotations

import http.client
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.serving import BODY_LIMIT, arrived

ROOT = Path(__file__).resolve().parents[2]


def hello(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    """The app gunicorn serves here: it echoes the request's body."""
    body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]


def test_a_request_arrives_with_its_head_and_its_announced_body() -> None:
    assert not arrived(b"GET / HTTP/1.1\r\nHost: x\r\n")
    assert arrived(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    post = b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n"
    assert not arrived(post + b"abcd")
    assert arrived(post + b"abcde")
    assert arrived(b"POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
    huge = b"POST / HTTP/1.1\r\nContent-Length: 999999999\r\n\r\n"
    assert arrived(huge + b"x" * BODY_LIMIT)
    assert arrived(b"GET /" + b"a" * 70_000)  # a head too long: gunicorn refuses it


@pytest.fixture
def gunicorn(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """One worker with two threads, on a free port: (its port, its access log)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = tmp_path / "access.log"  # gunicorn.conf.py writes the access log on stdout
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py"),
            "tests.scorekeeper.test_serving:hello",
            *("--workers", "1", "--threads", "2", "--bind", f"127.0.0.1:{port}"),
            *("--log-level", "warning"),
        ],
        cwd=ROOT,
        stdout=(out := log.open("w")),
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None, "gunicorn stopped"
                assert time.monotonic() < deadline, "gunicorn did not start"
                time.sleep(0.1)
        yield port, log
    finally:
        server.terminate()
        server.wait(20)
        out.close()


def test_half_sent_requests_hold_no_thread_and_tokens_stay_out_of_the_log(
    gunicorn: tuple[int, Path],
) -> None:
    port, log = gunicorn
    # Three times as many half-sent requests (heads, bodies) as the worker has threads.
    half = [b"GET / HTTP/1.1\r\nHost: x\r\n", b"POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\nab"]
    slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(6)]
    try:
        for number, sock in enumerate(slow):
            sock.sendall(half[number % 2])
        time.sleep(0.3)
        phone = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        for body in (b"", b"a hand", b"x" * 100_000):  # kept alive between them
            started = time.monotonic()
            phone.request("POST", "/join/S3cretT0ken/?token=s3cret", body=body)
            answer = phone.getresponse()
            assert (answer.status, answer.read()) == (200, body)
            assert time.monotonic() - started < 1
        phone.close()
    finally:
        for sock in slow:
            sock.close()
    time.sleep(0.5)  # the log is written after the answer
    written = log.read_text()
    assert written.count("/join/[hidden]/?token=[hidden]") == 3
    assert "s3cret" not in written.lower()
