"""Run the events server: ``python -m scorekeeper.live --host 127.0.0.1 --port 8001``.

uvicorn with :mod:`.asgi`'s app and what it needs to hold under abuse: its HTTP protocol
counting connections per address, with deadlines (:mod:`.guard`), and no WebSocket; no
access log (a stream's URL is its ticket), its own lines through the filter that blots
tickets (``logging.json``, in uvicorn's format); a short graceful shutdown (a stream
never ends by itself).
Any other uvicorn option may follow (``--workers 2``, ``--forwarded-allow-ips …``); a
later one wins."""

from __future__ import annotations

import sys
from pathlib import Path

import uvicorn

DEFAULTS = [
    "scorekeeper.live.asgi:app",
    "--http",
    "scorekeeper.live.asgi:app.http",
    "--ws",
    "none",  # no WebSocket: an upgraded connection would leave the guard's count
    "--no-access-log",
    "--log-config",
    str(Path(__file__).with_name("logging.json")),
    "--timeout-keep-alive",
    "5",
    "--timeout-graceful-shutdown",
    "2",
]

if __name__ == "__main__":
    uvicorn.main.main([*DEFAULTS, *sys.argv[1:]], prog_name="python -m scorekeeper.live")
