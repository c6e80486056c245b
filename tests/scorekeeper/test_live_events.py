"""The events server over HTTP (uvicorn in a thread, on SQLite: the per-second version
poll), and the sheet's side: the stream's URL on the page, the rows-only answer after
an event, the no-JavaScript refresh."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from scorekeeper.live import capability
from scorekeeper.models import Game, Player
from scorekeeper.services.games import game_close, game_delete, hand_record, hand_undo
from scorekeeper.services.invites import invite_create, invite_revoke
from tests.scorekeeper.events_server import Stream, events_server
from tests.scorekeeper.factories import make_game, make_player, make_players

HTMX = {"HTTP_HX_REQUEST": "true"}
OPEN = {"target_wins": 0}  # no target: as many hands as the test likes


@pytest.fixture
def server() -> Iterator[str]:
    with events_server(heartbeat=0.3) as (base, _app):
        yield base


def fetch(url: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_health_and_refusals(server: str) -> None:
    status, _, body = fetch(f"{server}/events/health")
    assert status == 200
    assert json.loads(body) == {
        "status": "ok",
        "database": "listening",
        "streams": 0,
        "games": 0,
    }
    assert fetch(f"{server}/events/not-a-ticket")[0] == 403
    assert fetch(f"{server}/events/{capability.issue(1, 'watch')}/more")[0] == 404
    assert fetch(f"{server}/")[0] == 404
    assert fetch(f"{server}/events/health", method="POST")[0] == 405


@pytest.mark.django_db(transaction=True)
def test_a_hand_reaches_the_streams_of_its_game_only(server: str, user: User) -> None:
    players = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", players, options=OPEN)
    other = make_game(user, "screw-your-neighbour", players, options=OPEN)
    watching = [Stream(server, f"/events/{capability.issue(game.pk, 'watch')}") for _ in range(2)]
    elsewhere = Stream(server, f"/events/{capability.issue(other.pk, 'manage')}")
    try:
        first = watching[0].response
        assert first.status == 200
        assert first.headers["Content-Type"].startswith("text/event-stream")
        assert first.headers["Cache-Control"] == "no-store"
        assert first.headers["Access-Control-Allow-Origin"] == "*"
        deadline = time.monotonic() + 10
        while json.loads(fetch(f"{server}/events/health")[2])["streams"] < 3:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(1.2)  # the poll has seen the games' versions once
        hand_record(game=game, user=user, hand_input={"winner": players[1].pk})
        version = Game.objects.get(pk=game.pk).version
        for stream in watching:
            event = stream.event()
            assert event["event"] == "change"
            assert json.loads(event["data"])["v"] == version
        with pytest.raises(TimeoutError):
            elsewhere.event(timeout=1.5)  # heartbeats only

        game_delete(game=game, user=user)
        assert json.loads(watching[0].event()["data"]) == {"v": None, "from": None}
    finally:
        for stream in [*watching, elsewhere]:
            stream.close()
    deadline = time.monotonic() + 5
    while json.loads(fetch(f"{server}/events/health")[2])["streams"]:
        assert time.monotonic() < deadline, "closed streams were not let go"
        time.sleep(0.05)


@pytest.mark.django_db(transaction=True)
def test_a_stream_first_says_which_version_its_game_is_at(server: str, user: User) -> None:
    """So that a phone showing that version asks Django nothing when it (re)connects."""
    players = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", players, options=OPEN)
    gone = make_game(user, "screw-your-neighbour", players, options=OPEN)
    gone_pk = gone.pk
    game_delete(game=gone, user=user)
    first = Stream(server, f"/events/{capability.issue(game.pk, 'watch')}")
    lost = Stream(server, f"/events/{capability.issue(gone_pk, 'watch')}")
    later: Stream | None = None
    try:
        hello = first.event(hello=True)
        assert hello["event"] == "hello"
        # With the table tools' revision (0: never used).
        assert json.loads(hello["data"]) == {"v": Game.objects.get(pk=game.pk).version, "r": 0}
        assert json.loads(lost.event(hello=True)["data"]) == {"v": None}
        time.sleep(1.2)  # the poll has seen the game's version once (SQLite)
        hand_record(game=game, user=user, hand_input={"winner": players[1].pk})
        version = Game.objects.get(pk=game.pk).version
        assert json.loads(first.event()["data"])["v"] == version
        later = Stream(server, f"/events/{capability.issue(game.pk, 'score')}")
        said = json.loads(later.event(hello=True)["data"])
        assert (said["v"], said["r"]) == (version, 0)
        # Heard as a notification (PostgreSQL), the change's first hand comes along, as
        # its "change" event said it; seen by the poll (SQLite), it is not known.
        expected = 1 if connection.vendor == "postgresql" else None
        assert said.get("f") == expected
    finally:
        for stream in (first, lost, later):
            if stream is not None:
                stream.close()


@pytest.mark.django_db(transaction=True)
def test_revoking_a_link_ends_its_guests_stream_and_its_ticket_opens_no_other(
    server: str, user: User
) -> None:
    players = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", players, options=OPEN)
    link, other_link = (invite_create(game=game, user=user, role="watch") for _ in range(2))
    ticket = capability.issue(game.pk, "watch", link.pk)
    guest = Stream(server, f"/events/{ticket}")
    other_guest = Stream(server, f"/events/{capability.issue(game.pk, 'watch', other_link.pk)}")
    owner = Stream(server, f"/events/{capability.issue(game.pk, 'manage')}")
    try:
        assert guest.response.status == other_guest.response.status == 200
        invite_revoke(invite=link, user=user)
        # The page is told to ask for the sheet (which now answers 404), then the
        # stream ends; the same ticket opens nothing any more.
        assert json.loads(guest.event(timeout=5)["data"]) == {"v": None, "from": None}
        with pytest.raises(EOFError):
            guest.event(timeout=5)
        status, _, body = fetch(f"{server}/events/{ticket}")
        assert (status, body) == (403, b"This link to the game was revoked.\n")
        # Everyone else's stream goes on.
        hand_record(game=game, user=user, hand_input={"winner": players[1].pk})
        version = Game.objects.get(pk=game.pk).version
        for stream in (owner, other_guest):
            assert json.loads(stream.event()["data"])["v"] == version
    finally:
        for stream in (guest, other_guest, owner):
            stream.close()


# -- the sheet's side ---------------------------------------------------------------------


@pytest.fixture
def ana_client(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


@pytest.fixture
def three(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", created_by=user)


def poller(html: str) -> str:
    found = re.search(r'<div id="sheet-poller"[^>]*>', html, flags=re.S)
    assert found is not None
    return found.group(0)


def test_the_sheet_carries_its_stream_when_an_events_server_is_set(
    ana_client: Client, user: User, three: list[Player], settings: object
) -> None:
    game = make_game(user, "screw-your-neighbour", three, options=OPEN)
    html = ana_client.get(f"/games/{game.pk}/").content.decode()
    assert "data-events" not in poller(html)  # none configured: the phone polls

    settings.LIVE_EVENTS_URL = "/events/"  # type: ignore[attr-defined]
    html = ana_client.get(f"/games/{game.pk}/").content.decode()
    tag = poller(html)
    url = re.search(r'data-events="/events/([^"]+)"', tag)
    assert url is not None
    assert capability.check(url.group(1)) == capability.Capability(game.pk, "owner")
    assert f'data-version="{Game.objects.get(pk=game.pk).version}"' in tag
    assert "js/live.js" in html

    # A guest's ticket names the link they joined by.
    link = invite_create(game=game, user=user, role="score")
    guest = Client()
    assert guest.post(f"/join/{link.token}/", {"name": "Maya"}).status_code == 302
    tag = poller(guest.get(f"/games/{game.pk}/").content.decode())
    url = re.search(r'data-events="/events/([^"]+)"', tag)
    assert url is not None
    assert capability.check(url.group(1)) == capability.Capability(game.pk, "score", link.pk)

    hand_record(game=game, user=user, hand_input={"winner": three[1].pk})
    game_close(game=game, user=user)
    html = ana_client.get(f"/games/{game.pk}/").content.decode()
    assert "data-events" not in poller(html)  # a finished game is not watched


def test_after_an_event_only_the_changed_rows_are_sent(
    ana_client: Client, user: User, three: list[Player]
) -> None:
    game = make_game(user, "screw-your-neighbour", three, options=OPEN)
    for _ in range(30):
        hand_record(game=game, user=user, hand_input={"winner": three[1].pk})
    seen = Game.objects.get(pk=game.pk).version
    hand_record(game=game, user=user, hand_input={"winner": three[2].pk})
    now = Game.objects.get(pk=game.pk).version
    base = f"/games/{game.pk}/live/?v={seen}&hand=31"

    whole = ana_client.get(base, **HTMX).content.decode()
    delta = ana_client.get(f"{base}&from=31&to={now}", **HTMX).content.decode()
    assert len(re.findall(r'class="hand-row"', whole)) == 31
    assert re.findall(r'class="hand-row" data-hand="(\d+)"', delta) == ["31"]
    assert 'id="sheet-grid-delta"' in delta
    assert 'data-from="31"' in delta
    assert '<section id="sheet-grid" class="sheet-grid" hx-swap-oob' not in delta
    assert len(delta) < len(whole) / 2

    # Another change since the events the phone holds: the whole grid, to be safe.
    hand_record(game=game, user=user, hand_input={"winner": three[0].pk})
    stale = ana_client.get(f"{base}&from=31&to={now}", **HTMX).content.decode()
    assert "sheet-grid-delta" not in stale
    assert len(re.findall(r'class="hand-row"', stale)) == 32

    # An undo: no row, the phone drops its rows from that hand on.
    latest = Game.objects.get(pk=game.pk).version
    hand_undo(game=game, number=32, user=user)
    undone = ana_client.get(
        f"/games/{game.pk}/live/?v={latest}&hand=33&from=32&to={latest + 1}", **HTMX
    ).content.decode()
    assert 'data-from="32"' in undone
    assert "hand-row" not in undone


def test_bytes_after_a_change_do_not_grow_with_the_game(
    ana_client: Client, user: User, three: list[Player]
) -> None:
    sizes = []
    for hands in (5, 120):
        game = make_game(user, "screw-your-neighbour", three, options=OPEN)
        for _ in range(hands):
            hand_record(game=game, user=user, hand_input={"winner": three[1].pk})
        seen = Game.objects.get(pk=game.pk).version
        hand_record(game=game, user=user, hand_input={"winner": three[2].pk})
        url = f"/games/{game.pk}/live/?v={seen}&hand={hands + 1}&from={hands + 1}&to={seen + 1}"
        body = ana_client.get(url, **HTMX).content
        sizes.append(len(body))
    assert sizes[1] < sizes[0] * 1.1, sizes


def test_without_javascript_a_watcher_refreshes_and_a_scorer_is_told(
    client: Client, user: User, other_user: User, three: list[Player]
) -> None:
    bo = make_player("Bo", user=other_user, created_by=user)
    game = make_game(user, "screw-your-neighbour", [three[0], bo, three[2]], options=OPEN)
    client.force_login(other_user)  # seated: watches, cannot enter
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert '<noscript><meta http-equiv="refresh" content="20"></noscript>' in html
    client.force_login(user)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert '<meta http-equiv="refresh"' not in html  # it would wipe a hand being entered
    assert re.search(r"<noscript><p[^>]*><a href=\"/games/\d+/\">Reload</a> to see", html)

    hand_record(game=game, user=user, hand_input={"winner": bo.pk})
    game_close(game=game, user=user)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "<noscript>" not in html  # a finished game changes no more
