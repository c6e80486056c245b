"""How gunicorn serves the app (``gunicorn.conf.py`` names these two classes).

* :class:`HeadFirstWorker` — gunicorn's threaded worker (``gthread``), except that a
  connection gets a thread only once its request has arrived: its head, and a body
  announced by ``Content-Length`` up to :data:`BODY_LIMIT`. Until then the worker's
  main loop reads what comes without waiting for it, and closes a connection whose
  request is not there :data:`HEAD_SECONDS` after it opened (or after the previous
  answer's keep-alive ended). A slow or half-open client holds a socket, never a
  thread, so it cannot keep the app from answering anyone else. (Over TLS, which the
  proxy in front terminates in every recipe, gunicorn's own worker runs as it is.)
* :class:`TokenlessLogger` — gunicorn's logger, with the secrets that ride in addresses
  (a join link's token, a stream's ticket, a ``…token=`` parameter) blotted out of
  every access-log line, the referrer included.
"""

from __future__ import annotations

import errno
import re
import selectors
import time
from collections import deque
from functools import partial
from typing import Any

from gunicorn.glogging import Logger
from gunicorn.workers.gthread import TConn, ThreadWorker

#: A request (head and small body) must have arrived this many seconds after its
#: connection opened, or after it was kept alive and sent its next first byte.
HEAD_SECONDS = 10.0
#: A body up to this size is read before a thread is given (Django's own limit for a
#: form, ``DATA_UPLOAD_MAX_MEMORY_SIZE``); a larger one is read by the thread.
BODY_LIMIT = 2_621_440
#: A head longer than this goes to a thread as it is: gunicorn refuses it at once.
HEAD_LIMIT = 64 * 1024
_LENGTH = re.compile(rb"\r\ncontent-length:[ \t]*(\d{1,12})[ \t]*\r\n", re.IGNORECASE)
_CONTINUE = re.compile(rb"\r\nexpect:[ \t]*100-continue", re.IGNORECASE)


def arrived(data: bytes | bytearray) -> bool:
    """Whether ``data`` holds a whole request head and the body it announces (up to
    :data:`BODY_LIMIT`; none when the client waits to be told to send it), or more
    head than a thread should wait for."""
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return len(data) > HEAD_LIMIT
    length = _LENGTH.search(data, 0, end + 2)
    waits = _CONTINUE.search(data, 0, end + 2)
    body = min(int(length.group(1)), BODY_LIMIT) if length and not waits else 0
    return len(data) >= end + 4 + body


class HeadFirstWorker(ThreadWorker):
    def init_process(self) -> None:
        #: Connections whose request is on its way, oldest first.
        self.arriving: deque[TConn] = deque()
        super().init_process()

    def accept(self, listener: Any) -> None:
        try:
            sock, address = listener.accept()
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        self._await_request(TConn(self.cfg, sock, address, listener.getsockname()))

    def on_client_socket_readable(self, conn: TConn, client: Any) -> None:
        """A kept-alive connection sends its next request."""
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        self._await_request(conn)

    def _await_request(self, conn: TConn) -> None:
        if self.cfg.is_ssl:
            self.enqueue_req(conn)
            return
        conn.sock.setblocking(False)
        conn.arrived = bytearray()
        conn.deadline = time.monotonic() + HEAD_SECONDS
        self.arriving.append(conn)
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._read, conn))

    def _read(self, conn: TConn, client: Any) -> None:
        try:
            data = conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if data:
            conn.arrived += data
            if not arrived(conn.arrived):
                return
        self.poller.unregister(client)
        self.arriving.remove(conn)
        if not data:  # the client went away
            self.nr_conns -= 1
            conn.close()
            return
        conn.data_ready = True
        self.enqueue_req(conn)

    def handle(self, conn: TConn) -> Any:
        """In a thread: the request read so far goes in front of the parser's input."""
        received, conn.arrived = getattr(conn, "arrived", b""), b""
        if received:
            conn.init()
            conn.parser.unreader.unread(bytes(received))
        return super().handle(conn)

    def murder_keepalived(self, force: bool = False) -> None:
        super().murder_keepalived(force)
        now = time.monotonic()
        for conn in list(self.arriving):
            # Stopping: a connection that sent nothing yet is not waited for.
            if force or conn.deadline <= now or not (self.alive or conn.arrived):
                self.arriving.remove(conn)
                self.poller.unregister(conn.sock)
                self.nr_conns -= 1
                conn.close()


#: ``/join/<token>``, ``/events/<ticket>`` and any ``…token…=``/``…ticket…=`` value.
_SECRETS = re.compile(
    r"(?P<path>/(?:join|events)/)(?!health\b)[^/?#\s\"]+"
    r"|(?P<query>[?&;][^=&;#\s\"]*(?:token|ticket)[^=&;#\s\"]*=)[^&;#\s\"]+",
    re.IGNORECASE,
)


def blot(text: str) -> str:
    """``text`` with the secrets an address may carry replaced by ``[hidden]``."""
    return _SECRETS.sub(lambda m: (m["path"] or m["query"]) + "[hidden]", text)


class TokenlessLogger(Logger):
    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        found: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        return {k: blot(v) if isinstance(v, str) else v for k, v in found.items()}
