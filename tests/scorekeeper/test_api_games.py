"""Games over the API: starting score sheets, who may see and change them, listing,
ending by hand and deleting."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from scorekeeper.models import Game, Hand, Membership, Player, Seat
from tests.scorekeeper.factories import make_game, make_league, make_player, make_players

GAMES = "/api/v1/games/"


@pytest.fixture
def four(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", "Di", created_by=user)


@pytest.fixture
def bo_api(other_user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(other_user)
    return client


def ids(players: list[Player]) -> list[int]:
    return [p.pk for p in players]


# -- creating ------------------------------------------------------------------------


def test_start_a_game_with_everything(api: APIClient, user: User, four: list[Player]) -> None:
    a, b, c, d = ids(four)
    league = make_league(user)
    response = api.post(
        GAMES,
        {
            "ruleset": "dirt",
            "variant": "baby",
            "options": {"ten_points": 1},
            "players": [c, a, d, b],
            "teams": [[c, d], [a, b]],
            "first_dealer": c,
            "league": league.pk,
        },
        format="json",
    )
    assert response.status_code == 201
    game = response.json()
    assert response["Location"] == f"/api/v1/games/{game['id']}/"
    assert game["ruleset"] == "dirt"
    assert game["variant"] == "baby"
    assert game["options"] == {"ten_points": 1, "decks": 3, "stuck_draw": "one"}
    assert game["players"] == [
        {"id": c, "name": "Cy", "seat": 0, "team": 0},
        {"id": a, "name": "Ana", "seat": 1, "team": 1},
        {"id": d, "name": "Di", "seat": 2, "team": 0},
        {"id": b, "name": "Bo", "seat": 3, "team": 1},
    ]
    assert game["teams"] == [[c, d], [a, b]]
    assert game["status"] == "in_progress"
    assert game["hands"] == []
    assert game["standings"] == [
        {"team": 0, "players": [c, d], "names": ["Cy", "Di"], "score": 0, "rank": 1},
        {"team": 1, "players": [a, b], "names": ["Ana", "Bo"], "score": 0, "rank": 1},
    ]
    assert game["winners"] == []
    assert game["next_hand"] == {"number": 1, "dealer": c, "dirt_rank": "6", "hands_left": 6}
    assert game["league"] == league.pk
    assert game["owner"] == user.pk
    assert game["can_change"] is True
    # Seated players join the game's league.
    assert set(Membership.objects.values_list("player_id", flat=True)) == {a, b, c, d}


def test_defaults_are_filled_in(api: APIClient, four: list[Player]) -> None:
    game = api.post(GAMES, {"ruleset": "dirty-uno", "players": ids(four)}, format="json").json()
    assert game["variant"] is None
    assert game["options"] == {"scoring": "standard", "first_wild_draw_four": "counts"}
    assert game["teams"] is None
    assert game["first_dealer"] == four[0].pk
    assert game["next_hand"]["dealer"] == four[0].pk
    assert [row["score"] for row in game["standings"]] == [0, 0, 0, 0]


def test_game_level_extras(api: APIClient, four: list[Player]) -> None:
    a, b, c, d = ids(four)
    damn = api.post(GAMES, {"ruleset": "damn-you", "players": [a, b, c, d]}, format="json").json()
    assert damn["pot"] == 0
    # Dealer A: the deal starts with B, so A (the dealer) and D (on A's right) are short.
    assert damn["next_hand"]["short"] == [a, d]
    assert [row["score"] for row in damn["standings"]] == [20, 20, 20, 20]

    deals = api.post(
        GAMES, {"ruleset": "dirty-deals", "players": [a, b, c, d]}, format="json"
    ).json()
    assert deals["rubber"] == 1
    assert all(row["rubbers"] == 0 for row in deals["standings"])


def bad_create(api: APIClient, body: Any) -> dict[str, Any]:
    response = api.post(GAMES, body, format="json")
    assert response.status_code == 400, response.content
    assert not Game.objects.exists()
    assert not Seat.objects.exists()
    return response.json()


def test_unknown_ruleset(api: APIClient, four: list[Player]) -> None:
    errors = bad_create(api, {"ruleset": "poker", "players": ids(four)})
    assert errors == {
        "ruleset": [
            "'poker' is not a game here (choose dirt, screw-your-neighbour, damn-you, dirty-uno, "
            "dirty-deals, custom)"
        ]
    }


def test_missing_players(api: APIClient) -> None:
    assert bad_create(api, {"ruleset": "dirt"}) == {"players": ["This field is required."]}
    assert bad_create(api, {"ruleset": "dirt", "players": []}) == {
        "players": ["This list may not be empty."]
    }


@pytest.mark.parametrize(
    ("body", "field", "fragment"),
    [
        ({"ruleset": "dirt", "players": "1,2,3"}, "players", "Expected a list"),
        ({"ruleset": "dirt", "players": {"a": 1}}, "players", "Expected a list"),
        (
            {"ruleset": "dirt", "players": [1, "x", 3]},
            "players",
            "item 2: A valid integer is required.",
        ),
        ({"ruleset": "dirt", "players": [1, 2, 10**30]}, "players", "item 3: whole numbers must"),
        ({"ruleset": "dirt", "players": [1, 2, -3]}, "players", "item 3: ids are whole numbers"),
        ({"ruleset": "dirt", "players": [1, 2, 3], "league": 10**30}, "league", "fit in 64 bits"),
        ({"ruleset": ["dirt"], "players": [1, 2, 3]}, "ruleset", "is not a game here"),
        (
            {"ruleset": "dirt", "players": [1, 2, 3], "options": "ten_points=10"},
            "options",
            "Expected a dictionary",
        ),
        (
            {"ruleset": "dirt", "players": [1, 2, 3], "options": [1]},
            "options",
            "Expected a dictionary",
        ),
        (
            {"ruleset": "dirt", "players": [1, 2, 3], "teams": [1, 2]},
            "teams",
            "item 1: Expected a list",
        ),
        (
            {"ruleset": "dirt", "players": [1, 2, 3], "first_dealer": "Ana"},
            "first_dealer",
            "A valid integer is required.",
        ),
        (
            {"ruleset": "dirt", "players": [1, 2, 3], "league": [7]},
            "league",
            "A valid integer is required.",
        ),
    ],
)
def test_wrong_types(api: APIClient, body: dict[str, Any], field: str, fragment: str) -> None:
    errors = bad_create(api, body)
    assert list(errors) == [field]
    assert fragment in errors[field][0]


def test_rules_of_the_set_up(
    api: APIClient, user: User, other_user: User, four: list[Player]
) -> None:
    a, b, c, d = ids(four)
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"ruleset": "dirt", "players": [a, b, a]}, "players", f"player {a} is seated twice"),
        ({"ruleset": "dirt", "players": [a, b, 9999]}, "players", "player 9999 does not exist"),
        (
            {"ruleset": "dirt", "players": [a, b]},
            "players",
            "Dirt on Your Neighbor is for 3 to 61 players, not 2",
        ),
        ({"ruleset": "dirty-deals", "players": [a, b, c]}, "players", "exactly 4 players"),
        (
            {"ruleset": "dirt", "variant": "huge", "players": [a, b, c]},
            "variant",
            "'huge' is not a variant",
        ),
        (
            {"ruleset": "dirt", "players": [a, b, c], "options": {"ten_points": 5}},
            "options",
            "ten_points: must be one of 1, 10",
        ),
        (
            {"ruleset": "dirt", "players": [a, b, c], "options": {"jokers": 0}},
            "options",
            "'jokers' is not an option",
        ),
        (
            {"ruleset": "damn-you", "players": [a, b, c], "options": {"starting_chips": -5}},
            "options",
            "starting_chips: must be between 1 and 1000",
        ),
        (
            {"ruleset": "dirt", "players": [a, b, c, d], "teams": [[a, b], [c]]},
            "teams",
            f"player {d} is in no team",
        ),
        (
            {"ruleset": "dirt", "players": [a, b, c, d], "teams": [[a, b, c], [d]]},
            "teams",
            "same size",
        ),
        (
            {"ruleset": "damn-you", "players": [a, b, c, d], "teams": [[a, b], [c, d]]},
            "teams",
            "is not played in teams",
        ),
        (
            {"ruleset": "dirt", "players": [a, b, c], "first_dealer": d},
            "first_dealer",
            "is not seated",
        ),
    ]
    for body, field, fragment in cases:
        errors = bad_create(api, body)
        assert list(errors) == [field], body
        assert fragment in errors[field][0], (body, errors)

    strangers = make_league(other_user, "Their league")
    errors = bad_create(api, {"ruleset": "dirt", "players": [a, b, c], "league": strangers.pk})
    assert errors == {"league": [f"league {strangers.pk} does not exist or you are not in it"]}


def test_malformed_json(api: APIClient) -> None:
    response = api.post(
        GAMES, '{"ruleset": "dirt", "players": [1,', content_type="application/json"
    )
    assert response.status_code == 400
    assert "JSON parse error" in response.json()["detail"]
    assert bad_create(api, [1, 2, 3]) == {
        "non_field_errors": ["Invalid data. Expected a dictionary, but got list."]
    }


# -- seeing and changing ---------------------------------------------------------------


def test_a_game_you_cannot_see_is_not_found(
    api: APIClient, bo_api: APIClient, user: User, four: list[Player]
) -> None:
    game = make_game(user, "screw-your-neighbour", four)
    url = f"{GAMES}{game.pk}/"
    assert bo_api.get(url).status_code == 404
    assert bo_api.post(f"{url}hands/", {"winner": four[0].pk}, format="json").status_code == 404
    assert bo_api.delete(url).status_code == 404
    assert bo_api.post(f"{url}close/").status_code == 404
    assert bo_api.get(GAMES).json()["count"] == 0
    assert api.get(f"{GAMES}{game.pk + 100}/").status_code == 404
    assert not Hand.objects.exists()


def test_sitting_at_a_game_shows_it_but_does_not_let_you_change_it(
    api: APIClient, bo_api: APIClient, user: User, other_user: User, four: list[Player]
) -> None:
    bo = make_player("Bo (account)", user=other_user, created_by=user)
    game = make_game(user, "screw-your-neighbour", [*four[:2], bo])
    api.post(f"{GAMES}{game.pk}/hands/", {"winner": bo.pk}, format="json")
    url = f"{GAMES}{game.pk}/"

    seen = bo_api.get(url)
    assert seen.status_code == 200
    assert seen.json()["can_change"] is False
    assert bo_api.get(GAMES).json()["count"] == 1
    for response in (
        bo_api.post(f"{url}hands/", {"winner": bo.pk}, format="json"),
        bo_api.put(f"{url}hands/1/", {"winner": bo.pk}, format="json"),
        bo_api.delete(f"{url}hands/1/"),
        bo_api.post(f"{url}close/"),
        bo_api.delete(url),
    ):
        assert response.status_code == 403
        assert "owner" in response.json()["detail"]
    assert Hand.objects.count() == 1
    assert Game.objects.get().closed is False


def test_league_members_may_change_league_games(
    bo_api: APIClient, user: User, other_user: User, four: list[Player]
) -> None:
    bo = make_player("Bo (account)", user=other_user)
    league = make_league(user, members=[bo])
    game = make_game(user, "screw-your-neighbour", four[:3], league=league.pk)
    response = bo_api.post(f"{GAMES}{game.pk}/hands/", {"winner": four[0].pk}, format="json")
    assert response.status_code == 201
    assert bo_api.get(f"{GAMES}{game.pk}/").json()["can_change"] is True


# -- listing ---------------------------------------------------------------------------


def test_list_newest_first_with_filters(
    api: APIClient, user: User, other_user: User, four: list[Player]
) -> None:
    league = make_league(user)
    first = make_game(user, "dirt", four[:3])
    second = make_game(
        user, "screw-your-neighbour", four[:3], league=league.pk, options={"target_wins": 1}
    )
    third = make_game(user, "dirty-uno", four[:2])
    make_game(other_user, "dirt", make_players("Eve", "Fay", "Gus", created_by=other_user))
    api.post(f"{GAMES}{second.pk}/hands/", {"winner": four[0].pk}, format="json")

    def listed(**params: Any) -> list[int]:
        response = api.get(GAMES, params)
        assert response.status_code == 200
        return [g["id"] for g in response.json()["results"]]

    assert listed() == [third.pk, second.pk, first.pk]
    assert listed(status="finished") == [second.pk]
    assert listed(status="in_progress") == [third.pk, first.pk]
    assert listed(ruleset="dirt") == [first.pk]
    assert listed(league=league.pk) == [second.pk]
    assert listed(player=four[2].pk) == [second.pk, first.pk]

    summary = api.get(GAMES).json()["results"][1]
    assert "hands" not in summary
    assert summary["status"] == "finished"
    assert summary["winners"] == [four[0].pk]
    assert summary["hand_count"] == 1


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"status": "done"}, "status"),
        ({"ruleset": "chess"}, "ruleset"),
        ({"league": "mine"}, "league"),
        ({"league": str(10**30)}, "league"),
        ({"player": str(10**30)}, "player"),
    ],
)
def test_bad_filters(api: APIClient, params: dict[str, str], field: str) -> None:
    response = api.get(GAMES, params)
    assert response.status_code == 400
    assert list(response.json()) == [field]


def test_list_takes_a_fixed_number_of_queries(
    api: APIClient, user: User, four: list[Player], django_assert_max_num_queries: Any
) -> None:
    for _ in range(3):
        game = make_game(user, "dirt", four)
        api.post(
            f"{GAMES}{game.pk}/hands/",
            {"winner": four[0].pk, "results": [{"player": p.pk, "points": 3} for p in four[1:]]},
            format="json",
        )
    with django_assert_max_num_queries(8):
        assert api.get(GAMES).json()["count"] == 3
    for _ in range(10):
        make_game(user, "dirt", four)
    with django_assert_max_num_queries(8):
        assert api.get(GAMES).json()["count"] == 13


# -- ending by hand, deleting ------------------------------------------------------------


def test_close_and_reopen_an_open_ended_game(
    api: APIClient, user: User, four: list[Player]
) -> None:
    a, b, c, _ = ids(four)
    game = make_game(user, "screw-your-neighbour", four[:3], options={"target_wins": 0})
    url = f"{GAMES}{game.pk}/"
    response = api.post(f"{url}close/")
    assert response.status_code == 400
    assert "no hands" in response.json()["closed"][0]

    for winner in (a, b, b):
        assert api.post(f"{url}hands/", {"winner": winner}, format="json").status_code == 201
    closed = api.post(f"{url}close/")
    assert closed.status_code == 200
    body = closed.json()
    assert body["status"] == "finished"
    assert body["closed"] is True
    assert body["ended_by"] == "closed"
    assert body["winners"] == [b]
    assert body["next_hand"] is None
    assert [(r["player"], r["score"], r["rank"]) for r in body["standings"]] == [
        (b, 2, 1),
        (a, 1, 2),
        (c, 0, 3),
    ]
    assert api.post(f"{url}close/").status_code == 409
    assert api.post(f"{url}hands/", {"winner": a}, format="json").status_code == 409

    reopened = api.post(f"{url}reopen/")
    assert reopened.status_code == 200
    assert reopened.json()["status"] == "in_progress"
    assert reopened.json()["winners"] == []
    assert api.post(f"{url}reopen/").status_code == 409
    assert api.post(f"{url}hands/", {"winner": a}, format="json").status_code == 201


def test_delete_a_game(api: APIClient, user: User, four: list[Player]) -> None:
    game = make_game(user, "screw-your-neighbour", four[:3])
    api.post(f"{GAMES}{game.pk}/hands/", {"winner": four[0].pk}, format="json")
    assert api.delete(f"{GAMES}{game.pk}/").status_code == 204
    assert not Game.objects.exists()
    assert not Hand.objects.exists()
    assert api.get(f"{GAMES}{game.pk}/").status_code == 404
    assert api.delete(f"{GAMES}{game.pk}/").status_code == 404
