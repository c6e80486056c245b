"""A league backup sent to the import page or the API, imported by the background
worker rather than in the request.

The request keeps the file in the database (a :class:`LeagueImport`: the one store every
process shares) and queues :func:`import_league_file`. The worker checks the file and
imports it in one transaction (:mod:`.checking`, :mod:`.importing`) in a process of its
own, writing how far the check is at most every :data:`PROGRESS_SECONDS`; once the
import is over the file is emptied and the row says what became of it: the new league,
or the problem and its place in the file. No web process parses a file or compiles the
schema, and no long-lived process keeps what an import needed.

An import cut short (its worker stopped, :data:`STALLED`) is queued again by the
worker's sweep, :data:`MAX_ATTEMPTS` runs at most; only the run that started last may
finish it, so a league is never imported twice. An import over for :data:`KEPT` is
deleted when the next one ends.
"""

from __future__ import annotations

import contextlib
import math
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import DatabaseError, transaction
from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_noop
from django_tasks import task
from django_tasks_db import DatabaseBackend

from games import RuleError
from scorekeeper.models import LeagueImport
from scorekeeper.models import LeagueImportStatus as Status
from scorekeeper.services.backup.checking import league_import_check
from scorekeeper.services.backup.importing import league_import_checked
from scorekeeper.services.backup.reading import load_backup

OPEN = (Status.QUEUED, Status.CHECKING, Status.IMPORTING)
#: Imports one account may have waiting or under way: each holds its file (20 MB at most).
OPEN_PER_ACCOUNT = 2
#: The check writes how far it is at most this often (and at its first and last game).
PROGRESS_SECONDS = 0.5
#: An import under way that has written nothing for this long was cut short.
STALLED = timedelta(minutes=10)
MAX_ATTEMPTS = 2
KEPT = timedelta(days=7)

CUT_SHORT = gettext_noop(
    "The import was cut short twice (the server's background worker stopped), so nothing "
    "was saved. Try again, or ask the server's administrator to import the file with "
    "manage.py import_league."
)
SERVER_ERROR = gettext_noop(
    "The import stopped on an error of the server, so nothing was saved. Try again."
)


class ImportsWaiting(Exception):
    """The account has :data:`OPEN_PER_ACCOUNT` imports waiting or under way."""

    message = (
        f"You have {OPEN_PER_ACCOUNT} imports waiting or under way: send this file again "
        "once one of them is over."
    )


class Superseded(Exception):
    """A later run of the same import took it over: this one's writes are undone."""


def league_import_queue(*, owner: User, raw: bytes) -> LeagueImport:
    """Keep the file and queue its import (one transaction: the task exists exactly
    when the import does). Returns the import as it stands, without its file (already
    over where tasks run at once, as in the tests)."""
    if LeagueImport.objects.filter(owner=owner, status__in=OPEN).count() >= OPEN_PER_ACCOUNT:
        raise ImportsWaiting(ImportsWaiting.message)
    with transaction.atomic():
        upload = LeagueImport.objects.create(owner=owner, file=raw, size=len(raw))
        import_league_file.enqueue(upload.pk)
    return LeagueImport.objects.defer("file").get(pk=upload.pk)


@task()
def import_league_file(import_id: int) -> int | None:
    """The background worker's part: the new league's id, None when refused.

    A worker runs the import in a process of its own (``manage.py import_league
    --upload ID``): importing a 20 MB file takes some 660 MB, which a long-lived process
    would keep (Python frees the objects, glibc's malloc keeps their pages) and a
    process that ends gives back. A backend that runs tasks at once, in the caller's
    process and transaction (the tests'), runs it here."""
    if not isinstance(import_league_file.get_backend(), DatabaseBackend):
        return league_import_run(import_id)
    manage = settings.BASE_DIR / "manage.py"
    ended = subprocess.run([sys.executable, manage, "import_league", "--upload", str(import_id)])
    if ended.returncode:  # killed, or out of memory: not a refusal the file deserves
        _finish(
            LeagueImport.objects.filter(pk=import_id, status__in=OPEN),
            status=Status.FAILED,
            error=SERVER_ERROR,
        )
        raise RuntimeError(f"import_league --upload {import_id} ended with {ended.returncode}")
    return LeagueImport.objects.filter(pk=import_id).values_list("league_id", flat=True).first()


def league_import_run(import_id: int) -> int | None:
    """Check and import a queued upload (see the module docstring)."""
    started = LeagueImport.objects.filter(pk=import_id, status__in=OPEN)
    _set(started, status=Status.CHECKING, attempts=F("attempts") + 1, games_checked=0)
    upload = started.select_related("owner").first()
    if upload is None:
        return None  # over already, or gone with its owner
    mine = LeagueImport.objects.filter(pk=import_id, attempts=upload.attempts)
    try:
        if upload.attempts > MAX_ATTEMPTS:
            raise RuleError(CUT_SHORT, "file")
        data = load_backup(bytes(upload.file or b""))
        upload.file = None
        checked = league_import_check(data, progress=_reporter(mine))
        del data
        _set(mine, status=Status.IMPORTING)
        with transaction.atomic():
            owner = upload.owner
            league = league_import_checked(checked, owner=owner, trusted=owner.is_superuser).league
            if not _finish(mine, status=Status.DONE, league=league):
                raise Superseded
    except RuleError as problem:
        # A message may quote the file's text: no NUL or lone surrogate reaches a column.
        message = problem.message.encode("utf-8", "backslashreplace").decode()
        _finish(mine, status=Status.FAILED, error=message.replace("\x00", "\\x00"))
        return None
    except Superseded:
        return None
    except Exception:
        with contextlib.suppress(DatabaseError):
            _finish(mine, status=Status.FAILED, error=SERVER_ERROR)
        raise
    return league.pk


def resume_league_imports() -> list[int]:
    """Queue again every import cut short: under way, and silent for :data:`STALLED`
    (the worker's sweep). Returns them."""
    stalled = LeagueImport.objects.filter(
        status__in=(Status.CHECKING, Status.IMPORTING), updated_at__lt=timezone.now() - STALLED
    )
    resumed = list(stalled.values_list("pk", flat=True))
    for pk in resumed:
        with transaction.atomic():
            _set(LeagueImport.objects.filter(pk=pk), status=Status.QUEUED)
            import_league_file.enqueue(pk)
    return resumed


def _set(upload: QuerySet[LeagueImport], **fields: Any) -> int:
    return upload.update(**fields, updated_at=timezone.now())


def _finish(upload: QuerySet[LeagueImport], **fields: Any) -> int:
    """The import over: its file emptied, and those over for :data:`KEPT` deleted."""
    now = timezone.now()
    LeagueImport.objects.filter(finished_at__lt=now - KEPT).delete()
    return _set(upload, file=None, finished_at=now, **fields)


def _reporter(upload: QuerySet[LeagueImport]) -> Callable[[int, int], None]:
    reported = -math.inf

    def report(checked: int, total: int) -> None:
        nonlocal reported
        now = time.monotonic()
        if checked == 0 or checked == total or now - reported >= PROGRESS_SECONDS:
            reported = now
            _set(upload, games_checked=checked, games=total)

    return report
