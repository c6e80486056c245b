"""Live updates in production: a hand POSTed through gunicorn reaches a phone's open
stream on the events server (uvicorn, another process), by PostgreSQL NOTIFY; the
phone then gets only the changed row through gunicorn."""

from __future__ import annotations

import html as htmllib
import json
import os
import re
import secrets
from urllib.parse import urlsplit

import pytest

from tests.production.http import Session
from tests.scorekeeper.events_server import Stream

pytestmark = pytest.mark.production


def test_a_hand_posted_through_gunicorn_reaches_the_events_server(
    demo: Session, base_url: str
) -> None:
    events_url = os.environ.get("SCOREKEEPER_EVENTS_URL", "")
    if not events_url:
        pytest.skip("needs the events server: .ci/production-smoke.sh (SCOREKEEPER_EVENTS_URL)")
    api = Session(base_url)
    token = api.post("/api/v1/auth/token/", json_body={"username": "demo", "password": "demo"})
    auth = {"Authorization": f"Token {token.json()['token']}"}
    suffix = secrets.token_hex(3)
    seats = [
        api.post("/api/v1/players/", json_body={"name": f"L{i} {suffix}"}, headers=auth).json()[
            "id"
        ]
        for i in range(3)
    ]
    game = api.post(
        "/api/v1/games/",
        json_body={"ruleset": "screw-your-neighbour", "players": seats},
        headers=auth,
    ).json()

    page = demo.get(f"/games/{game['id']}/")
    assert page.status_code == 200
    poller = re.search(r'<div id="sheet-poller"[^>]*>', page.text, flags=re.S)
    assert poller is not None
    found = re.search(r'data-events="([^"]+)"', poller.group(0))
    assert found is not None, "the sheet names no event stream"
    # Under a prefix the events server answers below it too (LIVE_EVENTS_URL's path).
    assert htmllib.unescape(found.group(1)).startswith(events_url)
    stream_url = urlsplit(htmllib.unescape(found.group(1)))
    version = int(re.search(r'data-version="(\d+)"', poller.group(0)).group(1))  # type: ignore[union-attr]
    assert stream_url.netloc in page.header("Content-Security-Policy")

    stream = Stream(f"{stream_url.scheme}://{stream_url.netloc}", stream_url.path)
    try:
        assert stream.response.status == 200
        # The stream is registered before the hand is sent (the health count says so).
        health = Session(events_url.rstrip("/"))
        for _ in range(100):
            if health.get("/health").json()["streams"] >= 1:
                break
        hand = api.post(
            f"/api/v1/games/{game['id']}/hands/", json_body={"winner": seats[1]}, headers=auth
        )
        assert hand.status_code == 201, hand.text
        event = stream.event(timeout=15)
    finally:
        stream.close()
    assert event["event"] == "change"
    assert json.loads(event["data"]) == {"v": version + 1, "from": 1}

    # What the phone asks next: only the changed row, through gunicorn.
    delta = demo.get(
        f"/games/{game['id']}/live/?v={version}&hand=1&from=1&to={version + 1}",
        headers={"HX-Request": "true"},
    )
    assert delta.status_code == 200
    assert 'id="sheet-grid-delta"' in delta.text
    assert re.findall(r'class="hand-row" data-hand="(\d+)"', delta.text) == ["1"]
