"""The production server under slow clients: half-sent requests, more of them than
gunicorn has threads, hold none (``gunicorn.conf.py``'s worker), and a join link's
token is kept out of the access log (the smoke then looks for it there)."""

from __future__ import annotations

import secrets
import socket
import time
from urllib.parse import urlsplit

import pytest

from tests.production.http import Session

pytestmark = pytest.mark.production


def test_half_sent_requests_do_not_keep_a_normal_one_waiting(
    anonymous: Session, base_url: str
) -> None:
    url = urlsplit(base_url)
    slow = []
    try:
        # The smoke's gunicorn: 2 workers × 4 threads; twice that many half-open.
        for number in range(16):
            sock = socket.create_connection((url.hostname, url.port))
            path, rest = (
                (f"{url.path}/rules/", "")
                if number % 2
                else (f"{url.path}/accounts/login/", "Content-Length: 99\r\n\r\nab")
            )
            verb = "GET" if number % 2 else "POST"
            sock.sendall(f"{verb} {path} HTTP/1.1\r\nHost: {url.netloc}\r\n{rest}".encode())
            slow.append(sock)
        time.sleep(0.5)
        for _ in range(4):  # each worker, twice
            started = time.monotonic()
            assert anonymous.get("/rules/").status_code == 200
            assert time.monotonic() - started < 2
    finally:
        for sock in slow:
            sock.close()


def test_a_join_link_opens_without_its_token_in_the_log(base_url: str) -> None:
    api = Session(base_url)
    token = api.post("/api/v1/auth/token/", json_body={"username": "demo", "password": "demo"})
    auth = {"Authorization": f"Token {token.json()['token']}"}
    suffix = secrets.token_hex(3)
    seats = [
        api.post("/api/v1/players/", json_body={"name": f"J{i} {suffix}"}, headers=auth).json()[
            "id"
        ]
        for i in range(3)
    ]
    game = api.post(
        "/api/v1/games/",
        json_body={"ruleset": "screw-your-neighbour", "players": seats},
        headers=auth,
    ).json()
    invite = api.post(
        f"/api/v1/games/{game['id']}/invites/", json_body={"role": "watch"}, headers=auth
    )
    assert invite.status_code == 201, invite.text
    guest = Session(base_url)
    assert "/join/" in urlsplit(invite.json()["url"]).path
    joined = guest.get(invite.json()["url"])  # a watch link: straight to the sheet
    assert joined.status_code == 302
    assert joined.header("Location") == f"{guest.prefix}/games/{game['id']}/"
    assert guest.get(f"/games/{game['id']}/").status_code == 200
    # .ci/production-smoke.sh fails when gunicorn's log holds `/join/<token>`.
