"""The background worker (``manage.py worker``) always finishes a league's re-rate: a
task killed with its worker or failed on a database error is queued again (at the
worker's start, by its periodic sweep, by the next correction) and resumes from the
league's mark, and the worker outlives a lost database connection."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator

import pytest
from django.core.management import call_command
from django.db import OperationalError, connection
from django_tasks_db.models import DBTaskResult, DBTaskResultQuerySet

from scorekeeper.management.commands import worker as worker_command
from scorekeeper.models import League, RatingBacklog
from scorekeeper.ratings import backlog, hooks
from scorekeeper.ratings.backlog import process_backlog
from scorekeeper.services.games import hand_replace
from tests.scorekeeper.league_factories import play_syn
from tests.scorekeeper.ratings.derived import points, snapshot

pytestmark = pytest.mark.django_db(transaction=True)

on_postgres = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="needs PostgreSQL (DATABASE_URL=postgres://…)"
)


@pytest.fixture(autouse=True)
def queued_in_the_database(settings, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Tasks are rows in the database, as in production, and a correction of any but
    the last two games is left to them."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    monkeypatch.setattr(hooks, "INLINE_POINTS", 8)


@pytest.fixture
def signals_kept() -> Iterator[None]:
    """The worker command takes SIGINT and SIGTERM; the test run gets them back."""
    kept = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT)}
    yield
    for sig, handler in kept.items():
        signal.signal(sig, handler)


def corrected_night(user, league, four, games: int = 12):  # type: ignore[no-untyped-def]
    """A night of games, its first one corrected: a re-rate left to the worker."""
    played = [
        play_syn(user, league, four, [four[i % 4]], minutes_ago=100 - i) for i in range(games)
    ]
    hand_replace(game=played[0], number=1, user=None, hand_input={"winner": four[3].pk})
    assert RatingBacklog.objects.exists()
    return played


def settled(league: League) -> bool:
    """The league has no mark left and equals a rebuild (which is then its state)."""
    if RatingBacklog.objects.filter(league=league).exists():
        return False
    live = (snapshot(league), points(league))
    call_command("rebuild_derived", verbosity=0)
    return (snapshot(league), points(league)) == live


def wait_for(condition, seconds: float = 20.0) -> bool:  # type: ignore[no-untyped-def]
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_a_replay_killed_with_its_worker_is_resumed_when_a_worker_starts(
    user, league, four, signals_kept
):
    games = corrected_night(user, league, four)
    task = DBTaskResult.objects.get()
    task.claim("killed")  # a worker took it, replayed a chunk, and was killed

    class Killed(BaseException):
        pass

    def kill(_seconds: float, _games: int) -> None:
        raise Killed

    with pytest.raises(Killed):
        process_backlog(league.pk, chunk_games=4, on_chunk=kill)
    assert RatingBacklog.objects.get(ruleset="").since_game_id == games[4].pk

    call_command(
        "worker", "--batch", "--no-reload", "--no-startup-delay", "--sweep-interval=0",
        verbosity=0,
    )  # fmt: skip

    assert settled(league)
    assert DBTaskResult.objects.filter(status="RUNNING").count() == 1  # the dead one's row
    assert DBTaskResult.objects.filter(status="SUCCESSFUL").count() == 1


def test_a_replay_failed_on_a_database_error_is_resumed_by_the_sweep(
    user, league, four, monkeypatch, start_worker
):
    corrected_night(user, league, four)
    real = backlog.rate_games
    calls: list[int] = []

    def failing_once(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 2:
            raise OperationalError("server closed the connection unexpectedly")
        return real(*args, **kwargs)

    monkeypatch.setattr(backlog, "CHUNK_GAMES", 4)
    monkeypatch.setattr(backlog, "rate_games", failing_once)
    stop = start_worker()
    assert wait_for(lambda: not RatingBacklog.objects.exists())
    stop()

    assert DBTaskResult.objects.filter(status="FAILED").count() == 1
    assert DBTaskResult.objects.filter(status="SUCCESSFUL").exists()
    assert settled(league)


def test_a_correction_queues_the_re_rate_again_when_the_mark_stays(
    user, league, four, signals_kept
):
    games = corrected_night(user, league, four)
    DBTaskResult.objects.update(status="FAILED")  # the queued replay failed

    hand_replace(game=games[5], number=1, user=None, hand_input={"winner": four[2].pk})
    hand_replace(game=games[6], number=1, user=None, hand_input={"winner": four[3].pk})

    assert RatingBacklog.objects.get(ruleset="").since_game_id == games[0].pk
    assert DBTaskResult.objects.filter(status="READY").count() == 1  # once, not per change
    call_command("worker", "--batch", "--no-reload", "--no-startup-delay", verbosity=0)
    assert settled(league)


def test_the_worker_outlives_the_database_going_away(user, league, four, monkeypatch, start_worker):
    """The server restarts while the worker waits for tasks: its next look fails."""
    games = [play_syn(user, league, four, [four[i % 4]], minutes_ago=100 - i) for i in range(12)]
    monkeypatch.setattr(worker_command, "RECONNECT_SECONDS", 0.05)
    looks: list[int] = []
    real = DBTaskResultQuerySet.get_locked

    def get_locked(self):  # type: ignore[no-untyped-def]
        looks.append(1)
        if 2 <= len(looks) <= 4:
            raise OperationalError("the connection is lost")
        return real(self)

    monkeypatch.setattr(DBTaskResultQuerySet, "get_locked", get_locked)
    stop = start_worker(sweep_interval=0.0)
    assert wait_for(lambda: len(looks) > 5)  # it looked again after the failures

    hand_replace(game=games[0], number=1, user=None, hand_input={"winner": four[3].pk})
    assert wait_for(lambda: not RatingBacklog.objects.exists())
    stop()
    assert settled(league)


@on_postgres
def test_the_worker_outlives_a_lost_database_connection(user, league, four, start_worker):
    games = [play_syn(user, league, four, [four[i % 4]], minutes_ago=100 - i) for i in range(12)]
    stop = start_worker(sweep_interval=0.0)
    time.sleep(0.3)  # waiting for tasks
    with connection.cursor() as cursor:  # as a restart of the server would
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )

    hand_replace(game=games[0], number=1, user=None, hand_input={"winner": four[3].pk})
    assert wait_for(lambda: not RatingBacklog.objects.exists())
    stop()
    assert settled(league)
