"""Game nights over the API: start one, put games in it, follow its current game, and
read its standings (games won first, then placings summed, equal players share a rank)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from scorekeeper.models import Game, Player
from scorekeeper.selectors.nights import night_standings
from scorekeeper.services.games import hand_record
from scorekeeper.services.nights import night_create
from tests.scorekeeper.factories import make_league, make_players

TWO_WINS = {"target_wins": 2}


@pytest.fixture
def four(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", "Di", created_by=user)


def start_game(api: APIClient, players: list[Player], night: int | None) -> Any:
    body = {
        "ruleset": "screw-your-neighbour",
        "options": TWO_WINS,
        "players": [p.pk for p in players],
        "night": night,
    }
    return api.post("/api/v1/games/", body, format="json")


def play(user: User, game_id: int, *winners: Player) -> None:
    """Record hands won by ``winners`` in turn (two wins end the game)."""
    for winner in winners:
        game = Game.objects.get(pk=game_id)
        hand_record(game=game, user=user, hand_input={"winner": winner.pk})


def test_a_new_night_is_empty(api: APIClient) -> None:
    response = api.post("/api/v1/nights/", {"name": "Friday at Jo's"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "Friday at Jo's"
    assert body["games"] == []
    assert body["current_game"] is None
    assert body["standings"] == []
    assert api.get(f"/api/v1/nights/{body['id']}/").json() == body
    assert api.get("/api/v1/nights/").json() == [body]


def test_a_night_needs_a_name_and_a_league_of_yours(api: APIClient, other_user: User) -> None:
    assert "name" in api.post("/api/v1/nights/", {"name": " "}, format="json").json()
    theirs = make_league(other_user)
    response = api.post("/api/v1/nights/", {"name": "X", "league": theirs.pk}, format="json")
    assert response.status_code == 400
    assert "league" in response.json()


def test_the_newest_game_is_the_current_game(api: APIClient, four: list[Player]) -> None:
    night = api.post("/api/v1/nights/", {"name": "Friday"}, format="json").json()["id"]
    first = start_game(api, four, night)
    assert first.status_code == 201, first.json()
    second = start_game(api, four, night).json()["id"]
    start_game(api, four, None)  # outside the night
    body = api.get(f"/api/v1/nights/{night}/").json()
    assert [g["id"] for g in body["games"]] == [first.json()["id"], second]
    assert body["current_game"] == second


def test_a_game_cannot_join_someone_elses_night(
    api: APIClient, four: list[Player], other_user: User
) -> None:
    theirs = night_create(owner=other_user, name="Theirs")
    response = start_game(api, four, theirs.pk)
    assert response.status_code == 400
    assert "night" in response.json()
    assert start_game(api, four, 999999).status_code == 400
    assert not Game.objects.exists()


def test_someone_elses_night_is_not_found(api: APIClient, other_user: User) -> None:
    theirs = night_create(owner=other_user, name="Theirs")
    assert api.get(f"/api/v1/nights/{theirs.pk}/").status_code == 404
    assert api.get("/api/v1/nights/").json() == []


def test_standings_count_wins_then_placings(api: APIClient, user: User, four: list[Player]) -> None:
    ana, bo, cy, _di = four
    night = api.post("/api/v1/nights/", {"name": "Friday"}, format="json").json()["id"]
    g1 = start_game(api, four, night).json()["id"]
    play(user, g1, ana, ana)  # Ana 1st; Bo, Cy, Di share 2nd
    g2 = start_game(api, four, night).json()["id"]
    play(user, g2, bo, cy, bo)  # Bo 1st, Cy 2nd; Ana, Di share 3rd
    start_game(api, four, night)  # not finished: not counted
    rows = api.get(f"/api/v1/nights/{night}/").json()["standings"]
    # Ana and Bo one win each; Bo's placings 3 beat Ana's 4. Cy 4 beats Di 5: no wins.
    assert [(r["name"], r["wins"], r["placings"], r["rank"]) for r in rows] == [
        ("Bo", 1, 3, 1),
        ("Ana", 1, 4, 2),
        ("Cy", 0, 4, 3),
        ("Di", 0, 5, 4),
    ]
    assert all(r["games"] == 2 for r in rows)


def test_players_equal_on_wins_and_placings_share_a_rank(
    api: APIClient, user: User, four: list[Player]
) -> None:
    ana, bo, _cy, _di = four
    night = night_create(owner=user, name="Friday")
    g1 = start_game(api, four, night.pk).json()["id"]
    play(user, g1, ana, ana)
    g2 = start_game(api, four, night.pk).json()["id"]
    play(user, g2, bo, bo)
    rows = night_standings(night)
    assert [(r.name, r.rank) for r in rows] == [("Ana", 1), ("Bo", 1), ("Cy", 3), ("Di", 3)]
