"""Fixtures of the Django side's tests: the background worker in a thread."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest
from django.db import connection

from scorekeeper.management.commands.worker import Worker


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
