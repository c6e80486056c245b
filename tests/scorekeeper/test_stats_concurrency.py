"""Games of one league finishing at the same moment on different phones: the league's
standings take both results, none is lost to the other. Needs PostgreSQL:

    /work/shared/ci/with-postgres.sh .venv/bin/pytest tests/scorekeeper/test_stats_concurrency.py
"""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection

from scorekeeper.models import League, Player, PlayerStanding
from scorekeeper.services.games import game_create, hand_record
from scorekeeper.services.stats import league_stats_rebuild

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
    players = [Player.objects.create(name=f"P{i}") for i in range(8)]
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
