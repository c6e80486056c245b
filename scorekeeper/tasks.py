"""Background tasks (django-tasks; run by ``python manage.py db_worker``)."""

from __future__ import annotations

from django_tasks import task

from scorekeeper.ratings.backlog import process_backlog


@task()
def rerate_league(league_id: int) -> int:
    """Replay a league's ratings from its backlog marks; returns the games rated."""
    return process_backlog(league_id)
