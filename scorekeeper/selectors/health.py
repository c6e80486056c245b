"""Is this instance healthy? Each check says what a monitor may know and nothing
private: the database answers, every migration is applied, the background worker is
alive (its latest heartbeat is recent) and keeps up (the oldest task waiting in
django-tasks' database queue is not too old)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Count, Max, Min
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from scorekeeper.models import WorkerHeartbeat


def _database() -> dict[str, Any]:
    # The database answering, whatever its tables hold: a query of no table, which the
    # ORM does not write.
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return {"ok": True}


def _migrations() -> dict[str, Any]:
    executor = MigrationExecutor(connection)
    unapplied = len(executor.migration_plan(executor.loader.graph.leaf_nodes()))
    return {"ok": unapplied == 0, "unapplied": unapplied}


def _tasks() -> dict[str, Any]:
    queue = DBTaskResult.objects.ready().aggregate(oldest=Min("enqueued_at"), queued=Count("pk"))
    oldest = queue["oldest"]
    age = int((timezone.now() - oldest).total_seconds()) if oldest is not None else None
    limit = settings.HEALTH_TASK_MAX_AGE
    return {
        "ok": age is None or age <= limit,
        "queued": queue["queued"],
        "oldest_queued_seconds": age,
        "max_age_seconds": limit,
    }


def _worker_age() -> int | None:
    """Seconds since a background worker last reported, None if none ever did."""
    latest = WorkerHeartbeat.objects.aggregate(at=Max("beat_at"))["at"]
    return int((timezone.now() - latest).total_seconds()) if latest is not None else None


def worker_alive() -> bool:
    """A background worker reported within ``HEALTH_WORKER_MAX_AGE``."""
    age = _worker_age()
    return age is not None and age <= settings.HEALTH_WORKER_MAX_AGE


def _worker() -> dict[str, Any]:
    age = _worker_age()
    limit = settings.HEALTH_WORKER_MAX_AGE
    result: dict[str, Any] = {
        "ok": age is not None and age <= limit,
        "last_heartbeat_seconds": age,
        "max_age_seconds": limit,
    }
    if age is None:
        result["error"] = "No worker has reported: start manage.py worker."
    return result


def health() -> dict[str, Any]:
    """``{"ok": bool, "checks": {name: {"ok": bool, …}}, "failed": [name, …]}``; a check
    that cannot run after the database failed says so (``"ok": false, "error": …``)."""
    checks: dict[str, dict[str, Any]] = {}
    for name, check in (
        ("database", _database),
        ("migrations", _migrations),
        ("worker", _worker),
        ("tasks", _tasks),
    ):
        if name != "database" and not checks["database"]["ok"]:
            checks[name] = {"ok": False, "error": "The database is unreachable."}
            continue
        try:
            checks[name] = check()
        except DatabaseError as exc:
            checks[name] = {"ok": False, "error": type(exc).__name__}
    failed = [name for name, result in checks.items() if not result["ok"]]
    return {"ok": not failed, "checks": checks, "failed": failed}
