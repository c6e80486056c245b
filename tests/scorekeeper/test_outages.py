"""While the database is out of reach, each failed request logs one line (method, path,
"database unavailable", the error's class and first line) and the outage's first one
its traceback; once the database answers again (a connection is made), the next
failure begins a new outage. With errors injected, and with a real PostgreSQL stopped
and started under gunicorn."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import OperationalError, connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import include, path
from rest_framework.test import APIClient

from scorekeeper.outages import OUTAGE, first_line
from tests.scorekeeper.log_capture import app_log
from tests.scorekeeper.served import (
    GUNICORN,
    ROOT,
    environment,
    own_postgres,
    postgres_bindir,
    serve,
)

REFUSED = (
    'connection failed: connection to server at "127.0.0.1", port 5432 failed: Connection '
    "refused\n\tIs the server running on that host and accepting TCP/IP connections?"
)
UNAVAILABLE = re.compile(r"^(GET|POST) (\S+): database unavailable \((\w+): (.*)\)$")


@pytest.fixture
def log() -> Iterator[io.StringIO]:
    OUTAGE.answered()  # no outage left over from another test
    with app_log() as written:
        yield written


@pytest.fixture
def database_down(user: User) -> Iterator[None]:
    """Every query fails as when PostgreSQL is down (after the fixtures are made)."""

    def refuse(self: BaseDatabaseWrapper) -> None:
        raise OperationalError(REFUSED)

    with pytest.MonkeyPatch.context() as patch:  # undone before the test's rollback
        patch.setattr(BaseDatabaseWrapper, "ensure_connection", refuse)
        yield


def entries(log: str) -> list[tuple[str, bool]]:
    """Each "database unavailable" line, and whether a traceback follows it."""
    lines = log.splitlines()
    return [
        (line, index + 1 < len(lines) and lines[index + 1].startswith("Traceback"))
        for index, line in enumerate(lines)
        if UNAVAILABLE.match(line)
    ]


def test_one_line_per_failed_request_and_one_traceback_per_outage(
    user: User, database_down: None, log: io.StringIO
) -> None:
    page = Client(raise_request_exception=False)
    api = APIClient(raise_request_exception=False)
    api.force_authenticate(user)
    for _ in range(3):
        assert page.get("/join/S3cret-T0ken/").status_code == 503
        assert api.post("/api/v1/players/", {"name": "Ana"}).status_code == 503
    # The database answers again: a connection is made.
    connection_created.send(sender=type(connection), connection=connection)
    assert page.get("/join/S3cret-T0ken/").status_code == 503

    written = log.getvalue()
    found = entries(written)
    assert [traced for _, traced in found] == [True] + [False] * 5 + [True]
    assert found[0][0] == (
        "GET /join/[hidden]/: database unavailable (OperationalError: connection failed: "
        'connection to server at "127.0.0.1", port 5432 failed: Connection refused)'
    )
    assert found[1][0].startswith("POST /api/v1/players/: database unavailable")
    assert written.count("Traceback (most recent call last)") == 2
    assert "S3cret-T0ken" not in written


def boom(request: HttpRequest) -> HttpResponse:
    raise ZeroDivisionError("a bug, not an outage")


urlpatterns = [path("boom/", boom), path("", include("scorekeeper.urls"))]


@pytest.mark.urls(__name__)
def test_other_errors_keep_their_traceback_every_time(db: None, log: io.StringIO) -> None:
    client = Client(raise_request_exception=False)
    assert [client.get("/boom/").status_code for _ in range(2)] == [500, 500]
    written = log.getvalue()
    assert written.count("Internal Server Error: /boom/") == 2
    assert written.count("ZeroDivisionError: a bug, not an outage") == 2


def test_an_error_in_one_line() -> None:
    assert first_line(OperationalError(REFUSED)) == (
        'OperationalError: connection failed: connection to server at "127.0.0.1", port '
        "5432 failed: Connection refused"
    )
    assert first_line(OperationalError()) == "OperationalError"


#: Requests that need the database: a join link, its QR code, the API with a token.
NEEDS_DATABASE = [
    ("/join/S3cret-T0ken/", {}),
    ("/join/S3cret-T0ken/qr.svg", {}),
    ("/api/v1/games/", {"Authorization": "Token 0123456789abcdef"}),
]


@pytest.mark.postgres
@pytest.mark.skipif(
    "postgresql" not in settings.DATABASES["default"]["ENGINE"] or postgres_bindir() is None,
    reason="on PostgreSQL only (DATABASE_URL), with its server binaries for a cluster of its own",
)
def test_a_real_outage_under_gunicorn(tmp_path: Path) -> None:
    """gunicorn (one worker, its threads) on a PostgreSQL of the test's own, stopped
    twice and started again: every failed request is one line, each outage has one
    traceback."""
    bindir = postgres_bindir()
    assert bindir is not None
    with own_postgres(bindir) as pg:
        env = {"DATABASE_URL": pg.url}
        migrate = [sys.executable, "manage.py", "migrate", "-v0"]
        subprocess.run(migrate, cwd=ROOT, env=environment(**env), check=True, timeout=300)
        with serve("gunicorn", GUNICORN, env, tmp_path) as web:
            assert web.get("/join/Unknown-T0ken/") == 404
            failed = []
            for _outage in range(2):
                pg.stop()
                failed += [web.get(path, headers) for path, headers in NEEDS_DATABASE * 2]
                pg.start()
                assert web.get("/join/Unknown-T0ken/") == 404  # it answers again
        errors = web.err.read_text()

    assert set(failed) == {503}
    found = entries(errors)
    assert len(found) == len(failed) == 12
    assert [traced for _, traced in found] == ([True] + [False] * 5) * 2
    assert "S3cret-T0ken" not in errors
    assert "Not Found: /join/[hidden]/" in errors
