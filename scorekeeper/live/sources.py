"""Where an events process learns that a game changed.

On PostgreSQL: one ``LISTEN`` connection per process (psycopg 3, async), whatever the
number of phones; the writes ``NOTIFY`` on commit (:mod:`.notify`). If the connection
drops, it reconnects, tells every phone to resync (changes may have been missed) and
checks every open guest stream's link again (a revocation may have been missed too).

On SQLite (development, tests): one query a second for the versions of every game a
phone watches, in batches; a change is announced without its first hand (the phone
then asks for the whole sheet). The same round looks for revoked links among the
guests' streams (on PostgreSQL the revocation is a notification like any change)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from scorekeeper.live import CHANNEL, notify
from scorekeeper.live.hub import RESYNC, Hub, encode, encode_tools
from scorekeeper.live.pushed import Pusher
from scorekeeper.live.versions import Versions
from scorekeeper.outages import first_line

log = logging.getLogger("scorekeeper.live")

POLL_SECONDS = 1.0
RECONNECT_SECONDS = (0.5, 1, 2, 5, 10)
BATCH = 500

T = TypeVar("T")


async def orm(query: Callable[..., T], *args: Any) -> T:
    """``query(*args)`` in Django's thread, on a fresh connection given back afterwards on
    PostgreSQL (where this process otherwise holds none but its ``LISTEN`` one)."""
    from asgiref.sync import sync_to_async
    from django.db import close_old_connections, connection

    def run() -> T:
        close_old_connections()
        try:
            return query(*args)
        finally:
            if connection.vendor == "postgresql":
                connection.close()

    return await sync_to_async(run, thread_sensitive=True)()


def conninfo(database: Mapping[str, Any]) -> str:
    """A libpq connection string from Django's ``DATABASES`` entry."""
    from psycopg.conninfo import make_conninfo

    options = {
        "dbname": database.get("NAME") or None,
        "user": database.get("USER") or None,
        "password": database.get("PASSWORD") or None,
        "host": database.get("HOST") or None,
        "port": str(database["PORT"]) if database.get("PORT") else None,
    }
    for key in ("sslmode", "sslrootcert", "sslcert", "sslkey", "options"):
        value = (database.get("OPTIONS") or {}).get(key)
        if value:
            options[key] = str(value)
    return make_conninfo(**{k: v for k, v in options.items() if v is not None})


def deliver(
    hub: Hub, text: str, versions: Versions | None = None, pusher: Pusher | None = None
) -> int:
    """Publish one NOTIFY payload to the subscribers of its game (a revoked link: end
    its guests' streams), noting the game's version for the streams that open next.
    With a ``pusher``, a change that names its version's stamp goes out with the kept
    live answer of that version (:mod:`.pushed`), once it is read."""
    revoked = notify.parse_revoked(text)
    if revoked is not None:
        return hub.revoke(*revoked)
    tools = notify.parse_tools(text)
    if tools is not None:
        tapped, revision_now, shared = tools
        if versions is not None and hub.watches(tapped):
            versions.heard_tools(tapped, revision_now, shared)
        said = encode_tools(revision_now, shared)
        if pusher is not None and pusher.waiting(tapped):  # after the change before it
            pusher.publish(hub, tapped, said)
            return len(hub.subscribers(tapped))
        return hub.publish(tapped, said)
    parsed = notify.parse(text)
    if parsed is None:
        log.warning("live: ignored a malformed notification %r", text)
        return 0
    game, version, first = parsed
    if versions is not None and hub.watches(game):
        versions.heard(game, version, first)
    stamp = notify.stamp_of(text)
    if pusher is not None and version is not None and first is not None and stamp is not None:
        watchers = len(hub.subscribers(game))
        if watchers:
            revision = versions.tools_of(game) if versions is not None else None
            pusher.push(hub, game, version, first, stamp, revision)
        return watchers
    if pusher is not None and pusher.waiting(game):  # after the change before it
        pusher.publish(hub, game, encode(version, first))
        return len(hub.subscribers(game))
    return hub.publish(game, encode(version, first))


async def listen(
    hub: Hub,
    dsn: str,
    ready: asyncio.Event | None = None,
    versions: Versions | None = None,
    pusher: Pusher | None = None,
) -> None:
    """Forward every notification on :data:`CHANNEL` to the hub, for ever."""
    import psycopg

    failures = 0
    connected_before = False
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
                await conn.execute(f"LISTEN {CHANNEL}")
                if connected_before:
                    if versions is not None:
                        versions.forget()  # changes may have been missed
                    hub.broadcast(RESYNC)
                    await end_revoked(hub)
                connected_before = True
                failures = 0
                if ready is not None:
                    ready.set()
                async for note in conn.notifies():
                    deliver(hub, note.payload, versions, pusher)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the database restarted, the network dropped…
            if ready is not None:
                ready.clear()  # the health check says so until LISTENing again
            delay = RECONNECT_SECONDS[min(failures, len(RECONNECT_SECONDS) - 1)]
            failures += 1
            log.warning("live: LISTEN connection lost (%s); again in %ss", first_line(exc), delay)
            await asyncio.sleep(delay)


