"""What version each watched game is at, and its table tools' revision, for the first
message of a stream.

A stream that opens tells its phone at once which version its game is at and which
revision its table tools are at (``hello``), so that only a phone that is behind asks
Django for the sheet or the tools: after a restart of the events server, 4,000 phones
reconnecting ask Django nothing when nothing changed.

Both come from the notifications this process already hears (every change says its
version, every tap on the tools its revision), and for a game not heard of since the
process started, from one query for all the games whose streams opened within
:data:`GATHER_SECONDS` — a reconnect storm costs a few queries, not one per phone.
Pure asyncio; the query is passed in."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

log = logging.getLogger("scorekeeper.live")

#: How long the first stream of a game not yet known waits for others to open, and the
#: least time between two reads (each opens a database connection: a few ms of CPU).
GATHER_SECONDS = 0.2

#: The games' (version, tools revision) by id; a game that is gone is absent.
Lookup = Callable[[list[int]], Awaitable[dict[int, tuple[int, int]]]]


class Versions:
    def __init__(self, lookup: Lookup, watches: Callable[[int], bool] = lambda game: True) -> None:
        self.lookup = lookup
        #: Whether a stream of this process still watches a game (the hub says).
        self.watches = watches
        self.known: dict[int, int] = {}
        #: The first hand the change that made each known game's version touched (its
        #: ``change`` event's ``from``), when that change was heard here.
        self.first: dict[int, int] = {}
        #: The revision of each known game's table tools (0: never used).
        self.tools: dict[int, int] = {}
        #: What the last tap heard here made each game's tools (its event's ``s``).
        self.shared: dict[int, dict[str, Any]] = {}
        self._waiting: dict[int, list[asyncio.Future[int | None]]] = {}
        self._gathering: asyncio.Task[None] | None = None

    def heard(self, game: int, version: int | None, first: int | None = None) -> None:
        """A change was announced (of a game some stream here watches: the streams
        forget their game when the last one ends); ``version`` None: it was deleted;
        ``first``: the first hand it touched, when it said."""
        if version is None:
            self.forget([game])
            return
        if version > self.known.get(game, 0):
            self.known[game] = version
            if first is None:
                self.first.pop(game, None)
            else:
                self.first[game] = first

    def heard_tools(self, game: int, revision: int, shared: dict[str, Any] | None = None) -> None:
        """A tap on the table tools was announced (of a game some stream here watches),
        with what it made them (``shared``, when it said)."""
        if revision > self.tools.get(game, 0):
            self.shared.pop(game, None)
        if shared is not None and revision >= self.tools.get(game, 0):
            self.shared[game] = shared
        self.tools[game] = max(revision, self.tools.get(game, 0))

    def tools_of(self, game: int) -> int | None:
        """The revision of ``game``'s table tools, once :meth:`of` answered (None:
        unknown)."""
        return self.tools.get(game) if game in self.known else None

    def shared_of(self, game: int) -> dict[str, Any] | None:
        """What the tools of ``game`` are at their known revision, at the game's known
        version, when a tap heard here said (None: not heard, or a hand came since)."""
        shared = self.shared.get(game)
        if shared is None or self.tools_of(game) is None:
            return None
        if shared.get("version") != self.known.get(game):
            return None
        return shared

    def first_of(self, game: int) -> int | None:
        """The first hand the change that made ``game``'s known version touched (None:
        not heard here, or it touched no hand): a phone one version behind asks for the
        rows from it on, the answer the phones that heard the change ask for."""
        return self.first.get(game) if game in self.known else None

    def forget(self, games: Iterable[int] | None = None) -> None:
        """Changes may have been missed (the listener reconnected): ask again."""
        if games is None:
            self.known.clear()
            self.tools.clear()
            self.first.clear()
            self.shared.clear()
        else:
            for game in games:
                self.known.pop(game, None)
                self.tools.pop(game, None)
                self.first.pop(game, None)
                self.shared.pop(game, None)

    async def of(self, game: int) -> int | None:
        """The version ``game`` is at; None when it is gone or the database cannot say."""
        if game in self.known:
            return self.known[game]
        future: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(game, []).append(future)
        if self._gathering is None or self._gathering.done():
            self._gathering = asyncio.get_running_loop().create_task(self._gather())
        return await future

    async def _gather(self) -> None:
        """Answer every waiting stream, a batch at a time (streams that open while a
        batch is read make the next one)."""
        while True:
            await asyncio.sleep(GATHER_SECONDS)
            if not self._waiting:
                return
            waiting, self._waiting = self._waiting, {}
            try:
                found = await self.lookup(list(waiting))
            except Exception as exc:  # the database is away: the phones ask Django
                log.warning("live: could not read the games' versions (%s)", exc)
                found = {}
            for game, (version, revision) in found.items():
                if self.watches(game):  # (a stream may have ended meanwhile)
                    self.heard(game, version)
                    self.heard_tools(game, revision)
            for game, futures in waiting.items():
                now = self.known.get(game, found[game][0] if game in found else None)
                for future in futures:
                    if not future.done():
                        future.set_result(now)
