"""On PostgreSQL a write announces itself with NOTIFY in its own transaction: a listener
hears it once the write commits, and never when it rolls back; the events server's
LISTEN loop hands it to the game's subscribers.

    .ci/with-postgres.sh .venv/bin/pytest tests/scorekeeper/test_live_notify.py
"""

from __future__ import annotations

import asyncio
import json

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction

from scorekeeper.live import CHANNEL, notify, sources
from scorekeeper.live.asgi import EventsApp
from scorekeeper.live.hub import RESYNC, Hub
from scorekeeper.live.sources import conninfo, deliver, listen
from scorekeeper.models import Game
from scorekeeper.services.games import game_delete, hand_record, hand_replace, hand_undo
from scorekeeper.services.invites import invite_create, invite_revoke
from tests import aio
from tests.scorekeeper.factories import make_game, make_players

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="needs PostgreSQL: set DATABASE_URL=postgres://… (or use with-postgres.sh)",
    ),
    pytest.mark.django_db(transaction=True),
]


def heard(listener: psycopg.Connection, timeout: float = 1.0) -> list[str]:
    return [n.payload for n in listener.notifies(timeout=timeout, stop_after=10)]


@pytest.fixture
def listener() -> psycopg.Connection:
    conn = psycopg.connect(conninfo(connection.settings_dict), autocommit=True)
    conn.execute(f"LISTEN {CHANNEL}")
    yield conn
    conn.close()


def test_every_write_is_heard_on_commit(listener: psycopg.Connection, user: User) -> None:
    a, b, c = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", [a, b, c], options={"target_wins": 0})
    heard(listener, timeout=0.3)  # its creation
    v = Game.objects.get(pk=game.pk).version
    hand_record(game=game, user=user, hand_input={"winner": b.pk})
    hand_record(game=game, user=user, hand_input={"winner": c.pk})
    hand_replace(game=game, number=1, user=user, hand_input={"winner": a.pk})
    hand_undo(game=game, number=2, user=user)
    game_delete(game=game, user=user)
    g = game.pk
    payloads = heard(listener)
    # Each version names the moment it was saved, as the caches' keys do (the events
    # server finds the kept live answer by it); a deleted game has none.
    stamps = [notify.stamp_of(p) for p in payloads]
    assert all(stamps[:-1])
    assert stamps[-1] is None
    assert [" ".join(p.split()[:3]) for p in payloads] == [
        f"{g} {v + 1} 1",
        f"{g} {v + 2} 2",
        f"{g} {v + 3} 1",
        f"{g} {v + 4} 2",
        f"{g} - -",
    ]


def test_a_revoked_link_is_heard_and_ends_its_guests_streams(
    listener: psycopg.Connection, user: User
) -> None:
    a, b, c = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", [a, b, c], options={"target_wins": 0})
    link = invite_create(game=game, user=user, role="score")
    heard(listener, timeout=0.3)  # its creation
    invite_revoke(invite=link, user=user)
    invite_revoke(invite=link, user=user)  # again: nothing more to say
    payloads = heard(listener)
    assert payloads == [f"revoked {game.pk} {link.pk}"]
    hub = Hub()
    guest, owner = hub.subscribe(game.pk, link.pk), hub.subscribe(game.pk)
    assert deliver(hub, payloads[0]) == 1
    assert guest.queue.qsize() == 2  # told to resync, then ended
    assert owner.queue.empty()


def test_nothing_is_heard_of_a_write_rolled_back(listener: psycopg.Connection, user: User) -> None:
    a, b, c = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", [a, b, c], options={"target_wins": 0})
    heard(listener, timeout=0.3)  # its creation
    before_commit: list[str] = []

    def fail_after_the_write() -> None:
        with transaction.atomic():
            hand_record(game=game, user=user, hand_input={"winner": b.pk})
            before_commit.extend(heard(listener, timeout=0.5))
            raise RuntimeError("the request failed after the write")

    with pytest.raises(RuntimeError):
        fail_after_the_write()
    assert before_commit == []  # not before the commit either
    assert heard(listener) == []
    assert Game.objects.get(pk=game.pk).hand_count == 0


def test_the_listen_loop_hands_a_change_to_the_games_subscribers(user: User) -> None:
    a, b, c = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", [a, b, c], options={"target_wins": 0})
    dsn = conninfo(connection.settings_dict)

    def write() -> None:
        hand_record(game=game, user=user, hand_input={"winner": b.pk})
        connection.close()

    async def run() -> bytes | None:
        hub = Hub()
        phone, other = hub.subscribe(game.pk), hub.subscribe(game.pk + 1)
        ready = asyncio.Event()
        task = asyncio.create_task(listen(hub, dsn, ready))
        await asyncio.wait_for(ready.wait(), 10)
        await asyncio.to_thread(write)
        got = await phone.next(10)
        assert other.queue.empty()
        task.cancel()
        return got

    version = Game.objects.get(pk=game.pk).version + 1
    assert aio.run(run()) == (
        f'event: change\nid: {version}\ndata: {{"v":{version},"from":1}}\n\n'.encode()
    )


