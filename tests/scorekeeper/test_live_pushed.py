"""The live answer pushed on the stream with a hand's event (``scorekeeper.live.pushed``):
a phone at the version before gets it with the event and need not ask; a phone whose
kind differs gets the event alone; a revoked guest gets nothing. On PostgreSQL (the
NOTIFY that names the version's stamp).

    .ci/with-postgres.sh .venv/bin/pytest tests/scorekeeper/test_live_pushed.py
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.live import capability
from scorekeeper.models import Game
from scorekeeper.services.invites import invite_create, invite_revoke
from tests.scorekeeper.events_server import Stream, events_server
from tests.scorekeeper.factories import make_game, make_players

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="needs PostgreSQL: set DATABASE_URL=postgres://… (or use with-postgres.sh)",
    ),
    pytest.mark.django_db(transaction=True),
]

HTMX = {"HTTP_HX_REQUEST": "true"}
HOST = "testserver"  # the host the test client's requests name: the answer's links use it


@pytest.fixture
def server() -> Iterator[str]:
    with events_server(heartbeat=5) as (base, _app):
        yield base


def saved_on_the_sheet(user: User, game: Game, number: int, winner: int) -> int:
    """Save hand ``number`` as the sheet's htmx form does; the game's version after."""
    phone = Client()
    phone.force_login(user)
    shown = Game.objects.get(pk=game.pk).version
    body = {"number": str(number), "winner": str(winner), "shown": str(shown)}
    assert phone.post(f"/games/{game.pk}/hands/", body, **HTMX).status_code == 200
    return Game.objects.get(pk=game.pk).version


def opened(server: str, game: int, kind: str, invite: int | None = None) -> Stream:
    stream = Stream(server, f"/events/{capability.issue(game, kind, invite)}?host={HOST}")
    assert stream.response.status == 200
    stream.event(hello=True)  # (open, and its game's version known)
    return stream


def fresh(stream: Stream, version: int) -> dict[str, Any]:
    """The stream's next event about ``version``: a change before it (the game's start,
    told after the stream subscribed: queued, not lost) is passed over."""
    event = stream.event()
    while event["event"] == "change" and (json.loads(event["data"])["v"] or 0) < version:
        event = stream.event()
    return event


def test_a_hand_saved_on_the_sheet_goes_out_with_its_answer_to_phones_of_that_kind(
    server: str, user: User
) -> None:
    players = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", players, options={"target_wins": 0})
    owner_phone, watcher = opened(server, game.pk, "owner"), opened(server, game.pk, "watch")
    # A league's admin manages the game too, but may lose that while the stream is open:
    # never pushed to, it asks Django, which checks its access every time.
    admin = opened(server, game.pk, "manage")
    try:
        version = saved_on_the_sheet(user, game, 1, players[1].pk)
        answer = fresh(owner_phone, version)
        assert answer["event"] == "answer"
        head, _, html = answer["data"].partition("\n")
        assert json.loads(head) == {"v": version, "hand": 1}
        # The answer a phone at the version before gets from live/ (the rows from hand 1
        # on, the notice, the entry for hand 2), as it is kept for the owner's kind.
        other = Client()
        other.force_login(user)
        asked = other.get(
            f"/games/{game.pk}/live/?v={version - 1}&hand=1&sse=1&from=1&to={version}", **HTMX
        )
        assert html.strip() == asked.content.decode().strip()
        assert "Hand 1 was saved on another phone." in html
        change = owner_phone.event()
        assert (change["event"], json.loads(change["data"])) == (
            "change",
            {"v": version, "from": 1},
        )
        # A watching phone's answer has no entry form: none was kept for its kind, so
        # its event comes alone and it asks, as before.
        for stream in (watcher, admin):
            alone = fresh(stream, version)
            assert (alone["event"], json.loads(alone["data"])["v"]) == ("change", version)
        # The next hand: the same again, the answer the new version's.
        version = saved_on_the_sheet(user, game, 2, players[2].pk)
        answer = owner_phone.event()
        assert answer["event"] == "answer"
        assert json.loads(answer["data"].partition("\n")[0]) == {"v": version, "hand": 2}
        assert owner_phone.event()["event"] == "change"
    finally:
        for stream in (owner_phone, watcher, admin):
            stream.close()


def test_a_phone_of_another_host_gets_the_event_alone(server: str, user: User) -> None:
    """The answer's links are absolute: one made for another host is not pushed."""
    players = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", players, options={"target_wins": 0})
    stream = Stream(server, f"/events/{capability.issue(game.pk, 'owner')}?host=elsewhere.test")
    try:
        stream.event(hello=True)
        version = saved_on_the_sheet(user, game, 1, players[1].pk)
        event = fresh(stream, version)
        assert (event["event"], json.loads(event["data"])["v"]) == ("change", version)
    finally:
        stream.close()


def test_an_answer_goes_only_to_phones_of_its_language(server: str, user: User) -> None:
    """The hand saved on an English page is pushed to the English phone; the German one
    gets the event alone and asks for its own answer, in German."""
    players = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", players, options={"target_wins": 0})
    ticket = capability.issue(game.pk, "owner")
    english = Stream(server, f"/events/{ticket}?host={HOST}&lang=en")
    german = Stream(server, f"/events/{ticket}?host={HOST}&lang=de")
    try:
        english.event(hello=True)
        german.event(hello=True)
        version = saved_on_the_sheet(user, game, 1, players[1].pk)
        assert fresh(english, version)["event"] == "answer"
        event = fresh(german, version)
        assert (event["event"], json.loads(event["data"])["v"]) == ("change", version)
    finally:
        english.close()
        german.close()


def test_a_revoked_guest_gets_no_answer(server: str, user: User) -> None:
    players = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", players, options={"target_wins": 0})
    link = invite_create(game=game, user=user, role="score")
    guest = opened(server, game.pk, "score", link.pk)
    try:
        invite_revoke(invite=link, user=user)
        assert json.loads(guest.event(timeout=5)["data"]) == {"v": None, "from": None}
        with pytest.raises(EOFError):
            guest.event(timeout=5)
        saved_on_the_sheet(user, game, 1, players[1].pk)
        time.sleep(0.5)
    finally:
        guest.close()
    # Its ticket opens no stream any more, so nothing of the hand can reach it.
    again = Stream(server, f"/events/{capability.issue(game.pk, 'score', link.pk)}?host={HOST}")
    assert again.response.status == 403
    again.close()
