"""Live updates in production, through nginx: a hand POSTed through gunicorn reaches a
phone's open stream on an events server (uvicorn, other processes), by PostgreSQL
NOTIFY; the phone then gets only the changed row through gunicorn. One address holds
a limited number of streams (nginx's ``limit_conn``), then is told when to try again."""

from __future__ import annotations

import html as htmllib
import json
import os
import re
import time
from urllib.parse import urljoin, urlsplit

import pytest

from tests.production import services
from tests.production.http import Session, event_stream, new_game
from tests.production.services import BUSY, RETRY_AFTER, held
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
    game_id, seats = new_game(base_url, auth)

    page = demo.get(f"/games/{game_id}/")
    assert page.status_code == 200
    poller = re.search(r'<div id="sheet-poller"[^>]*>', page.text, flags=re.S)
    assert poller is not None
    found = re.search(r'data-events="([^"]+)"', poller.group(0))
    assert found is not None, "the sheet names no event stream"
    # On the page's own origin, through nginx; under a prefix, below it too.
    stream_url = urlsplit(urljoin(base_url, htmllib.unescape(found.group(1))))
    assert stream_url.geturl().startswith(events_url)
    version = int(re.search(r'data-version="(\d+)"', poller.group(0)).group(1))  # type: ignore[union-attr]
    assert "connect-src 'self'" in page.header("Content-Security-Policy")

    stream = Stream(f"{stream_url.scheme}://{stream_url.netloc}", stream_url.path)
    try:
        assert stream.response.status == 200
        # The stream is registered before the hand is sent (the health counts, each
        # events server's at its own port, say so).
        for _ in range(100):
            if any(count >= 1 for count in held().values()):
                break
            time.sleep(0.05)
        hand = api.post(
            f"/api/v1/games/{game_id}/hands/", json_body={"winner": seats[1]}, headers=auth
        )
        assert hand.status_code == 201, hand.text
        event = stream.event(timeout=15)
    finally:
        stream.close()
    assert event["event"] == "change"
    assert json.loads(event["data"]) == {"v": version + 1, "from": 1}

    # What the phone asks next: only the changed row, through gunicorn.
    delta = demo.get(
        f"/games/{game_id}/live/?v={version}&hand=1&from=1&to={version + 1}",
        headers={"HX-Request": "true"},
    )
    assert delta.status_code == 200
    assert 'id="sheet-grid-delta"' in delta.text
    assert re.findall(r'class="hand-row" data-hand="(\d+)"', delta.text) == ["1"]


def test_a_tap_through_gunicorn_reaches_the_stream_with_the_tools_new_state(
    demo: Session, base_url: str
) -> None:
    """A tools tap (the direction reversed, through the API) is a ``tools`` event on the
    phone's stream, through nginx, saying what the tools now are: the state a read of
    them gives, so that the table's other phones need not read them."""
    if not os.environ.get("SCOREKEEPER_EVENTS_URL", ""):
        pytest.skip("needs the events server: .ci/production-smoke.sh (SCOREKEEPER_EVENTS_URL)")
    api = Session(base_url)
    token = api.post("/api/v1/auth/token/", json_body={"username": "demo", "password": "demo"})
    auth = {"Authorization": f"Token {token.json()['token']}"}
    game_id, _seats = new_game(base_url, auth)
    origin, path = event_stream(demo, game_id)
    stream = Stream(origin, path)
    try:
        assert stream.response.status == 200
        assert stream.event(hello=True, timeout=15)["event"] == "hello"
        url = f"/api/v1/games/{game_id}/table/"
        tapped = api.post(url, json_body={"action": "direction-flip"}, headers=auth)
        assert tapped.status_code == 200, tapped.text
        event = stream.event(timeout=15)
        while event["event"] != "tools":
            event = stream.event(timeout=15)
    finally:
        stream.close()
    said = json.loads(event["data"])
    read = api.get(url, headers=auth).json()
    assert said["r"] == read["revision"] == 1
    assert said["s"]["clockwise"] is read["clockwise"] is False
    assert said["s"]["hand"] == read["hand"] == 1


#: nginx's limit on one address's streams (deploy/nginx/snippets/scorekeeper-events.conf).
STREAMS_PER_ADDRESS = 100


def test_one_address_holds_a_limited_number_of_streams(
    demo: Session, base_url: str, token_auth: dict[str, str]
) -> None:
    """A script opening stream after stream is refused by nginx (503 with Retry-After:
    the page then polls); a phone at another address still opens its stream, and a
    stream closed frees its place."""
    events_url = os.environ.get("SCOREKEEPER_EVENTS_URL", "")
    if not events_url:
        pytest.skip("needs the events server: .ci/production-smoke.sh (SCOREKEEPER_EVENTS_URL)")
    game, _seats = new_game(base_url, token_auth)
    found = re.search(r'data-events="([^"]+)"', demo.get(f"/games/{game}/").text)
    assert found is not None, "the sheet names no event stream"
    url = urlsplit(urljoin(base_url, htmllib.unescape(found.group(1))))
    origin = f"{url.scheme}://{url.netloc}"
    script = services.refused_from()
    streams = [Stream(origin, url.path, source=script) for _ in range(STREAMS_PER_ADDRESS)]
    try:
        assert {stream.response.status for stream in streams} == {200}
        refused = Stream(origin, url.path, source=script)
        assert refused.response.status == 503
        assert refused.response.getheader("Retry-After") == RETRY_AFTER
        assert refused.response.read().decode() == BUSY
        refused.close()
        elsewhere = Stream(origin, url.path, source="127.0.0.2")
        assert elsewhere.response.status == 200
        assert elsewhere.event(hello=True)["event"] == "hello"
        elsewhere.close()
        streams.pop().close()
        for _ in range(50):  # until nginx has seen it go
            again = Stream(origin, url.path, source=script)
            if again.response.status == 200:
                break
            again.close()
            time.sleep(0.05)
        streams.append(again)
        assert again.response.status == 200
    finally:
        for stream in streams:
            stream.close()
