"""A real events server (uvicorn, ``scorekeeper.live.asgi``) in a thread of the test
process, on this worktree's port range, for the endpoint and browser tests."""

from __future__ import annotations

import contextlib
import http.client
import os
import socket
import threading
import time
from collections.abc import Iterator

import uvicorn

from scorekeeper.live.asgi import EventsApp

PORTS = range(8310, 8340)


def _free_port() -> int:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or "0"
    start = (int(worker) * 7) % len(PORTS) if worker.isdigit() else 0
    for offset in range(len(PORTS)):
        port = PORTS[(start + offset) % len(PORTS)]
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 8310-8339")


@contextlib.contextmanager
def events_server(*, heartbeat: float = 25.0) -> Iterator[tuple[str, EventsApp]]:
    """``(base URL, app)``; the server stops (its streams cut) on leaving. As
    ``python -m scorekeeper.live`` runs it."""
    app = EventsApp(heartbeat=heartbeat)
    port = _free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        ws="none",
        timeout_keep_alive=5,
        lifespan="on",
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the events server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        app.close_streams_threadsafe()
        time.sleep(0.1)
        server.should_exit = True
        thread.join(10)


class Stream:
    """An open event stream, read line by line (the standard library only)."""

    def __init__(
        self, base: str, path: str, timeout: float = 10.0, source: str = "", host_header: str = ""
    ) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(
            host, int(port), timeout=timeout, source_address=(source, 0) if source else None
        )
        headers = {"Accept": "text/event-stream"}
        if host_header:
            headers["Host"] = host_header
        self.connection.request("GET", path, headers=headers)
        self.response = self.connection.getresponse()

    def event(self, timeout: float = 10.0, *, hello: bool = False) -> dict[str, str]:
        """The next event's fields (comments and heartbeats skipped; the stream's first
        event, ``hello``, too unless asked for)."""
        deadline = time.monotonic() + timeout
        fields: dict[str, str] = {}
        while time.monotonic() < deadline:
            line = self.response.fp.readline().decode()
            if not line:
                raise EOFError("the stream ended")
            line = line.rstrip("\n")
            if not line:
                kind = fields.get("event")
                if "data" in fields and kind != "ping" and (hello or kind != "hello"):
                    return fields
                fields = {}
                continue
            if line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            # Several data lines make one value, a line break between each (the standard).
            if name == "data" and name in fields:
                value = f"{fields[name]}\n{value}"
            fields[name] = value
        raise TimeoutError("no event")

    def close(self) -> None:
        self.connection.close()
