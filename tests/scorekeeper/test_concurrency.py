"""Many phones posting to one score sheet at once: every hand is kept, none twice, and
hand numbers stay consecutive. Needs PostgreSQL (row locks across real connections):

    .ci/with-postgres.sh .venv/bin/pytest tests/scorekeeper/test_concurrency.py
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.test import APIClient

from scorekeeper.models import Game, Hand, HandRevision, IdempotencyRecord, Membership
from tests.scorekeeper.factories import make_game, make_league, make_players

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        "postgresql" not in settings.DATABASES["default"]["ENGINE"],
        reason="needs PostgreSQL: set DATABASE_URL=postgres://… (or use with-postgres.sh)",
    ),
]

THREADS = 8


def run_at_once(work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` in THREADS threads released together; each thread has its own
    database connection, closed when it is done."""
    barrier = threading.Barrier(THREADS)
    results: list[Any] = [None] * THREADS
    failures: list[BaseException] = []

    def target(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[index] = work(index)
        except BaseException as exc:  # reported below, in the test's thread
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=target, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    assert not failures, failures
    return results


@pytest.mark.parametrize("in_league", [False, True], ids=["own-game", "league-game"])
def test_parallel_hands_are_numbered_consecutively(transactional_db: None, in_league: bool) -> None:
    owner = User.objects.create_user("ana", password="table-talk-42")
    players = make_players("A", "B", "C", "D", created_by=owner)
    league = make_league(owner) if in_league else None
    game = make_game(
        owner,
        "screw-your-neighbour",
        players,
        options={"target_wins": 0},
        league=league.pk if league else None,
    )
    url = f"/api/v1/games/{game.pk}/hands/"
    per_thread = 5

    def post_hands(index: int) -> list[tuple[int, int]]:
        client = APIClient()
        client.force_authenticate(owner)
        answers = []
        for turn in range(per_thread):
            winner = players[(index + turn) % len(players)].pk
            response = client.post(url, {"winner": winner}, format="json")
            answers.append((response.status_code, response.json().get("number")))
        return answers

    answers = [a for thread in run_at_once(post_hands) for a in thread]
    total = THREADS * per_thread
    assert [status for status, _ in answers] == [201] * total
    assert sorted(number for _, number in answers) == list(range(1, total + 1))

    numbers = list(
        Hand.objects.filter(game=game).order_by("number").values_list("number", flat=True)
    )
    assert numbers == list(range(1, total + 1))
    assert HandRevision.objects.filter(game=game).count() == total
    game.refresh_from_db()
    assert game.hand_count == total
    assert game.version == total + 1  # one bump at creation, one per hand
    wins = APIClient()
    wins.force_authenticate(owner)
    standings = wins.get(f"/api/v1/games/{game.pk}/").json()["standings"]
    assert sum(row["score"] for row in standings) == total


def test_parallel_retries_with_one_idempotency_key_record_one_hand(
    transactional_db: None,
) -> None:
    owner = User.objects.create_user("ana", password="table-talk-42")
    players = make_players("A", "B", "C", created_by=owner)
    game = make_game(owner, "screw-your-neighbour", players, options={"target_wins": 0})

    def post_once(index: int) -> tuple[int, Any]:
        client = APIClient()
        client.force_authenticate(owner)
        response = client.post(
            f"/api/v1/games/{game.pk}/hands/",
            {"winner": players[0].pk},
            format="json",
            headers={"Idempotency-Key": "same-tap"},
        )
        return response.status_code, response.json()

    answers = run_at_once(post_once)
    assert {status for status, _ in answers} == {201}
    assert all(body == answers[0][1] for _, body in answers)
    assert Hand.objects.filter(game=game).count() == 1
    assert IdempotencyRecord.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).hand_count == 1


def test_parallel_games_seating_a_new_player_in_a_league_all_start(
    transactional_db: None,
) -> None:
    """Every game seats a player who is not a member yet: each adds the membership, and
    only one of the inserts can win (issue 9: 5 of 50 requests were an IntegrityError)."""
    owner = User.objects.create_user("ana", password="table-talk-42")
    league = make_league(owner)
    regulars = make_players("A", "B", created_by=owner)
    newcomers = make_players(*(f"N{i}" for i in range(THREADS)), created_by=owner)
    shared = newcomers[0]

    def start(index: int) -> int:
        client = APIClient()
        client.force_authenticate(owner)
        seats = [*(p.pk for p in regulars), shared.pk, newcomers[index].pk]
        if index == 0:
            seats = [*(p.pk for p in regulars), shared.pk]
        response = client.post(
            "/api/v1/games/",
            {"ruleset": "dirt", "players": seats, "league": league.pk},
            format="json",
        )
        return response.status_code

    assert run_at_once(start) == [201] * THREADS
    members = Membership.objects.filter(league=league)
    assert members.count() == len(regulars) + THREADS
    assert members.filter(player=shared).count() == 1