def test_a_link_revoked_while_the_listener_was_down_ends_its_stream_on_reconnecting(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its NOTIFY went to no one: once LISTENing again, every open guest stream's link
    is checked, and the revoked one's stream ends (the others go on)."""
    a, b, c = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", [a, b, c], options={"target_wins": 0})
    revoked, kept = (invite_create(game=game, user=user, role="watch") for _ in range(2))
    dsn = conninfo(connection.settings_dict)
    monkeypatch.setattr(sources, "RECONNECT_SECONDS", (1.0,))

    def drop_the_listener_and_revoke() -> None:
        with psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND query = %s",
                [f"LISTEN {CHANNEL}"],
            )
        invite_revoke(invite=revoked, user=user)
        connection.close()

    async def run() -> tuple[list[bytes | None], int]:
        hub = Hub()
        guest, other = hub.subscribe(game.pk, revoked.pk), hub.subscribe(game.pk, kept.pk)
        ready = asyncio.Event()
        task = asyncio.create_task(listen(hub, dsn, ready))
        await asyncio.wait_for(ready.wait(), 10)
        await asyncio.to_thread(drop_the_listener_and_revoke)
        told = [await guest.next(10) for _ in range(3)]
        task.cancel()
        return told, other.queue.qsize()

    told, others = aio.run(run())
    assert told == [RESYNC, RESYNC, None]  # the reconnection's resync, the revocation's, the end
    assert others == 1  # the resync after the reconnection, nothing else


def test_the_events_health_fails_while_the_listener_is_away(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``/events/health`` answers 503 from the moment the LISTEN connection is lost
    until it is back (a monitor sees the events server deaf to changes), then 200."""
    dsn = conninfo(connection.settings_dict)
    monkeypatch.setattr(sources, "RECONNECT_SECONDS", (1.5,))

    async def health(app: EventsApp) -> tuple[int, dict[str, object]]:
        sent: list[dict[str, object]] = []

        async def send(message: dict[str, object]) -> None:
            sent.append(message)

        async def receive() -> dict[str, object]:
            return {"type": "http.request", "body": b"", "more_body": False}

        scope = {"type": "http", "method": "GET", "path": "/events/health", "headers": []}
        await app(scope, receive, send)
        return int(sent[0]["status"]), json.loads(sent[1]["body"])  # type: ignore[arg-type]

    def drop_the_listener() -> None:
        with psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND query = %s",
                [f"LISTEN {CHANNEL}"],
            )

    async def run() -> list[tuple[int, dict[str, object]]]:
        app = EventsApp()
        answers = [await health(app)]
        await asyncio.to_thread(drop_the_listener)
        for _ in range(100):  # the loss is noticed at once
            if not app.ready.is_set():
                break
            await asyncio.sleep(0.01)
        monkeypatch.setattr("scorekeeper.live.asgi.HEALTH_GRACE_SECONDS", 0.1)
        answers.append(await health(app))
        monkeypatch.setattr("scorekeeper.live.asgi.HEALTH_GRACE_SECONDS", 5.0)
        answers.append(await health(app))  # waits out the reconnection
        await app.stop()
        return answers

    (up, _), (away, body), (back, _) = aio.run(run())
    assert (up, away, back) == (200, 503, 200)
    assert body["status"] == "failing"
    assert body["database"] == "out of reach"


def test_a_table_tool_change_reaches_the_games_phones_as_a_tools_event(user: User) -> None:
    """Starting the negotiation timer is a NOTIFY on commit, heard as a ``tools`` event
    by the game's phones only (no hand changed: no ``change`` event)."""
    from scorekeeper.services.table import TableAction, table_act

    players = make_players("Ana", "Bo", "Cy", "Di", created_by=user)
    game = make_game(user, "dirty-deals", players)
    dsn = conninfo(connection.settings_dict)

    def write() -> None:
        act = TableAction("timer-start")
        table_act(game=game, user=user, guest=None, act=act, hand=1)
        connection.close()

    async def run() -> tuple[bytes | None, bool]:
        hub = Hub()
        phone, other = hub.subscribe(game.pk), hub.subscribe(game.pk + 1)
        ready = asyncio.Event()
        task = asyncio.create_task(listen(hub, dsn, ready))
        await asyncio.wait_for(ready.wait(), 10)
        await asyncio.to_thread(write)
        got = await phone.next(10)
        task.cancel()
        return got, other.queue.empty()

    got, others_quiet = aio.run(run())
    assert others_quiet
    assert got is not None
    assert got.startswith(b"event: tools\ndata: ")
    said = json.loads(got.decode().split("data: ", 1)[1])
    # With what the timer now is: the phones need not ask.
    assert said["r"] == 1
    assert said["s"]["version"] == game.version
    assert said["s"]["hand"] == 1
    assert said["s"]["timer"]["running"] is True
