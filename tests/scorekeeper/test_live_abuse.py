"""The events server under abuse from one address: a thousand streams opened at once,
and a thousand half-sent requests, while a phone elsewhere keeps getting its events
(uvicorn in a thread with the server's own HTTP protocol, :mod:`scorekeeper.live.guard`)."""

from __future__ import annotations

import asyncio
import json
import resource
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User

from scorekeeper.live import capability, guard
from scorekeeper.models import Game
from scorekeeper.services.games import hand_record
from scorekeeper.services.invites import invite_create
from tests import aio
from tests.scorekeeper.events_server import Stream, events_server
from tests.scorekeeper.factories import make_game, make_players

pytestmark = pytest.mark.django_db(transaction=True)

MANY = 1000
CAP = 100


@pytest.fixture(autouse=True)
def enough_files() -> Iterator[None]:
    """Both ends of a thousand sockets live in this process."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def port_of(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


async def open_many(
    port: int, head: bytes, count: int = MANY
) -> list[tuple[bytes, asyncio.StreamWriter]]:
    """``count`` connections at once, each sending ``head``: (the status, or b"" if
    none came within 5 s; the writer)."""

    async def one() -> tuple[bytes, asyncio.StreamWriter]:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(head)
        try:
            line = await asyncio.wait_for(reader.readline(), 5.0)
        except (TimeoutError, OSError):
            line = b""
        return [*line.split(), b"", b""][1], writer

    return await asyncio.gather(*(one() for _ in range(count)))


def close_all(writers: list[asyncio.StreamWriter]) -> None:
    for writer in writers:
        writer.close()


def streams(base: str) -> int:
    with urllib.request.urlopen(f"{base}/events/health", timeout=5) as health:
        return int(json.loads(health.read())["streams"])


def test_a_thousand_guest_streams_at_once_get_the_cap_and_no_more(user: User) -> None:
    """Behind the proxy (one address for all, the client's in X-Forwarded-For): the
    app counts a stream before it checks the guest's link, so a thousand arriving
    together are held to the cap."""
    game = make_game(user, "screw-your-neighbour", make_players("Ana", "Bo", "Cy", created_by=user))
    link = invite_create(game=game, user=user, role="watch")
    ticket = capability.issue(game.pk, "watch", link.pk)
    head = f"GET /events/{ticket} HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.9\r\n\r\n"
    with events_server(max_per_address=CAP) as (base, app):

        async def run() -> Counter[bytes]:
            answers = await open_many(port_of(base), head.encode())
            counted = Counter(status for status, _ in answers)
            close_all([writer for _, writer in answers])
            return counted

        started = time.monotonic()
        assert aio.run(run()) == {b"200": CAP, b"429": MANY - CAP}
        assert time.monotonic() - started < 20
        deadline = time.monotonic() + 5
        while app.streams.held or streams(base):
            assert time.monotonic() < deadline, "closed streams kept their places"
            time.sleep(0.05)


def test_half_sent_requests_are_counted_and_dropped_while_a_phone_gets_its_events(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No proxy: 1,100 connections from one address that send half a request each.
    The cap counts them as they connect (one more is answered 429 at once), the head's
    deadline closes the others (making room for more), and a phone at another address
    keeps its stream and its events all along."""
    monkeypatch.setattr(guard, "HEAD_SECONDS", 2.0)
    players = make_players("Ana", "Bo", "Cy", created_by=user)
    game = make_game(user, "screw-your-neighbour", players, options={"target_wins": 0})
    with events_server(max_per_address=CAP, behind_proxy=False, keep_alive=1) as (base, app):
        phone = Stream(base, f"/events/{capability.issue(game.pk, 'watch')}", source="127.0.0.2")
        peak = 0
        enter = app.connections.enter

        def counted(address: str) -> bool:
            nonlocal peak
            admitted = enter(address)
            peak = max(peak, app.connections.held[address])
            return admitted

        monkeypatch.setattr(app.connections, "enter", counted)
        try:
            assert phone.response.status == 200

            async def abuse() -> tuple[Counter[bytes], dict[str, int]]:
                half = b"GET /events/health HTTP/1.1\r\nHost: x\r\n"
                answers = await open_many(port_of(base), half, MANY + CAP)
                deadline = time.monotonic() + 5
                while app.connections.held.get("127.0.0.1") and time.monotonic() < deadline:
                    await asyncio.sleep(0.1)  # until the head's deadline closed them
                held = dict(app.connections.held)
                close_all([writer for _, writer in answers])
                return Counter(status for status, _ in answers), held

            started = time.monotonic()
            answers, held = aio.run(abuse())
            # Never more than the cap at once: the rest refused, or closed unanswered.
            assert peak == CAP
            assert set(answers) == {b"", b"429"}
            assert answers[b"429"] >= MANY // 2
            assert held == {"127.0.0.2": 1}  # the half-sent ones were closed
            assert time.monotonic() - started < 20
            time.sleep(1.2)  # the poll has seen the game's version
            hand_record(game=game, user=user, hand_input={"winner": players[1].pk})
            event = phone.event(timeout=5)
            assert json.loads(event["data"])["v"] == Game.objects.get(pk=game.pk).version
            assert streams(base) == 1
        finally:
            phone.close()
