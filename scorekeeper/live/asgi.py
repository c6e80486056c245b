"""The events server: server-sent events for the phones watching a sheet.

    python -m scorekeeper.live --host 127.0.0.1 --port 8001

``GET /events/<capability>`` opens a stream for the game the capability names
(:mod:`.capability`: a signature check, no session, no database); ``GET /events/health``
answers whether this process hears the database's changes (``503`` while its listener
reconnects) and how many streams it holds. Everything else is 404. ``/events/`` is
the path of ``LIVE_EVENTS_URL`` when it has one (``/scores/events/`` for an app served
under ``/scores/``), so a proxy passes the phones' requests on unchanged. A guest's ticket
names their link: the stream opens only while the link is live (one query) and ends
when it is revoked. What one client address may hold open is counted by nginx in front
(``limit_conn``: ``429`` beyond, and the page then polls), which also closes a connection
whose request head is late. Each process keeps one source of changes (:mod:`.sources`)
and its open streams, nothing else: run as many as you like (``--workers``), behind the
same proxy path, on one PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
django.setup()

from django.conf import settings  # noqa: E402

from scorekeeper.live import capability, sources  # noqa: E402
from scorekeeper.live.hub import Hub, hello  # noqa: E402
from scorekeeper.live.pushed import Pusher  # noqa: E402
from scorekeeper.live.versions import Versions  # noqa: E402
from scorekeeper.outages import first_line  # noqa: E402

log = logging.getLogger("scorekeeper.live")

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

#: Where the events server answers when ``LIVE_EVENTS_URL`` names no path.
DEFAULT_PATH = "/events/"
#: A comment line this often keeps proxies and phones from closing an idle stream.
HEARTBEAT_SECONDS = 25.0
#: How long the health check waits for a listener that is (re)connecting.
HEALTH_GRACE_SECONDS = 2.0
#: How long a phone waits before reconnecting after the stream broke (EventSource).
RETRY_MS = 3000

STREAM_HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-store"),
    # nginx: pass each event on at once instead of buffering the response
    (b"x-accel-buffering", b"no"),
    # The capability is the credential (no cookies): any page origin may open it, as
    # `make run` does from the dev server's port.
    (b"access-control-allow-origin", b"*"),
]


class EventsApp:
    def __init__(self, *, heartbeat: float = HEARTBEAT_SECONDS) -> None:
        self.hub = Hub()
        #: The version of each watched game, for a stream's first event (``hello``).
        self.versions = Versions(sources.versions_of, watches=self.hub.watches)
        #: The path the pages' stream URLs start with (settings.LIVE_EVENTS_URL).
        self.prefix = urlsplit(settings.LIVE_EVENTS_URL).path or DEFAULT_PATH
        self.heartbeat = heartbeat
        #: Sends each hand's kept live answer with its event (:mod:`.pushed`).
        self.pusher = Pusher()
        self.ready = asyncio.Event()
        self._source: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- the source of changes -----------------------------------------------------------

    def start(self) -> None:
        if self._source is not None and not self._source.done():
            return
        self.ready = asyncio.Event()
        self.hub.reopen()
        database = settings.DATABASES["default"]
        if database["ENGINE"] == "django.db.backends.postgresql":
            runner = sources.listen(
                self.hub,
                sources.conninfo(database),
                self.ready,
                versions=self.versions,
                pusher=self.pusher,
            )
        else:
            runner = sources.poll(self.hub, ready=self.ready, versions=self.versions)
        self._loop = asyncio.get_running_loop()
        self._source = self._loop.create_task(runner)
        self._end_streams_on_exit()

    async def _health(self, send: Send) -> None:
        """200 while this process hears the database's changes (its LISTEN connection,
        or the poll on SQLite, answers), else 503; with its stream and game counts."""
        if not self.ready.is_set():  # just started, or reconnecting: a moment's grace
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.ready.wait(), HEALTH_GRACE_SECONDS)
        hearing = self.ready.is_set()
        body = {
            "status": "ok" if hearing else "failing",
            "database": "listening" if hearing else "out of reach",
            "streams": len(self.hub),
            "games": len(self.hub.games()),
        }
        await _plain(
            send,
            200 if hearing else 503,
            json.dumps(body).encode(),
            [(b"content-type", b"application/json")],
            retry_after=None if hearing else 10,
        )

    def _end_streams_on_exit(self) -> None:
        """On SIGTERM/SIGINT end every stream at once, then let the server's own handler
        stop it: it waits for open requests, and a stream never ends by itself. The
        phones reconnect (to this server restarted, or another) a few seconds later."""
        loop = self._loop
        assert loop is not None

        def chain(previous: Any) -> Callable[[int, Any], None]:
            def handler(signum: int, frame: Any) -> None:
                loop.call_soon_threadsafe(self.hub.close_all)
                if callable(previous):
                    previous(signum, frame)

            return handler

        for signum in (signal.SIGTERM, signal.SIGINT):
            try:
                signal.signal(signum, chain(signal.getsignal(signum)))
            except ValueError:  # not the main thread (a server in a test's thread)
                return

    def close_streams_threadsafe(self) -> None:
        """End every open stream, from another thread (before stopping the server)."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.hub.close_all)

    async def stop(self) -> None:
        self.hub.close_all()
        with contextlib.suppress(Exception):
            await self.pusher.reader.release()
        if self._source is not None:
            self._source.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._source
            self._source = None

    # -- ASGI ----------------------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        self.start()
        path: str = scope["path"]
        prefix = self.prefix
        if scope["method"] not in ("GET", "HEAD"):
            await _plain(send, 405, b"GET only\n", [(b"allow", b"GET")])
        elif path == prefix + "health":
            await self._health(send)
        elif path.startswith(prefix) and "/" not in path[len(prefix) :]:
            granted = capability.check(path[len(prefix) :])
            if granted is None:
                await _plain(send, 403, b"This link to the live sheet expired: reload.\n")
            elif scope["method"] == "HEAD":
                await _plain(send, 200, b"", STREAM_HEADERS)
            else:
                live = granted.invite is None or await _invite_is_live(granted.game, granted.invite)
                if live:
                    variant = (
                        granted.kind,
                        granted.invite is not None,
                        _host(scope),
                        _language(scope),
                    )
                    await self._stream(
                        granted.game, receive, send, invite=granted.invite, variant=variant
                    )
                elif live is None:
                    unavailable = b"The live sheet is out of reach for a moment.\n"
                    await _plain(send, 503, unavailable, retry_after=10)
                else:
                    await _plain(send, 403, b"This link to the game was revoked.\n")
        else:
            await _plain(send, 404, b"Not found\n")

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.start()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _stream(
        self,
        game: int,
        receive: Receive,
        send: Send,
        *,
        invite: int | None = None,
        variant: tuple[str, bool, str, str] | None = None,
    ) -> None:
        subscriber = self.hub.subscribe(game, invite, variant)
        # Subscribed before the version is read: a change meanwhile is queued, not lost.

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            subscriber.close()

        watcher = asyncio.get_running_loop().create_task(watch())
        try:
            await send({"type": "http.response.start", "status": 200, "headers": STREAM_HEADERS})
            await send(
                {
                    "type": "http.response.body",
                    "body": f"retry: {RETRY_MS}\n: game {game}\n\n".encode(),
                    "more_body": True,
                }
            )
            version = await self.versions.of(game)
            v = self.versions
            said = hello(version, v.tools_of(game), v.first_of(game), v.shared_of(game))
            await send({"type": "http.response.body", "body": said, "more_body": True})
            while True:
                message = await subscriber.next(self.heartbeat)
                if message is None:
                    break
                await send({"type": "http.response.body", "body": message, "more_body": True})
        except OSError:  # the phone went away while we wrote
            pass
        finally:
            self.hub.unsubscribe(subscriber)
            watcher.cancel()
            if not self.hub.watches(game):
                self.versions.forget([game])  # nobody here watches it: no longer heard of
        with contextlib.suppress(OSError):
            await send({"type": "http.response.body", "body": b"", "more_body": False})


