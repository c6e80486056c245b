"""What keeps one client from holding the events server's connections: uvicorn's HTTP
protocol (httptools), plus

* a count of the connections each client address holds, up to the events app's cap
  (``LIVE_MAX_STREAMS_PER_ADDRESS``), taken when the connection opens — before it has
  sent a byte, so a half-sent request counts too; one more is answered ``429`` and
  closed at once. A trusted proxy's connections (``--forwarded-allow-ips``) are not
  counted here: the app counts their streams by the address the proxy forwards;
* deadlines: a connection must begin a request within uvicorn's keep-alive timeout
  (``--timeout-keep-alive``, as between two requests) and send its whole head within
  :data:`HEAD_SECONDS` of beginning it, or it is closed.

``python -m scorekeeper.live`` runs uvicorn with it (``--http scorekeeper.live.asgi:app.http``).
"""

from __future__ import annotations

import asyncio
from collections import Counter

from uvicorn.middleware.proxy_headers import _TrustedHosts
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: A request's head (the request line and headers: one packet from a browser) must
#: arrive within this many seconds of its first byte.
HEAD_SECONDS = 10.0

TOO_MANY_BODY = b"Too many live sheets open from this address.\n"
TOO_MANY = b"".join(
    [
        b"HTTP/1.1 429 Too Many Requests\r\n",
        b"content-type: text/plain; charset=utf-8\r\n",
        b"retry-after: 60\r\ncache-control: no-store\r\nconnection: close\r\n",
        b"content-length: %d\r\n\r\n" % len(TOO_MANY_BODY),
        TOO_MANY_BODY,
    ]
)


class Door:
    """How many connections (or streams) each client address holds, at most ``cap``
    (0: no limit). Entering and leaving are plain calls, never across an ``await``."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.held: Counter[str] = Counter()

    def enter(self, address: str) -> bool:
        if 0 < self.cap <= self.held[address]:
            return False
        self.held[address] += 1
        return True

    def leave(self, address: str) -> None:
        self.held[address] -= 1
        if self.held[address] <= 0:
            del self.held[address]


def protocol(door: Door) -> type[HttpToolsProtocol]:
    """uvicorn's HTTP protocol counting its connections at ``door``, with deadlines."""

    class GuardedProtocol(HttpToolsProtocol):
        counted: str | None = None
        refused = False
        deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            host = self.client[0] if self.client else ""
            config = self.config
            if not (config.proxy_headers and host in _TrustedHosts(config.forwarded_allow_ips)):
                if not door.enter(host):
                    # Answer before the request is read, and close once the client
                    # has it (or in a second): a refused socket is not kept.
                    self.refused = True
                    transport.write(TOO_MANY)
                    if transport.can_write_eof():
                        transport.write_eof()
                    self._arm(1.0)
                    return
                self.counted = host
            self._arm(config.timeout_keep_alive)

        def data_received(self, data: bytes) -> None:
            if not self.refused:
                super().data_received(data)

        def connection_lost(self, exc: Exception | None) -> None:
            self._arm(None)
            if self.counted is not None:
                door.leave(self.counted)
                self.counted = None
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm(HEAD_SECONDS)

        def on_headers_complete(self) -> None:
            self._arm(None)
            super().on_headers_complete()

        def _arm(self, seconds: float | None) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
            self.deadline = None if seconds is None else self.loop.call_later(seconds, self._late)

        def _late(self) -> None:
            self.deadline = None
            if not self.transport.is_closing():
                self.transport.close()

    return GuardedProtocol
