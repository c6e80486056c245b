"""What version each watched game is at, for the first message of a stream.

A stream that opens tells its phone at once which version its game is at (``hello``),
so that only a phone that is behind asks Django for the sheet: after a restart of the
events server, 4,000 phones reconnecting ask Django nothing when nothing changed.

The versions come from the notifications this process already hears (every change says
its version), and for a game not heard of since the process started, from one query
for all the games whose streams opened within :data:`GATHER_SECONDS` — a reconnect
storm costs a few queries, not one per phone. Pure asyncio; the query is passed in."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable

log = logging.getLogger("scorekeeper.live")

#: How long the first stream of a game not yet known waits for others to open, and the
#: least time between two reads (each opens a database connection: a few ms of CPU).
GATHER_SECONDS = 0.2

Lookup = Callable[[list[int]], Awaitable[dict[int, int]]]


class Versions:
    def __init__(self, lookup: Lookup, watches: Callable[[int], bool] = lambda game: True) -> None:
        self.lookup = lookup
        #: Whether a stream of this process still watches a game (the hub says).
        self.watches = watches
        self.known: dict[int, int] = {}
        self._waiting: dict[int, list[asyncio.Future[int | None]]] = {}
        self._gathering: asyncio.Task[None] | None = None

    def heard(self, game: int, version: int | None) -> None:
        """A change was announced (of a game some stream here watches: the streams
        forget their game when the last one ends); ``version`` None: it was deleted."""
        if version is None:
            self.known.pop(game, None)
        else:
            self.known[game] = max(version, self.known.get(game, 0))

    def forget(self, games: Iterable[int] | None = None) -> None:
        """Changes may have been missed (the listener reconnected): ask again."""
        if games is None:
            self.known.clear()
        else:
            for game in games:
                self.known.pop(game, None)

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
            for game, version in found.items():
                if self.watches(game):  # (a stream may have ended meanwhile)
                    self.heard(game, version)
            for game, futures in waiting.items():
                now = self.known.get(game, found.get(game))
                for future in futures:
                    if not future.done():
                        future.set_result(now)
