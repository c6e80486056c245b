"""Games of one league finishing at the same moment on different phones: the league's
standings take both results, none is lost to the other. Needs PostgreSQL:

    .ci/with-postgres.sh .venv/bin/pytest tests/scorekeeper/ratings/test_concurrency.py
"""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection

from scorekeeper.models import League, Player, PlayerStanding
from scorekeeper.ratings.backlog import process_backlog
from scorekeeper.ratings.rebuild import league_stats_rebuild
from scorekeeper.services.games import game_create, hand_record, hand_replace
from tests.scorekeeper.league_factories import play_syn

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="needs PostgreSQL: set DATABASE_URL=postgres://… (or use with-postgres.sh)",
    ),
]

TABLES = 6


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
