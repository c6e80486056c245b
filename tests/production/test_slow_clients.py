"""The production stack under slow clients, all from one address: nginx in front
(``deploy/nginx/``) holds them, so gunicorn's threads (2 workers × 4) never wait for one
and normal pages keep answering in under a second — a sign-in page for anyone, and a
signed-in sheet."""

from __future__ import annotations

import contextlib
import resource
import socket
import statistics
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from tests.production.http import Session, new_game

pytestmark = pytest.mark.production

#: Slower than this, a page counts as kept waiting.
PAGE_SECONDS = 1.0
#: nginx's client_header_timeout and client_body_timeout (deploy/nginx/snippets/).
PROXY_TIMEOUT = 10.0


@pytest.fixture(scope="module")
def sheet(base_url: str, token_auth: dict[str, str]) -> str:
    game, _seats = new_game(base_url, token_auth)
    return f"/games/{game}/"


def answer_times(demo: Session, anonymous: Session, sheet: str, seconds: float) -> list[float]:
    """Ask for the rules page and a sheet, over and over for ``seconds``: how long each
    answer took (each must be a 200)."""
    took = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        for session, path in ((anonymous, "/rules/"), (demo, sheet)):
            started = time.monotonic()
            answer = session.get(path)
            took.append(time.monotonic() - started)
            assert answer.status_code == 200, (path, answer.status_code)
        time.sleep(0.1)
    return took


def figures(took: list[float]) -> str:
    return f"{len(took)} pages, median {statistics.median(took):.3f} s, slowest {max(took):.3f} s"


def connect(base_url: str, count: int) -> list[socket.socket]:
    url = urlsplit(base_url)
    return [socket.create_connection((url.hostname, url.port), timeout=5) for _ in range(count)]


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closed ``sock`` (anything it sent first is read and dropped)."""
    sock.setblocking(False)
    try:
        while sock.recv(65536):
            pass
    except BlockingIOError:
        return False
    except OSError:
        return True
    return True


@pytest.fixture
def many_files() -> Iterator[None]:
    """This process holds thousands of sockets."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 8192 if hard == resource.RLIM_INFINITY else min(hard, 8192)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_half_sent_and_slow_heads_wait_at_the_proxy_and_are_dropped(
    base_url: str, demo: Session, anonymous: Session, sheet: str
) -> None:
    """Four times as many connections as gunicorn has threads: half a head, a head and
    half a body, a head sent a byte a second. Pages answer meanwhile; nginx drops each
    slow one once it has waited its 10 s."""
    prefix = urlsplit(base_url).path
    host = urlsplit(base_url).netloc
    half_head = f"GET {prefix}/rules/ HTTP/1.1\r\nHost: {host}\r\n".encode()
    half_body = (
        f"POST {prefix}/accounts/login/ HTTP/1.1\r\nHost: {host}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 99\r\n\r\nab"
    ).encode()
    slow_head = f"GET {prefix}/rules/ HTTP/1.1\r\nHost: {host}\r\nX-Slow: {'a' * 60}\r\n\r\n"
    half, trickled = connect(base_url, 16), connect(base_url, 16)
    stop = threading.Event()

    def trickle() -> None:
        for byte in slow_head.encode():
            for sock in trickled:
                with contextlib.suppress(OSError):  # closed by nginx: its head was too slow
                    sock.send(bytes([byte]))
            if stop.wait(1.0):
                return

    sender = threading.Thread(target=trickle, daemon=True)
    try:
        for number, sock in enumerate(half):
            sock.sendall(half_head if number % 2 else half_body)
        sender.start()
        started = time.monotonic()
        took = answer_times(demo, anonymous, sheet, 5.0)
        print(f"half-sent and slow heads: {figures(took)}")
        assert max(took) < PAGE_SECONDS, figures(took)
        time.sleep(max(0.0, started + PROXY_TIMEOUT + 2.5 - time.monotonic()))
        assert all(closed_by_server(sock) for sock in half + trickled)
    finally:
        stop.set()
        sender.join(5)
        for sock in half + trickled:
            sock.close()


def test_trickled_uploads_wait_at_the_proxy(
    base_url: str, demo: Session, anonymous: Session, sheet: str
) -> None:
    """16 anonymous uploads that announce 3 MB (more than Django reads before a view) and
    send 10 bytes every 2 s: nginx keeps reading them, gunicorn never sees them, and the
    pages answer all along."""
    prefix = urlsplit(base_url).path
    head = (
        f"POST {prefix}/accounts/login/ HTTP/1.1\r\nHost: {urlsplit(base_url).netloc}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 3000000\r\n\r\n"
    ).encode()
    uploads = connect(base_url, 16)
    stop = threading.Event()

    def trickle() -> None:
        while not stop.wait(2.0):
            for sock in uploads:
                sock.sendall(b"username=a")

    sender = threading.Thread(target=trickle, daemon=True)
    try:
        for sock in uploads:
            sock.sendall(head + b"username=a")
        sender.start()
        took = answer_times(demo, anonymous, sheet, 12.0)
        print(f"16 trickled uploads: {figures(took)}")
        assert max(took) < PAGE_SECONDS, figures(took)
        # Past nginx's body timeout, and the uploads are still being read: the trickle
        # held them all along.
        assert not any(closed_by_server(sock) for sock in uploads)
    finally:
        stop.set()
        sender.join(5)
        for sock in uploads:
            sock.close()


@pytest.mark.usefixtures("many_files")
def test_thousands_of_silent_sockets_from_one_address(
    base_url: str, demo: Session, anonymous: Session, sheet: str
) -> None:
    """2,200 connections that never send a byte: nginx holds them (and closes them after
    10 s); pages answer meanwhile."""
    started = time.monotonic()
    silent = connect(base_url, 2200)
    try:
        opened = time.monotonic() - started
        took = answer_times(demo, anonymous, sheet, 5.0)
        print(f"2,200 silent sockets (opened in {opened:.1f} s): {figures(took)}")
        assert max(took) < PAGE_SECONDS, figures(took)
    finally:
        for sock in silent:
            sock.close()
