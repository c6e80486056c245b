"""Background tasks (django-tasks; run by ``python manage.py worker``).

A league's re-rate is queued whenever its ratings are marked out of date
(:mod:`scorekeeper.ratings.backlog`), unless one is queued already and not started. A
started one may be gone (its worker killed, its transaction failed): the marks, not the
task rows, say what is left to do, so :func:`resume_rerates` (the worker's sweep) queues
one for every league still marked.
"""

from __future__ import annotations

from django_tasks import task
from django_tasks_db import DatabaseBackend
from django_tasks_db.models import DBTaskResult

from scorekeeper.models import RatingBacklog
from scorekeeper.ratings.backlog import process_backlog


@task()
def rerate_league(league_id: int) -> int:
    """Replay a league's ratings from its backlog marks; returns the games rated."""
    return process_backlog(league_id)


def rerate_soon(league_id: int) -> None:
    """Queue the league's re-rate unless one waits in the queue already (it replays from
    the marks as they are when it runs). With the database backend the task is a row
    written in the caller's transaction: it exists exactly when the caller's mark does."""
    if not _waiting(league_id):
        rerate_league.enqueue(league_id)


def resume_rerates() -> list[int]:
    """Queue a re-rate of every league whose ratings are marked out of date and that has
    none waiting: its task failed, died with its worker or was never queued. Returns
    those leagues."""
    marked = RatingBacklog.objects.order_by("league_id").values_list("league_id", flat=True)
    resumed = [league_id for league_id in dict.fromkeys(marked) if not _waiting(league_id)]
    for league_id in resumed:
        rerate_league.enqueue(league_id)
    return resumed


def _waiting(league_id: int) -> bool:
    """Whether a re-rate of the league is queued and not started (only the database
    backend keeps a queue to look at; the tests' run at once)."""
    backend = rerate_league.get_backend()
    if not isinstance(backend, DatabaseBackend):
        return False
    return (
        DBTaskResult.objects.ready()
        .filter(
            backend_name=backend.alias,
            task_path=rerate_league.module_path,
            args_kwargs={"args": [league_id], "kwargs": {}},
        )
        .exists()
    )
