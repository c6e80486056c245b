"""``manage.py worker``: the background worker. django-tasks' ``db_worker`` (the same
options), which also

* resumes the league re-rates left unfinished: at start and every ``--sweep-interval``
  seconds a thread queues a re-rate of every league whose ratings are still marked out
  of date with none waiting (:func:`scorekeeper.tasks.resume_rerates`), so a task that
  failed, or died with a killed worker, is picked up again from its mark; and the same
  sweep queues again a league import cut short
  (:func:`scorekeeper.services.backup.resume_league_imports`);
* reports that it is alive every ``WORKER_HEARTBEAT_SECONDS`` (a row of
  :class:`~scorekeeper.models.WorkerHeartbeat`, read by ``/healthz``);
* outlives the database going away (a restart): the error is logged and the worker
  tries again every few seconds instead of exiting. A task cut short so stays
  ``RUNNING`` in the task table; the sweep queues its league again.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from argparse import ArgumentParser
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError
from django.db import InterfaceError, OperationalError, connection
from django.utils import timezone
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks_db.management.commands import db_worker

from scorekeeper.models import WorkerHeartbeat
from scorekeeper.outages import first_line
from scorekeeper.services.backup import resume_league_imports
from scorekeeper.tasks import resume_rerates

logger = logging.getLogger("django_tasks_db")

#: Seconds between two tries to reach the database again.
RECONNECT_SECONDS = 2.0


class Worker(db_worker.Worker):
    def __init__(self, *, sweep_interval: float, **options: Any) -> None:
        super().__init__(**options)
        self.sweep_interval = sweep_interval
        self._stopped = threading.Event()

    def run(self) -> None:
        self.sweep()
        heartbeat = None
        if not self.batch:
            heartbeat = threading.Thread(target=self.beats, name="heartbeat", daemon=True)
            heartbeat.start()
        if self.sweep_interval and not self.batch:
            threading.Thread(target=self.sweeps, name="resume-rerates", daemon=True).start()
        try:
            while self.running:
                try:
                    return super().run()
                except (OperationalError, InterfaceError) as error:
                    logger.warning(
                        "The database is out of reach (%s): trying again in %s s.",
                        first_line(error),
                        RECONNECT_SECONDS,
                    )
                    connection.close()
                    time.sleep(RECONNECT_SECONDS)
        finally:
            self._stopped.set()
            if heartbeat is not None:
                # Its last word, the heartbeat deleted, is said before the worker ends.
                heartbeat.join(timeout=10)

    def sweep(self) -> None:
        """Queue a re-rate of every league left unfinished and every import cut short
        (with this thread's own connection, closed afterwards)."""
        try:
            resumed = resume_rerates()
            if resumed:
                logger.info("Re-rating resumed for leagues %s", resumed)
            imports = resume_league_imports()
            if imports:
                logger.info("League imports cut short queued again: %s", imports)
        except (OperationalError, InterfaceError) as error:
            logger.warning("Could not look for unfinished work (%s).", first_line(error))
        finally:
            connection.close()

    def sweeps(self) -> None:
        while not self._stopped.wait(self.sweep_interval) and self.running:
            self.sweep()

    def beat(self) -> None:
        """Report this worker alive (with this thread's own connection, closed after);
        a worker gone a day is forgotten."""
        now = timezone.now()
        try:
            WorkerHeartbeat.objects.update_or_create(
                worker_id=self.worker_id, defaults={"beat_at": now}
            )
            WorkerHeartbeat.objects.filter(beat_at__lt=now - timedelta(days=1)).delete()
        except (OperationalError, InterfaceError) as error:
            logger.warning("Could not report the worker alive (%s).", first_line(error))
        finally:
            connection.close()

    def beats(self) -> None:
        while self.running:
            self.beat()
            if self._stopped.wait(settings.WORKER_HEARTBEAT_SECONDS):
                break
        try:  # stopped on purpose: no longer alive
            WorkerHeartbeat.objects.filter(worker_id=self.worker_id).delete()
        except (OperationalError, InterfaceError):
            pass
        finally:
            connection.close()

    def stop(self) -> None:
        """End the loop after the task under way, and the sweep."""
        self.running = False
        self._stopped.set()


class Command(db_worker.Command):
    help = (
        "Run the background worker (db_worker's options), resuming unfinished league "
        "re-rates at start and periodically, and waiting out database restarts."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--sweep-interval",
            type=db_worker.valid_interval,
            default=60.0,
            help="Seconds between two looks for unfinished re-rates (0: at start only; "
            "default: %(default)r)",
        )

    def handle(
        self,
        *,
        verbosity: int,
        queue_name: str,
        exclude_queues: str,
        reload: bool,
        **options: Any,
    ) -> None:
        self.configure_logging(verbosity)
        if exclude_queues and "*" not in queue_name.split(","):
            raise CommandError("--exclude-queues can only be used with --queue-name=*")
        worker = Worker(
            queue_names=queue_name.split(","),
            excluded_queue_names=exclude_queues.split(",") if exclude_queues else [],
            **{
                key: options[key]
                for key in (
                    "interval",
                    "batch",
                    "backend_name",
                    "startup_delay",
                    "max_tasks",
                    "worker_id",
                    "sweep_interval",
                )
            },
        )
        if reload and not options["batch"]:
            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
                worker.configure_signals()  # in the reloader's child only
            run_with_reloader(worker.run)
        else:
            worker.configure_signals()
            worker.run()
