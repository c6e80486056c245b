"""What the app's own log handlers (``LOGGING`` in the settings) write, captured: the
lines a server's log would hold, after their filters — not pytest's ``caplog``, whose
handler sees the records before any filter of ours."""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Iterator

from scorekeeper.log_secrets import HideSecrets


@contextlib.contextmanager
def app_log() -> Iterator[io.StringIO]:
    written = io.StringIO()
    handlers = {
        handler
        for name in ("", "django", "django.request", "django.server")
        for handler in logging.getLogger(name).handlers
        if isinstance(handler, logging.StreamHandler)
        and any(isinstance(f, HideSecrets) for f in handler.filters)
    }
    assert handlers, "LOGGING's handlers filter no secret"
    # Swapped without setStream(), which flushes the stream it replaces: a handler made
    # by a later django.setup() (importing the events server) holds the stderr that
    # pytest captured for a test long finished, and closed.
    streams = {handler: handler.stream for handler in handlers}
    for handler in handlers:
        handler.stream = written
    try:
        yield written
    finally:
        for handler, stream in streams.items():
            handler.stream = stream
