"""A tap's ``tools`` event says what the tools now are (``s``), so that the table's other
phones take it instead of each reading ``games/<pk>/table/``: what it says is what a
read gives every viewer (but for the viewer's own parts: the hand's tools, whether it
may change them, the ETag, the leader's name); a tap made on a game read before a hand
was saved says nothing (the phones ask); the events server passes it on, and says it in
a stream's ``hello`` while it holds for the game's version."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeeper.live import capability, notify
from scorekeeper.live.hub import Hub, hello
from scorekeeper.live.sources import deliver
from scorekeeper.live.versions import Versions
from scorekeeper.models import Game
from scorekeeper.selectors.table import hand_in_play
from scorekeeper.services.games import hand_record
from scorekeeper.services.table import TableAction, table_act
from scorekeeper.web.table import state_of
from tests import aio
from tests.scorekeeper.factories import make_game, make_player, make_user

#: What every viewer's read has of the event's state (the rest is the viewer's own).
SHARED = ("revision", "hand", "penalty", "clockwise", "leader", "version")


@pytest.fixture
def told(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int, dict[str, Any] | None]]:
    """What each tap tells the events servers (on SQLite nothing is sent: caught here)."""
    said: list[tuple[int, int, dict[str, Any] | None]] = []
    monkeypatch.setattr(
        "scorekeeper.services.table.live.tools_changed",
        lambda game, revision, shared=None: said.append((game, revision, shared)),
    )
    return said


def _table(ruleset: str) -> tuple[Game, User, Client, list[int]]:
    owner = make_user("ana")
    names = ("Ana", "Bo", "Cy", "Di") if ruleset == "dirty-deals" else ("Ana", "Bo", "Cy")
    players = [make_player(n, created_by=owner) for n in names]
    game = make_game(owner, ruleset, players)
    client = Client()
    client.force_login(owner)
    return game, owner, client, [p.pk for p in players]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("ruleset", "taps"),
    [
        ("dirt", [{"action": "penalty-add", "amount": "5"}, {"action": "direction-flip"}]),
        ("damn-you", [{"action": "leader", "player": "second"}]),
        ("dirty-deals", [{"action": "timer-start"}]),
        ("dirty-deals", [{"action": "timer-start"}, {"action": "timer-pause"}]),
    ],
)
def test_a_taps_event_says_what_a_read_of_the_tools_then_gives(
    told: list[Any], ruleset: str, taps: list[dict[str, str]]
) -> None:
    game, _owner, client, players = _table(ruleset)
    url = reverse("game_table", args=[game.pk])
    for tap in taps:
        if tap.get("player") == "second":
            tap = {**tap, "player": str(players[1])}
        assert client.post(url, tap).status_code == 200
    read = client.get(url).json()
    game_id, revision, shared = told[-1]
    assert (game_id, revision) == (game.pk, len(taps))
    assert shared is not None
    assert {k: shared[k] for k in SHARED} == {k: read[k] for k in SHARED}
    if read["timer"] is None:
        assert shared["timer"] is None
    else:
        said, now = shared["timer"], read["timer"]
        assert (said["state"], said["running"], said["seconds"]) == (
            now["state"],
            now["running"],
            now["seconds"],
        )
        if now["running"]:  # the same moment on the server's clock, to the ms
            assert abs(said["ends_at"] - now["ends_at"]) <= 2
        else:
            assert said["remaining"] == now["remaining"]
    assert shared["server_now"] <= read["server_now"]
    # Small enough for a NOTIFY (8,000 bytes), and read back as it was said.
    payload = notify.tools_payload(game.pk, revision, shared)
    assert len(payload.encode()) < 1000
    assert notify.parse_tools(payload) == (game.pk, revision, shared)


@pytest.mark.django_db
def test_a_tap_on_a_game_read_before_a_hand_was_saved_says_nothing(told: list[Any]) -> None:
    """The hand in play the tap was made for is the caller's: a hand saved meanwhile
    makes it another one, and the phones ask what the tools are."""
    game, owner, _client, players = _table("dirt")
    read = Game.objects.get(pk=game.pk)
    state, _names = state_of(read)
    hand_record(
        game=game,
        user=owner,
        hand_input={
            "winner": players[0],
            "results": [{"player": players[1], "points": 10}, {"player": players[2], "points": 5}],
        },
    )
    act = TableAction("penalty-add", amount=2)
    table_act(game=read, user=owner, guest=None, act=act, hand=hand_in_play(state))
    assert told[-1][2] is None
    fresh = Game.objects.get(pk=game.pk)
    state, _names = state_of(fresh)
    table_act(game=fresh, user=owner, guest=None, act=act, hand=hand_in_play(state))
    assert told[-1][2] is not None
    assert told[-1][2]["hand"] == 2


def test_a_tools_notification_without_a_readable_state_is_the_revision_alone() -> None:
    hub = Hub()
    phone = hub.subscribe(7)
    for text in ("tools 7 3 {not json", "tools 7 3 [1,2]", "tools 7 3"):
        assert notify.parse_tools(text) == (7, 3, None)
        assert deliver(hub, text) == 1
        assert phone.queue.get_nowait() == b'event: tools\ndata: {"r":3}\n\n'
    assert notify.parse_tools("tools 7 x {}") is None


def test_the_events_server_passes_the_state_on_and_says_it_in_a_hello_at_its_version() -> None:
    async def lookup(games: list[int]) -> dict[int, tuple[int, int]]:
        return dict.fromkeys(games, (4, 0))

    async def run() -> None:
        hub = Hub()
        versions = Versions(lookup, hub.watches)
        phone = hub.subscribe(7)
        assert await versions.of(7) == 4
        shared = {"revision": 1, "version": 4, "hand": 2, "penalty": 5, "timer": None}
        assert deliver(hub, notify.tools_payload(7, 1, shared), versions) == 1
        event = phone.queue.get_nowait().decode()
        assert event.startswith("event: tools\ndata: ")
        assert json.loads(event.split("data: ", 1)[1]) == {"r": 1, "s": shared}
        # A stream opening now is told the state with the revision.
        assert versions.shared_of(7) == shared
        said = hello(4, versions.tools_of(7), versions.first_of(7), versions.shared_of(7))
        assert json.loads(said.decode().split("data: ", 1)[1]) == {"v": 4, "r": 1, "s": shared}
        # A later tap that did not say: not the older state.
        deliver(hub, notify.tools_payload(7, 2), versions)
        assert versions.shared_of(7) is None
        deliver(hub, notify.tools_payload(7, 3, {**shared, "revision": 3}), versions)
        assert versions.shared_of(7) is not None
        # A hand saved since: the state is of the version before (the phones ask).
        deliver(hub, notify.payload(7, 5, 2), versions)
        assert versions.shared_of(7) is None
        versions.forget([7])
        assert versions.shared == {}

    aio.run(run())


@pytest.mark.postgres
@pytest.mark.skipif(
    "postgresql" not in settings.DATABASES["default"]["ENGINE"],
    reason="needs PostgreSQL: set DATABASE_URL=postgres://… (or use with-postgres.sh)",
)
@pytest.mark.django_db(transaction=True)
def test_a_tap_reaches_the_stream_with_the_state_a_read_gives() -> None:
    from tests.scorekeeper.events_server import Stream, events_server

    game, _owner, client, _players = _table("dirt")
    url = reverse("game_table", args=[game.pk])
    with events_server(heartbeat=5) as (base, _app):
        stream = Stream(base, f"/events/{capability.issue(game.pk, 'watch')}")
        try:
            stream.event(hello=True)
            assert client.post(url, {"action": "penalty-add", "amount": "5"}).status_code == 200
            event = stream.event()
            while event["event"] != "tools":
                event = stream.event()
            said = json.loads(event["data"])
            read = client.get(url).json()
            assert said["r"] == read["revision"] == 1
            assert {k: said["s"][k] for k in SHARED} == {k: read[k] for k in SHARED}
        finally:
            stream.close()


def test_a_tap_heard_while_its_hands_answer_is_read_goes_out_after_the_hand() -> None:
    """A hand then a tap (Dirty Deals: the timer started for the new hand): the tap's
    event waits for the hand's, whose kept answer is read in a thread, so a phone hears
    the version before the state made at it."""
    from scorekeeper.live.hub import encode, encode_tools
    from scorekeeper.live.pushed import Pusher

    class SlowReader:
        async def read(self, keys: Any) -> dict[str, Any]:
            list(keys)
            await asyncio.sleep(0.05)
            return {}

    async def heard() -> list[bytes | None]:
        hub, pusher = Hub(), Pusher(SlowReader())  # type: ignore[arg-type]
        phone = hub.subscribe(5, None, ("owner", False, "h", "en"))
        shared = {"version": 9, "hand": 9, "penalty": 0}
        deliver(hub, notify.payload(5, 9, 8, "1795844960.5"), pusher=pusher)
        deliver(hub, notify.tools_payload(5, 4, shared), pusher=pusher)
        await pusher.idle()
        phone.close()
        return [await phone.next(1) for _ in range(phone.queue.qsize())]

    shared = {"version": 9, "hand": 9, "penalty": 0}
    assert aio.run(heard()) == [encode(9, 8), encode_tools(4, shared), None]
