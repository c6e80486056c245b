"""Games of one league finishing, and its games corrected, at the same moment on different
phones: the league's standings take every result, none is lost to another, and no write
fails on a deadlock. Needs PostgreSQL:

    .ci/with-postgres.sh .venv/bin/pytest tests/scorekeeper/ratings/test_concurrency.py
"""

from __future__ import annotations

import threading
import time

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django_tasks_db.models import DBTaskResult

from scorekeeper.models import Game, League, Player, PlayerStanding, RatingBacklog
from scorekeeper.ratings.backlog import process_backlog
from scorekeeper.ratings.rebuild import league_stats_rebuild, rebuild_derived
from scorekeeper.services.games import game_create, hand_record, hand_replace
from tests.scorekeeper.league_factories import play_syn
from tests.scorekeeper.ratings.derived import points, snapshot

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="needs PostgreSQL: set DATABASE_URL=postgres://… (or use with-postgres.sh)",
    ),
]

TABLES = 6
#: How long two tables keep correcting games of one league at once.
RACE_SECONDS = 6


def _standings(league: League) -> dict[tuple[str, int], tuple[int, int, float, float]]:
    return {
        (s.ruleset, s.player_id): (s.games, s.wins, s.mu, s.sigma)
        for s in PlayerStanding.objects.filter(league=league)
    }


@pytest.mark.django_db(transaction=True)
def test_games_finishing_together_all_count() -> None:
    owner = User.objects.create_user("host", password="table-talk-42")
    league = League.objects.create(name="Big night", owner=owner)
    players = [Player.objects.create(name=f"P{i}", created_by=owner) for i in range(8)]
    games = [
        game_create(
            owner=owner, ruleset="screw-your-neighbour", league=league,
            players=[players[(t + k) % 8].pk for k in range(4)], options={"target_wins": 1},
        )
        for t in range(TABLES)
    ]  # fmt: skip
    barrier = threading.Barrier(TABLES)
    failures: list[BaseException] = []

    def finish(index: int) -> None:
        try:
            game = games[index]
            winner = players[index % 8].pk
            barrier.wait()
            hand_record(game=game, user=None, hand_input={"winner": winner})
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=finish, args=(i,)) for i in range(TABLES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures, failures

    live = _standings(league)
    assert sum(games for (scope, _), (games, *_rest) in live.items() if scope == "") == 4 * TABLES
    league_stats_rebuild(league)
    assert _standings(league) == live


@pytest.mark.django_db(transaction=True)
def test_games_finishing_during_a_background_replay_all_count(monkeypatch, settings) -> None:
    """A correction to an old game is replayed by the worker, a few games per chunk,
    while other tables keep finishing games: every game is rated, as a rebuild would."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    monkeypatch.setattr("scorekeeper.ratings.hooks.INLINE_POINTS", 4)
    owner = User.objects.create_user("host", password="table-talk-42")
    league = League.objects.create(name="Long season", owner=owner)
    players = [Player.objects.create(name=f"P{i}", created_by=owner) for i in range(6)]
    old = [
        play_syn(owner, league, players[i % 3 : i % 3 + 4], [players[i % 3]], minutes_ago=90 - i)
        for i in range(30)
    ]
    hand_replace(game=old[0], number=1, user=None, hand_input={"winner": players[3].pk})
    failures: list[BaseException] = []

    def other_tables() -> None:
        try:
            for i in range(TABLES):
                play_syn(owner, league, players[i % 2 : i % 2 + 4], [players[i % 2 + 1]])
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=other_tables)
    thread.start()
    process_backlog(league.pk, chunk_games=3)
    thread.join(timeout=60)
    process_backlog(league.pk)  # whatever finished after the worker's last chunk
    assert not failures, failures

    live = _standings(league)
    assert sum(n for (scope, _), (n, *_rest) in live.items() if scope == "") == 4 * (30 + TABLES)
    league_stats_rebuild(league)
    assert _standings(league) == live


def _deadlocks() -> int:
    """Deadlocks PostgreSQL has broken in this database, once the other connections
    (whose statistics are sent as they close) are gone."""
    with connection.cursor() as cursor:
        for _ in range(100):
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            if cursor.fetchone()[0] == 0:
                break
            time.sleep(0.05)
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
        return int(cursor.fetchone()[0])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("replay", ["inline", "worker"])
def test_corrections_of_two_games_during_a_replay_never_deadlock(
    replay, monkeypatch, settings, start_worker
):
    """Two tables correct the first hand of the 6th and the 36th game of a 40-game league
    over and over, each correction re-rating the league from its game: on the request
    (each write holds its game, then the league, and writes the later games' rating
    points), or left to the worker (``manage.py worker``'s loop) replaying three games a
    chunk. Every write goes through, PostgreSQL breaks no deadlock, no task fails, and
    the ratings end as a rebuild's."""
    if replay == "inline":
        settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    else:  # tasks as rows in the database (start_worker)
        monkeypatch.setattr("scorekeeper.ratings.hooks.INLINE_POINTS", 0)
        monkeypatch.setattr("scorekeeper.ratings.backlog.CHUNK_GAMES", 3)
        monkeypatch.setattr("scorekeeper.ratings.backlog.MIN_CHUNK_GAMES", 3)
        monkeypatch.setattr("scorekeeper.ratings.backlog.CHUNK_SECONDS", 0.0)
    owner = User.objects.create_user("host", password="table-talk-42")
    league = League.objects.create(name="Corrections night", owner=owner)
    players = [Player.objects.create(name=f"P{i}", created_by=owner) for i in range(6)]
    games = [
        play_syn(owner, league, players[i % 3 : i % 3 + 4], [players[i % 3]], minutes_ago=90 - i)
        for i in range(40)
    ]
    deadlocks = _deadlocks()
    until = time.monotonic() + RACE_SECONDS
    failures: list[BaseException] = []
    writes = [0, 0]

    def correct(table: int, game: Game) -> None:
        seated = list(game.seats.order_by("position").values_list("player_id", flat=True))
        try:
            while time.monotonic() < until:
                winner = seated[(writes[table] + 1) % 4]  # a new ranking each time
                hand_replace(game=game, number=1, user=None, hand_input={"winner": winner})
                writes[table] += 1
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)
        finally:
            connection.close()

    stop_worker = start_worker() if replay == "worker" else (lambda: None)
    threads = [threading.Thread(target=correct, args=(0, games[5]))]
    threads.append(threading.Thread(target=correct, args=(1, games[35])))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=RACE_SECONDS + 30)
    stop_worker()
    assert not failures, failures
    assert min(writes) > 5
    assert _deadlocks() == deadlocks
    if replay == "worker":
        assert DBTaskResult.objects.filter(status="SUCCESSFUL").exists()
        assert not DBTaskResult.objects.filter(status="FAILED").exists()

    process_backlog(league.pk)  # what the worker had left
    assert not RatingBacklog.objects.exists()
    live = (snapshot(league), points(league))
    rebuild_derived(leagues=[league.pk], games=[])
    assert (snapshot(league), points(league)) == live