def _host(scope: Scope) -> str:
    """The host of the page that opened the stream (``?host=``, which ``live.js`` sends:
    where the events server has a host of its own, as ``make run``'s), else the
    request's: the pushed answer names it (its links are absolute)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    said = query.get("host", [""])[0]
    if said:
        return said[:255]
    for name, value in scope.get("headers", []):
        if name == b"host":
            return str(value.decode("latin-1"))[:255]
    return ""


def _language(scope: Scope) -> str:
    """The language of the page that opened the stream (``?lang=``, its ``<html lang>``,
    which ``live.js`` sends): answers made in another language are not pushed to it (it
    asks, and gets its own)."""
    from django.conf import settings

    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    said = query.get("lang", [""])[0]
    known = {code for code, _name in settings.LANGUAGES}
    return said if said in known else settings.LANGUAGE_CODE


async def _invite_is_live(game: int, invite: int) -> bool | None:
    """One indexed query, for a guest's stream only (signed-in viewers need none); None
    when the database cannot say."""
    try:
        return await sources.orm(sources.invite_is_live, game, invite)
    except Exception as exc:  # the database is away: let the guest's page poll instead
        log.warning("live: could not check a guest's link (%s)", first_line(exc))
        return None


async def _plain(
    send: Send,
    status: int,
    body: bytes,
    headers: list[tuple[bytes, bytes]] | None = None,
    *,
    retry_after: int | None = None,
) -> None:
    sent = headers or [(b"content-type", b"text/plain; charset=utf-8")]
    sent = [*sent, (b"cache-control", b"no-store")]
    if retry_after is not None:
        sent.append((b"retry-after", str(retry_after).encode()))
    await send({"type": "http.response.start", "status": status, "headers": sent})
    await send({"type": "http.response.body", "body": body})


app = EventsApp()
