"""House rules over the API: D$%n You!'s game length, the readings of the originals as
options, and a Dirty Deals claim that places the bower nowhere."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from scorekeeper.models import Hand, Player
from tests.scorekeeper.factories import make_game, make_players

GAMES = "/api/v1/games/"


@pytest.fixture
def four(user: User) -> list[Player]:
    return make_players("P1", "P2", "P3", "P4", created_by=user)


def create(api: APIClient, ruleset: str, players: list[Player], **extra: Any) -> Any:
    return api.post(
        GAMES, {"ruleset": ruleset, "players": [p.pk for p in players], **extra}, format="json"
    )


def test_rulesets_list_the_game_length_options(api: APIClient) -> None:
    damn = api.get("/api/v1/rulesets/damn-you/").json()
    assert damn["options"]["game_length"]["default"] == "one-deal-each"
    assert damn["options"]["game_length"]["choices"] == ["one-deal-each", "rounds", "all-chips"]
    assert (damn["options"]["rounds"]["min"], damn["options"]["rounds"]["max"]) == (1, 20)
    screw = api.get("/api/v1/rulesets/screw-your-neighbour/").json()
    assert screw["options"]["joker_switch"]["choices"] == ["no", "yes"]
    assert screw["options"]["two_joker_pickup"]["choices"] == [4, 6]
    uno = api.get("/api/v1/rulesets/dirty-uno/").json()
    assert uno["options"]["first_wild_draw_four"]["choices"] == ["counts", "reshuffle"]
    dirt = api.get("/api/v1/rulesets/dirt/").json()
    assert dirt["options"]["stuck_draw"]["choices"] == ["one", "until-playable"]


@pytest.mark.parametrize(
    ("options", "hands_total"),
    [
        ({"game_length": "rounds", "rounds": 2}, 8),
        ({"game_length": "all-chips"}, None),
        ({}, 4),
    ],
)
def test_create_a_damn_you_game_with_its_length(
    api: APIClient, four: list[Player], options: dict[str, Any], hands_total: int | None
) -> None:
    response = create(api, "damn-you", four, options=options)
    assert response.status_code == 201, response.content
    game = response.json()
    assert {k: game["options"][k] for k in options} == options
    assert game["options"]["starting_chips"] == 20
    assert api.get(f"{GAMES}{game['id']}/").json()["hands_total"] == hands_total


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (
            {"game_length": "forever"},
            "game_length: must be one of one-deal-each, rounds, all-chips",
        ),
        ({"game_length": "rounds", "rounds": 0}, "rounds: must be between 1 and 20"),
        ({"game_length": "rounds", "rounds": 21}, "rounds: must be between 1 and 20"),
        ({"rounds": "two"}, "rounds: must be a whole number"),
        ({"game_length": 3}, "game_length: must be one of"),
    ],
)
def test_a_bad_game_length_is_a_400_naming_the_options(
    api: APIClient, four: list[Player], options: dict[str, Any], words: str
) -> None:
    response = create(api, "damn-you", four, options=options)
    assert response.status_code == 400
    errors = response.json()
    assert list(errors) == ["options"]
    assert words in errors["options"][0]


def test_the_readings_are_set_when_creating(api: APIClient, four: list[Player]) -> None:
    response = create(
        api, "screw-your-neighbour", four, options={"joker_switch": "yes", "two_joker_pickup": 6}
    )
    assert response.status_code == 201
    assert response.json()["options"] == {
        "target_wins": 3,
        "joker_switch": "yes",
        "two_joker_pickup": 6,
        "queen_two_spades": "no",
    }
    bad = create(api, "dirt", four, options={"stuck_draw": "never"})
    assert bad.status_code == 400
    assert "stuck_draw: must be one of one, until-playable" in bad.json()["options"][0]


def test_a_dirty_deals_bower_in_nobodys_hand_is_a_400(
    api: APIClient, user: User, four: list[Player]
) -> None:
    game = make_game(user, "dirty-deals", four)
    url = f"{GAMES}{game.pk}/hands/"
    for body in (
        {"winner": four[0].pk, "suit": "S", "surplus": ["10H"], "bower_holder": None},
        {"winner": four[0].pk, "suit": "S", "surplus": ["10H"]},
        {"winner": four[0].pk, "suit": "S", "surplus_count": 1, "bower_in_surplus": False},
    ):
        response = api.post(url, body, format="json")
        assert response.status_code == 400, body
        assert response.json()["bower_holder"] == [
            "the bower JC is not in the claimant's surplus, so another player holds it: "
            "say who (or, if the claimant holds it, add it to the surplus)"
        ]
    assert not Hand.objects.exists()
    held = api.post(
        url,
        {"winner": four[0].pk, "suit": "S", "surplus": ["10H"], "bower_holder": four[2].pk},
        format="json",
    )
    assert held.status_code == 201
    in_surplus = api.post(
        url,
        {"winner": four[1].pk, "suit": "S", "surplus": ["JC"], "bower_holder": None},
        format="json",
    )
    assert in_surplus.status_code == 201
