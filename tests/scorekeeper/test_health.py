"""``/healthz``: 200 while the database answers, every migration is applied, the
background worker reports it is alive and its queue keeps up; 503 naming the failed part
otherwise. Answered to any host name, over plain http, without sign-in or rate limit,
under a prefix too."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.db import OperationalError, connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client, override_settings
from django.test.utils import override_script_prefix
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from scorekeeper.models import WorkerHeartbeat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def worker_alive() -> WorkerHeartbeat:
    """A worker reported a moment ago (as ``manage.py worker`` does every 30 s)."""
    return WorkerHeartbeat.objects.create(worker_id="w1", beat_at=timezone.now())


def healthz(client: Client | None = None, **headers: Any) -> Any:
    return (client or Client()).get("/healthz", **headers)


def queue_task(minutes_ago: int) -> None:
    task = DBTaskResult.objects.create(
        args_kwargs={"args": [], "kwargs": {}},
        task_path="scorekeeper.tasks.example",
        backend_name="default",
        run_after=timezone.now() - timedelta(minutes=minutes_ago),
        exception_class_path="",
        traceback="",
    )
    DBTaskResult.objects.filter(pk=task.pk).update(
        enqueued_at=timezone.now() - timedelta(minutes=minutes_ago)
    )


def test_healthy() -> None:
    response = healthz()
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Cache-Control"] == "no-store"
    body = response.json()
    assert body["status"] == "ok"
    assert body["failed"] == []
    assert body["checks"]["database"] == {"ok": True}
    assert body["checks"]["migrations"] == {"ok": True, "unapplied": 0}
    assert body["checks"]["tasks"]["queued"] == 0
    assert body["checks"]["tasks"]["oldest_queued_seconds"] is None
    assert body["checks"]["worker"]["ok"] is True
    assert body["checks"]["worker"]["last_heartbeat_seconds"] < 5
    assert "Set-Cookie" not in response


@override_settings(HEALTH_WORKER_MAX_AGE=180)
def test_a_worker_silent_too_long_fails_the_worker_check(worker_alive: WorkerHeartbeat) -> None:
    WorkerHeartbeat.objects.update(beat_at=timezone.now() - timedelta(minutes=4))
    response = healthz()
    assert response.status_code == 503
    body = response.json()
    assert body["failed"] == ["worker"]
    assert 230 < body["checks"]["worker"]["last_heartbeat_seconds"] < 300
    assert body["checks"]["worker"]["max_age_seconds"] == 180


def test_no_worker_ever_is_a_503_that_says_so() -> None:
    WorkerHeartbeat.objects.all().delete()
    response = healthz()
    assert response.status_code == 503
    worker = response.json()["checks"]["worker"]
    assert worker["ok"] is False
    assert worker["last_heartbeat_seconds"] is None
    assert "manage.py worker" in worker["error"]


def test_the_newest_of_several_workers_counts() -> None:
    WorkerHeartbeat.objects.create(worker_id="w2", beat_at=timezone.now() - timedelta(days=2))
    assert healthz().status_code == 200


def test_a_young_queue_is_healthy() -> None:
    queue_task(minutes_ago=1)
    body = healthz().json()
    assert body["status"] == "ok"
    assert body["checks"]["tasks"]["queued"] == 1
    assert 50 < body["checks"]["tasks"]["oldest_queued_seconds"] < 120


@override_settings(HEALTH_TASK_MAX_AGE=600)
def test_an_old_queued_task_fails_the_tasks_check() -> None:
    queue_task(minutes_ago=11)
    response = healthz()
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing"
    assert body["failed"] == ["tasks"]
    assert body["checks"]["tasks"]["ok"] is False
    assert body["checks"]["tasks"]["max_age_seconds"] == 600


def test_an_unreachable_database_is_a_503() -> None:
    with mock.patch.object(
        connection, "ensure_connection", side_effect=OperationalError("connection refused")
    ):
        response = healthz()
    assert response.status_code == 503
    body = response.json()
    assert body["failed"] == ["database", "migrations", "worker", "tasks"]
    assert body["checks"]["database"] == {"ok": False, "error": "OperationalError"}
    assert "refused" not in response.content.decode()  # nothing of the server's insides


def test_unapplied_migrations_are_a_503() -> None:
    with mock.patch.object(MigrationExecutor, "migration_plan", return_value=[("x", False)]):
        response = healthz()
    assert response.status_code == 503
    assert response.json()["failed"] == ["migrations"]
    assert response.json()["checks"]["migrations"] == {"ok": False, "unapplied": 1}


@override_settings(SECURE_SSL_REDIRECT=True, ALLOWED_HOSTS=["scores.example.org"])
def test_nothing_redirects_or_refuses_a_monitor() -> None:
    # Plain http, by the server's address: no https redirect, no unknown-host 400.
    response = healthz(headers={"host": "10.0.0.7:8000"})
    assert response.status_code == 200
    assert Client().get("/", headers={"host": "scores.example.org"}).status_code == 301
    assert Client().get("/", headers={"host": "10.0.0.7:8000"}).status_code == 400


def test_never_rate_limited_and_only_read() -> None:
    client = Client()
    assert all(healthz(client).status_code == 200 for _ in range(100))
    assert client.post("/healthz").status_code == 405
    assert client.head("/healthz").status_code == 200


def test_under_a_prefix(settings: Any) -> None:
    settings.FORCE_SCRIPT_NAME = "/scores"
    with override_script_prefix("/scores"):
        assert reverse("healthz") == "/scores/healthz"
        assert healthz(Client(SCRIPT_NAME="/scores")).status_code == 200
