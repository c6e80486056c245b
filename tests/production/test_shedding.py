"""What a phone meets while the stack sheds load or restarts, through nginx: two events
servers, so restarting one leaves the other's phones connected and its own reconnect
there; and every refusal on what the phones poll — an address over its share, gunicorn
or both events servers out of reach — a 503 with ``Retry-After`` (nginx's
``@scorekeeper_busy``), never a 502, 504 or a bare 429."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.production import services
from tests.production.http import Response, Session, event_stream, new_game
from tests.production.services import BUSY, RETRY_AFTER, held
from tests.scorekeeper.events_server import Stream

pytestmark = pytest.mark.production


def open_on(origin: str, path: str, before: dict[str, int]) -> tuple[str, Stream]:
    """A stream opened through nginx, once it said hello, and the server holding it."""
    stream = Stream(origin, path)
    assert stream.response.status == 200
    assert stream.event(hello=True)["event"] == "hello"
    for _ in range(100):
        gained = [name for name, count in held().items() if count > before[name]]
        if gained:
            return gained[0], stream
        time.sleep(0.05)
    raise AssertionError("no events server counts the stream")


def one_on_each(origin: str, path: str) -> dict[str, Stream]:
    """A stream held on each events server (nginx sends a new one to the server holding
    fewer)."""
    on: dict[str, Stream] = {}
    for _ in range(10):
        name, stream = open_on(origin, path, held())
        if name in on:
            stream.close()
            time.sleep(0.1)
        else:
            on[name] = stream
        if len(on) == len(services.EVENTS):
            return on
    raise AssertionError(f"every stream went to {sorted(on)}")


#: A live answer as a phone gets it: what changed, nothing (204), or not modified (304).
ANSWERED = {200, 204, 304}


def ends(stream: Stream, timeout: float = 10.0) -> bool:
    """Whether the stream's answer ends within ``timeout``: its connection closed, or its
    chunked body's last chunk (nginx keeps the connection to the client alive)."""
    assert stream.connection.sock is not None
    stream.connection.sock.settimeout(timeout)
    while True:
        line = stream.response.fp.readline()
        if not line or line.strip() == b"0":
            return True


def busy(answer: Response) -> None:
    assert answer.status_code == 503
    assert answer.header("Retry-After") == RETRY_AFTER
    assert answer.text == BUSY


def test_restarting_one_events_server_leaves_the_other_ones_phones_connected(
    demo: Session, base_url: str, token_auth: dict[str, str]
) -> None:
    game, seats = new_game(base_url, token_auth)
    origin, path = event_stream(demo, game)
    api = Session(base_url)
    on = one_on_each(origin, path)
    kept, restarted = services.EVENTS
    opened: list[Stream] = []
    try:
        with services.stopped(restarted):
            # Its phone's stream ended; reconnecting, it opens on the other at once, as
            # does a phone opening the sheet meanwhile.
            assert ends(on[restarted])
            for _ in range(3):
                stream = Stream(origin, path)
                opened.append(stream)
                assert stream.response.status == 200
                assert stream.event(hello=True)["event"] == "hello"
            hand = api.post(
                f"/api/v1/games/{game}/hands/", json_body={"winner": seats[0]}, headers=token_auth
            )
            assert hand.status_code == 201, hand.text
            for stream in (on[kept], *opened):
                change = stream.event(timeout=15)
                assert change["event"] == "change"
                assert json.loads(change["data"])["from"] == 1
        # Back: the kept phone's stream never ended and still hears the next hand.
        hand = api.post(
            f"/api/v1/games/{game}/hands/", json_body={"winner": seats[1]}, headers=token_auth
        )
        assert hand.status_code == 201, hand.text
        assert json.loads(on[kept].event(timeout=15)["data"])["from"] == 2
        # nginx sends new streams to the restarted server again (once the 10 s it leaves
        # a failed server alone are over): the next restart will not drop every phone.
        deadline = time.monotonic() + 30
        while True:
            name, stream = open_on(origin, path, held())
            opened.append(stream)
            if name == restarted:
                break
            assert time.monotonic() < deadline, "no stream opens on the restarted server"
            time.sleep(0.5)
    finally:
        for stream in (*on.values(), *opened):
            stream.close()


def test_with_both_events_servers_down_a_stream_is_told_when_to_try_again(
    demo: Session, base_url: str, token_auth: dict[str, str]
) -> None:
    game, _seats = new_game(base_url, token_auth)
    origin, path = event_stream(demo, game)
    refused_from = services.refused_from()
    with services.stopped(*services.EVENTS):
        refused = Stream(origin, path, source=refused_from)
        assert refused.response.status == 503
        assert refused.response.getheader("Retry-After") == RETRY_AFTER
        assert refused.response.read().decode() == BUSY
        refused.close()
        # The page polls instead; the app still answers.
        polled = demo.get(f"/games/{game}/live/?v=1", headers={"HX-Request": "true"})
        assert polled.status_code in ANSWERED
    # Back, once nginx tries them again (it leaves a failed server alone for 10 s).
    deadline = time.monotonic() + 30
    while True:
        again = Stream(origin, path, source=refused_from)
        status = again.response.status
        again.close()
        if status == 200:
            break
        assert time.monotonic() < deadline, f"streams still refused ({status})"
        time.sleep(0.5)


def test_while_gunicorn_restarts_the_phones_polls_are_told_when_to_try_again(
    demo: Session, base_url: str, token_auth: dict[str, str]
) -> None:
    game, _seats = new_game(base_url, token_auth)
    phone = Session(base_url, cookies=dict(demo.cookies), source=services.refused_from())
    with services.stopped("app"):
        busy(phone.get(f"/games/{game}/live/?v=1", headers={"HX-Request": "true"}))
        busy(phone.get(f"/games/{game}/table/", headers={"Accept": "application/json"}))
        busy(phone.get(f"/games/{game}/"))  # a page too, rather than nginx's 502
    polled = phone.get(f"/games/{game}/live/?v=1", headers={"HX-Request": "true"})
    assert polled.status_code in ANSWERED


#: nginx's rate for one address's polls (deploy/nginx/snippets/scorekeeper-http.conf,
#: scorekeeper-polls.conf): 20 a second once a burst of 100 is spent.
POLL_RATE, POLL_BURST = 20, 100


def test_one_address_polling_hard_is_told_to_wait_and_the_others_are_not(
    demo: Session, base_url: str, token_auth: dict[str, str]
) -> None:
    game, _seats = new_game(base_url, token_auth)
    script = Session(base_url, cookies=dict(demo.cookies), source=services.refused_from())
    live = f"/games/{game}/live/?v=1"
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=16) as pool:
        answers = list(
            pool.map(lambda _: script.get(live, headers={"HX-Request": "true"}), range(400))
        )
    elapsed = time.monotonic() - started
    served = [a for a in answers if a.status_code != 503]
    refused = [a for a in answers if a.status_code == 503]
    assert refused, f"400 polls in {elapsed:.1f} s, none refused"
    for answer in refused:
        busy(answer)
    assert {a.status_code for a in served} <= ANSWERED
    assert len(served) <= POLL_BURST + POLL_RATE * elapsed + 2
    # Meanwhile a phone at another address polls as usual, and the busy address may
    # still use the table's tools: only GETs are counted.
    assert demo.get(live, headers={"HX-Request": "true"}).status_code in ANSWERED
    tools = script.post(
        f"/games/{game}/table/",
        form={"action": "no-such-action"},
        headers={"X-CSRFToken": demo.cookies["csrftoken"]},
    )
    assert tools.status_code == 400, tools.text
