"""Run the events server: ``python -m scorekeeper.live --host 127.0.0.1 --port 8001``.

uvicorn with :mod:`.asgi`'s app and its own limits: at most
:data:`LIMIT_CONCURRENCY` connections a process (``503`` beyond), a connection closed
5 s after its last answer; no WebSocket; no access log (a stream's URL is its ticket),
its own lines through the filter that blots tickets (``logging.json``, in uvicorn's
format); a short graceful shutdown (a stream never ends by itself). What one client
address may hold is nginx's to count, in front (``deploy/nginx/``: ``limit_conn`` on
``/events/``), as are slow request heads. Any other uvicorn option may follow
(``--limit-concurrency 6000``); a later one wins.

In production two of these run, each its own service on its own port
(``deploy/systemd/scorekeeper-events@.service``: 8001 and 8002), behind nginx's
``upstream scorekeeper_events``: restarting one ends only its own streams, whose phones
reconnect to the other at once. (uvicorn's ``--workers 2`` would be one supervisor and
one socket: restarting it would drop every phone.)"""

from __future__ import annotations

import sys
from pathlib import Path

import uvicorn

#: Connections one process holds at most. Enough for one process to hold every phone of
#: 1,000 tables (4,000 streams) while the other restarts: with 2,000 a process, half of
#: them polled Django until it was back (and a bench of 1,000 tables could not hold its
#: streams at all). An open stream costs about 15 KB (make bench-footprint): 64 MB and
#: some 30 MB a process with both up, about 140 MB for the one holding all 5,000.
LIMIT_CONCURRENCY = 5000

DEFAULTS = [
    "scorekeeper.live.asgi:app",
    "--ws",
    "none",  # server-sent events only
    "--no-access-log",
    "--limit-concurrency",
    str(LIMIT_CONCURRENCY),
    "--log-config",
    str(Path(__file__).with_name("logging.json")),
    "--timeout-keep-alive",
    "5",
    "--timeout-graceful-shutdown",
    "2",
]

if __name__ == "__main__":
    uvicorn.main.main([*DEFAULTS, *sys.argv[1:]], prog_name="python -m scorekeeper.live")