async def end_revoked(hub: Hub) -> None:
    """End the streams of guests whose link was revoked (or deleted with its game)."""
    links = hub.invites()
    for invite in await orm(_revoked, list(links)) if links else []:
        hub.revoke(links[invite], invite)


def _revoked(invites: Iterable[int]) -> list[int]:
    """Which of these links were revoked (or deleted with their game)."""
    from scorekeeper.models import Invite

    ids = list(invites)
    live: set[int] = set()
    for start in range(0, len(ids), BATCH):
        chunk = ids[start : start + BATCH]
        live.update(
            Invite.objects.filter(pk__in=chunk, revoked_at__isnull=True).values_list(
                "pk", flat=True
            )
        )
    return [i for i in ids if i not in live]


def invite_is_live(game: int, invite: int) -> bool:
    """Whether a guest's link still lets them into the game (checked once, when their
    stream opens: a revoked link's old ticket opens nothing)."""
    from django.db.models import Q

    from scorekeeper.models import Invite

    of_game = Q(game_id=game) | Q(night__games__id=game)
    return Invite.objects.filter(of_game, pk=invite, revoked_at__isnull=True).exists()


def _versions(ids: Iterable[int]) -> dict[int, int]:
    return {game: version for game, (version, _) in _seen(ids).items()}


def _seen(ids: Iterable[int]) -> dict[int, tuple[int, int]]:
    """Each game's version and its table tools' revision (0: never used), one query a
    batch."""
    from scorekeeper.models import Game

    found: dict[int, tuple[int, int]] = {}
    ids = list(ids)
    for start in range(0, len(ids), BATCH):
        chunk = ids[start : start + BATCH]
        rows = Game.objects.filter(pk__in=chunk).values_list(
            "pk", "version", "tablestate__revision"
        )
        found.update((pk, (version, revision or 0)) for pk, version, revision in rows)
    return found


def _tool_revisions(ids: Iterable[int]) -> dict[int, int]:
    """The revision of each watched game's shared table tools (games without: absent)."""
    from scorekeeper.models import TableState

    found: dict[int, int] = {}
    ids = list(ids)
    for start in range(0, len(ids), BATCH):
        chunk = ids[start : start + BATCH]
        found.update(
            TableState.objects.filter(game_id__in=chunk).values_list("game_id", "revision")
        )
    return found


async def versions_of(games: list[int]) -> dict[int, tuple[int, int]]:
    """The versions and tools revisions of these games (one query a batch), for
    :class:`Versions`."""
    return await orm(_seen, games)


async def poll(
    hub: Hub,
    interval: float = POLL_SECONDS,
    ready: asyncio.Event | None = None,
    versions: Versions | None = None,
) -> None:
    """Compare the watched games' versions once every ``interval`` seconds."""

    def read(
        ids: list[int], invites: list[int]
    ) -> tuple[dict[int, int], list[int], dict[int, int]]:
        return _versions(ids), _revoked(invites) if invites else [], _tool_revisions(ids)

    known: dict[int, int | None] = {}
    known_tools: dict[int, int | None] = {}
    failing = ""
    while True:
        ids = hub.games()
        if ids:
            links = hub.invites()
            found: tuple[dict[int, int], list[int], dict[int, int]] | None
            try:
                found = await orm(read, ids, list(links))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if str(exc) != failing:  # once, not every second
                    log.warning("live: version poll failed (%s)", first_line(exc))
                failing = str(exc)
                found = None
                if ready is not None:
                    ready.clear()
            else:
                failing = ""
            if found is not None:
                now, revoked, tools = found
                for invite in revoked:
                    hub.revoke(links[invite], invite)
                for game in ids:
                    version = now.get(game)
                    # A game this loop has not read yet: its streams' hello said the
                    # version read for them, maybe before a change this round sees.
                    told = versions.known.get(game) if versions is not None else None
                    before = known.get(game, told)
                    if versions is not None:
                        versions.heard(game, version)
                    if (game in known or told is not None) and before != version:
                        hub.publish(game, encode(version, None))
                    known[game] = version
                    revision = tools.get(game)
                    if versions is not None and version is not None:
                        versions.heard_tools(game, revision or 0)
                    # A game first seen here: its phones read the tools when their
                    # stream opened, maybe just before a change this round sees.
                    seen = known_tools.get(game) if game in known_tools else None
                    if revision != seen:
                        hub.publish(game, encode_tools(revision))
                    known_tools[game] = revision
                for game in set(known) - set(ids):
                    del known[game]
                    known_tools.pop(game, None)
        if ready is not None and not failing:
            ready.set()
        await asyncio.sleep(interval)
