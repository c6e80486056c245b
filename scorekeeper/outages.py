"""While the database is out of reach every request fails the same way, so the log says
so once per request, in one line, and shows the traceback once per outage.

The site's ``handler500`` answers such a request ``503`` with ``Retry-After``
(``api/errors.py``), and Django's request logger then writes the failure with its
exception's traceback (``django.request``): an 8 s restart of PostgreSQL under load
wrote 392 of them (issue 26). :class:`OneTracebackPerOutage`, a filter on that logger
(``LOGGING`` in the settings), turns the record into one line — the method, the path,
"database unavailable", the exception's class and first line — and leaves the
traceback on the first failure of an outage only. The outage ends when this process
connects to the database again (Django's ``connection_created`` signal, connected by
the app's config): the next failure begins a new one, traceback included.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.db import InterfaceError, OperationalError

from scorekeeper.log_secrets import blot

#: The errors of a database that cannot be reached (or dropped the connection).
DATABASE_ERRORS = (OperationalError, InterfaceError)


def first_line(error: BaseException) -> str:
    """``Class: first line of the message`` (psycopg's go on with a hint on a second)."""
    text = str(error).strip()
    return f"{type(error).__name__}: {text.splitlines()[0]}" if text else type(error).__name__


class Outage:
    """Whether this process last found the database out of reach (its threads share it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._on = False

    def failed(self) -> bool:
        """A request failed for want of the database: True if that begins an outage."""
        with self._lock:
            began, self._on = not self._on, True
        return began

    def answered(self, **signal: Any) -> None:
        """A connection to the database was made (``connection_created``): it is back."""
        with self._lock:
            self._on = False


OUTAGE = Outage()


class OneTracebackPerOutage(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        # (Once per record: a second django.setup() adds the filter to the logger again.)
        if not isinstance(error, DATABASE_ERRORS) or "outage_began" in record.__dict__:
            return True
        began = record.__dict__["outage_began"] = OUTAGE.failed()  # as logging sets extras
        request = getattr(record, "request", None)
        # The path escaped as Django's request logger has it (no line of its own making).
        path = str(getattr(request, "path", "-")).encode("unicode_escape").decode("ascii")
        record.msg = "%s %s: database unavailable (%s)"
        record.args = (getattr(request, "method", "-"), blot(path), first_line(error))
        if not began:
            record.exc_info = record.exc_text = None
        return True
