"""The subscribers of one events process, by game. Pure asyncio, no Django.

A subscriber is one open event stream: a small queue of encoded messages. A change is
encoded once and the same bytes are queued for every subscriber of its game, so a
change costs one string and a queue put per phone, and an idle stream costs nothing
but its heartbeat."""

from __future__ import annotations

import asyncio
import json
from typing import Any

#: A phone that does not read its stream for this many messages is told to resync
#: instead (its queue is emptied): memory per subscriber stays bounded.
QUEUE_LIMIT = 16


def encode(version: int | None, first: int | None) -> bytes:
    """One server-sent event: ``{"v": version, "from": first}``. ``v`` None: what the
    sheet shows may be stale in ways the event cannot say (a deleted game, a missed
    change); the phone then asks for the whole sheet."""
    data = json.dumps({"v": version, "from": first}, separators=(",", ":"))
    head = f"id: {version}\n" if version is not None else ""
    return f"event: change\n{head}data: {data}\n\n".encode()


def encode_tools(revision: int | None, shared: dict[str, Any] | None = None) -> bytes:
    """The table's shared tools changed: ``{"r": revision}`` (the phone then asks for
    them; None: they may have, after a missed stretch), with ``"s"``: what every phone
    shows of them after the tap, when the tap said (``notify.tools_payload``), which a
    phone showing the game's version takes instead of asking."""
    said: dict[str, Any] = {"r": revision}
    if shared is not None:
        said["s"] = shared
    data = json.dumps(said, separators=(",", ":"))
    return f"event: tools\ndata: {data}\n\n".encode()


RESYNC = encode(None, None)


def hello(
    version: int | None,
    tools: int | None = None,
    first: int | None = None,
    shared: dict[str, Any] | None = None,
) -> bytes:
    """A stream's first event: the version its game is at and its table tools'
    revision (``{"v": 8, "r": 3}``), so that a phone showing both asks nothing; a
    version None: unknown (the phone asks for the sheet); no ``r``: the revision is
    unknown. ``f`` (when this process heard the change that made the version): the
    first hand that change touched, as its ``change`` event said, so that a phone one
    version behind asks for the same rows as the phones that heard it. ``s`` (when this
    process heard the tap that made the revision, at this version): what the tools are,
    as that tap's ``tools`` event said."""
    said: dict[str, Any] = {"v": version}
    if tools is not None:
        said["r"] = tools
        if shared is not None:
            said["s"] = shared
    if first is not None and version is not None:
        said["f"] = first
    data = json.dumps(said, separators=(",", ":"))
    return f"event: hello\ndata: {data}\n\n".encode()


#: An event, not a comment, so that the page sees it: a stream silent for much longer
#: is dead (a phone's network dropped it without a word) and is opened again.
HEARTBEAT = b"event: ping\ndata: 0\n\n"


class Subscriber:
    __slots__ = ("closed", "game", "invite", "queue", "variant")

    def __init__(
        self,
        game: int,
        invite: int | None = None,
        variant: tuple[str, bool, str, str] | None = None,
    ) -> None:
        self.game = game
        #: The link a guest joined by: revoking it ends this stream.
        self.invite = invite
        #: The answer this stream's phone can use (``live.pushed``): its ticket's kind,
        #: whether it names a link, the page's host and language.
        self.variant = variant or ("", invite is not None, "", "")
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.closed = False

    def put(self, message: bytes) -> None:
        if self.closed:
            return  # (ended: nothing more goes to it, whatever was queued before)
        if self.queue.qsize() >= QUEUE_LIMIT:
            while not self.queue.empty():
                self.queue.get_nowait()
            message = RESYNC
        self.queue.put_nowait(message)

    def close(self) -> None:
        """End the stream (the client went away, or the server stops)."""
        self.closed = True
        self.queue.put_nowait(None)

    async def next(self, timeout: float) -> bytes | None:
        """The next message; the heartbeat after ``timeout`` seconds of silence; None
        when the stream is to end."""
        try:
            async with asyncio.timeout(timeout):
                return await self.queue.get()
        except TimeoutError:
            return HEARTBEAT


class Hub:
    def __init__(self) -> None:
        self._games: dict[int, set[Subscriber]] = {}
        #: The process is stopping (:meth:`close_all`): a stream that opens now (its
        #: request already read, or its guest link being checked) ends at once, so
        #: that none is left open for the server's graceful-shutdown timeout to cancel.
        self.closing = False

    def subscribe(
        self,
        game: int,
        invite: int | None = None,
        variant: tuple[str, bool, str, str] | None = None,
    ) -> Subscriber:
        subscriber = Subscriber(game, invite, variant)
        self._games.setdefault(game, set()).add(subscriber)
        if self.closing:
            subscriber.close()
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        watchers = self._games.get(subscriber.game)
        if watchers is None:
            return
        watchers.discard(subscriber)
        if not watchers:
            del self._games[subscriber.game]

    def publish(self, game: int, message: bytes) -> int:
        """Queue ``message`` for every subscriber of ``game``; how many there were."""
        watchers = self._games.get(game, ())
        for subscriber in watchers:
            subscriber.put(message)
        return len(watchers)

    def subscribers(self, game: int) -> list[Subscriber]:
        """The open streams of ``game``."""
        return [s for s in self._games.get(game, ()) if not s.closed]

    def broadcast(self, message: bytes) -> int:
        """Queue ``message`` for every subscriber (after a missed stretch: resync)."""
        count = 0
        for game in list(self._games):
            count += self.publish(game, message)
        return count

    def revoke(self, game: int, invite: int) -> int:
        """End the streams of the guests who joined ``game`` by the link ``invite``,
        each told to resync first (its page then asks for the sheet and learns that
        the link is shut); how many there were."""
        ended = [s for s in self._games.get(game, ()) if s.invite == invite]
        for subscriber in ended:
            subscriber.put(RESYNC)
            subscriber.close()
        return len(ended)

    def invites(self) -> dict[int, int]:
        """Every link with an open stream: invite -> its game."""
        return {
            s.invite: game
            for game, watchers in self._games.items()
            for s in watchers
            if s.invite is not None
        }

    def close_all(self) -> None:
        """End every stream, and every one that opens until :meth:`reopen` (the
        process is stopping)."""
        self.closing = True
        for watchers in list(self._games.values()):
            for subscriber in list(watchers):
                subscriber.close()

    def reopen(self) -> None:
        """Streams stay open again (the app started anew in the same process)."""
        self.closing = False

    def watches(self, game: int) -> bool:
        return game in self._games

    def games(self) -> list[int]:
        return list(self._games)

    def __len__(self) -> int:
        return sum(len(w) for w in self._games.values())
