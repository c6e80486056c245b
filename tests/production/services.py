"""The smoke's servers stopped and started as their service manager would
(``systemctl stop`` / ``start``): ``.ci/production-smoke.sh`` runs each as a service
(``app``: gunicorn; ``events-1``, ``events-2``: the two events servers) and names the
folder of their pid files in ``SCOREKEEPER_SERVICES``. A service whose ``NAME.down``
file exists is not started again when it ends; once the file is gone, it is.

``SCOREKEEPER_REFUSED_FROM`` is the local address the tests provoke nginx's refusals
from: the smoke's check of the access log lets that address's 5xx answers pass."""

from __future__ import annotations

import os
import signal
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.production.http import Session

SERVICES_ENV = "SCOREKEEPER_SERVICES"
EVENTS = ("events-1", "events-2")

#: What nginx tells a refused client (deploy/nginx/snippets/scorekeeper-busy.conf).
RETRY_AFTER = "5"
BUSY = "The scores are out of reach for a moment. Try again in a few seconds.\n"


def folder() -> Path:
    where = os.environ.get(SERVICES_ENV, "")
    if not where:
        pytest.skip(f"needs the smoke's services: .ci/production-smoke.sh ({SERVICES_ENV})")
    return Path(where)


def refused_from() -> str:
    return os.environ.get("SCOREKEEPER_REFUSED_FROM", "127.0.0.9")


def url(name: str) -> str:
    """The address that answers once the service is up (on its own port, not nginx's)."""
    return (folder() / f"{name}.url").read_text().strip()


def answers(address: str) -> bool:
    try:
        with urllib.request.urlopen(address, timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def stop(name: str, timeout: float = 30.0) -> None:
    """SIGTERM to the service's process, which stays stopped until :func:`start`."""
    where = folder()
    (where / f"{name}.down").touch()
    pid_file = where / f"{name}.pid"
    os.kill(int(pid_file.read_text()), signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while pid_file.exists():
        assert time.monotonic() < deadline, f"{name} did not stop"
        time.sleep(0.05)


def start(name: str, timeout: float = 60.0) -> None:
    """Started again; back once its own address answers 200."""
    (folder() / f"{name}.down").unlink(missing_ok=True)
    address = url(name)
    deadline = time.monotonic() + timeout
    while not answers(address):
        assert time.monotonic() < deadline, f"{name} did not start again"
        time.sleep(0.1)


@contextmanager
def stopped(*names: str) -> Iterator[None]:
    """The services stopped for the block, started again after it whatever happens."""
    try:
        for name in names:
            stop(name)
        yield
    finally:
        for name in names:
            start(name)


def held() -> dict[str, int]:
    """The streams each events server holds, by its own /events/health."""
    return {name: int(Session(url(name)).get("").json()["streams"]) for name in EVENTS}
