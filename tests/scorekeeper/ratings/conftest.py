"""Fixtures of the ratings tests: a league, four players, the two ways a correction is
replayed, and the background worker in a thread."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth.models import User
from django.db import connection

from scorekeeper.management.commands.worker import Worker
from scorekeeper.models import League, Player


@pytest.fixture
def league(user: User) -> League:
    return League.objects.create(name="Thursday table", owner=user)


@pytest.fixture
def four(make_players) -> list[Player]:  # type: ignore[no-untyped-def]
    return make_players("Ana", "Bo", "Cy", "Di")


@pytest.fixture(params=["inline", "background"])
def replay_mode(request, monkeypatch) -> str:  # type: ignore[no-untyped-def]
    """A scenario twice: corrections replayed on the request, and left to the
    background task (run at once by the test settings) one game per chunk."""
    if request.param == "background":
        monkeypatch.setattr("scorekeeper.ratings.hooks.INLINE_POINTS", 0)
        monkeypatch.setattr("scorekeeper.ratings.backlog.CHUNK_GAMES", 1)
        monkeypatch.setattr("scorekeeper.ratings.backlog.MIN_CHUNK_GAMES", 1)
        monkeypatch.setattr("scorekeeper.ratings.backlog.CHUNK_SECONDS", 0.0)
    return str(request.param)


@pytest.fixture
def start_worker(settings) -> Iterator[Callable[..., Callable[[], None]]]:  # type: ignore[no-untyped-def]
    """``start_worker(**options)`` runs ``manage.py worker``'s loop in a thread, with the
    tasks as rows in the database (as in production), and gives back what stops it
    (called at the test's end in any case). Needs a transactional test."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    stops: list[Callable[[], None]] = []

    def start(**options: object) -> Callable[[], None]:
        worker = Worker(
            queue_names=["default"], excluded_queue_names=[], interval=0.05, batch=False,
            backend_name="default", startup_delay=False, max_tasks=None, worker_id="test",
            sweep_interval=options.pop("sweep_interval", 0.2),
        )  # fmt: skip
        for key, value in options.items():
            setattr(worker, key, value)

        def work() -> None:
            try:
                worker.run()
            finally:
                connection.close()  # this thread's

        thread = threading.Thread(target=work)
        thread.start()

        def stop() -> None:
            worker.stop()
            thread.join(timeout=30)

        stops.append(stop)
        return stop

    yield start
    for stop in stops:
        stop()
