"""Running the site: the worker's heartbeat, rate counters, league imports in progress."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.models.leagues import League


class WorkerHeartbeat(models.Model):
    """A background worker's latest sign of life: ``manage.py worker`` writes it every
    ``WORKER_HEARTBEAT_SECONDS`` and ``/healthz`` reads the newest (a worker that
    stopped, or never started, makes the instance unhealthy)."""

    worker_id = models.CharField(max_length=64, unique=True)
    beat_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.worker_id} at {self.beat_at:%Y-%m-%d %H:%M:%S}"


class RateCounter(models.Model):
    """Requests of one client address to one group of views in one window of time
    (``security.rate_limit``), counted with ``F()`` so that processes counting at once
    lose none. Counters of windows that ended are deleted as new windows start."""

    key = models.CharField(max_length=255, unique=True)
    count = models.PositiveIntegerField(default=0)
    expires = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"


class LeagueImportStatus(models.TextChoices):
    QUEUED = "queued", _("Waiting to start")
    CHECKING = "checking", _("Checking the file")
    IMPORTING = "importing", _("Saving the league")
    DONE = "done", _("Imported")
    FAILED = "failed", _("Refused")


class LeagueImport(models.Model):
    """A league backup sent to the import page or the API, imported by the background
    worker (:mod:`scorekeeper.services.backup.uploads`): the file until the import is
    over, then what became of it — the new league, or the problem and its place in the
    file. ``games``/``games_checked`` say how far the check is."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_imports"
    )
    #: The file as sent; emptied (None) once the import is over.
    file = models.BinaryField(null=True)
    size = models.PositiveIntegerField()
    status = models.CharField(
        max_length=10, choices=LeagueImportStatus.choices, default=LeagueImportStatus.QUEUED
    )
    games = models.PositiveIntegerField(null=True)
    games_checked = models.PositiveIntegerField(default=0)
    league = models.ForeignKey(League, on_delete=models.SET_NULL, null=True, related_name="+")
    error = models.TextField(blank=True)
    #: Runs started: one cut short (its worker stopped) is run again, not for ever.
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True)

    def __str__(self) -> str:
        return f"import {self.pk} by {self.owner_id}: {self.status}"

    @property
    def over(self) -> bool:
        return self.status in (LeagueImportStatus.DONE, LeagueImportStatus.FAILED)
