"""A game's ruleset is checked against the engine's registry, not against a list frozen in
a migration: a game the engine does not have is refused at every door, naming
``ruleset``, and a game it has needs no migration."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import Client

from games import RULESETS
from scorekeeper.models import Game, Player
from tests.scorekeeper.factories import make_game, make_players


@pytest.fixture
def three(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", created_by=user)


def test_the_field_keeps_no_list_of_games() -> None:
    assert Game._meta.get_field("ruleset").choices is None


def test_a_stored_game_of_every_ruleset_is_valid(user: User, three: list[Player]) -> None:
    for slug in RULESETS:
        if RULESETS[slug].min_players <= len(three):
            options = dict(RULESETS[slug].example_options)
            game = make_game(user, slug, three, options=options)
            game.full_clean()
            title = RULESETS[slug].game_title(game.options)
            assert str(game) == f"{title} #{game.pk}"


def test_a_game_the_engine_does_not_have_is_refused_naming_ruleset(
    user: User, three: list[Player]
) -> None:
    game = make_game(user, "dirt", three)
    game.ruleset = "poker"
    with pytest.raises(ValidationError) as caught:
        game.full_clean()
    assert list(caught.value.message_dict) == ["ruleset"]
    assert "'poker' is not a game here" in caught.value.message_dict["ruleset"][0]


def test_the_new_game_page_refuses_an_unknown_game(user: User) -> None:
    client = Client()
    client.force_login(user)
    response = client.post("/games/new/", {"ruleset": "poker", "seat_count": "3"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "ruleset: &#x27;poker&#x27; is not a game here" in page
    # The table can still choose a game it has.
    assert all(f"?ruleset={slug}" in page for slug in RULESETS)
    assert not Game.objects.exists()


def test_the_new_game_page_without_a_game_asks_which(user: User) -> None:
    client = Client()
    client.force_login(user)
    response = client.get("/games/new/")
    assert response.status_code == 200
    assert "Not started" not in response.content.decode()


def test_the_api_refuses_an_unknown_game(api, user: User, three: list[Player]) -> None:  # type: ignore[no-untyped-def]
    response = api.post(
        "/api/v1/games/",
        {"ruleset": "poker", "players": [p.pk for p in three]},
        format="json",
    )
    assert response.status_code == 400
    assert "ruleset" in response.json()
    assert not Game.objects.exists()
