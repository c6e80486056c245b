"""Impossible hands over the API (400 naming the field) and on the sheet (at the pad).

Dirt: "the other players score points for all the cards remaining in their hands", and
no card scores less than 1; Dirty UNO the same. A player who did not go out therefore
never has no cards or 0 points.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from scorekeeper.models import Hand, Player
from scorekeeper.services.games import hand_record
from tests.scorekeeper.factories import make_game, make_players
from tests.scorekeeper.test_web_entry_checks import beside
from tests.scorekeeper.test_web_games import post_hand

GAMES = "/api/v1/games/"


@pytest.fixture
def three(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", created_by=user)


@pytest.mark.parametrize("slug", ["dirt", "dirty-uno"])
def test_api_refuses_zero_points_for_a_player_who_did_not_go_out(
    api: APIClient, user: User, three: list[Player], slug: str
) -> None:
    a, b, c = three
    game = make_game(user, slug, three)
    body = {
        "winner": a.pk,
        "results": [{"player": b.pk, "points": 0}, {"player": c.pk, "cards": []}],
    }
    response = api.post(f"{GAMES}{game.pk}/hands/", body, format="json")
    assert response.status_code == 400
    messages = response.json()["results"]
    assert any(f"player {b.pk} did not go out" in m and "0 points" in m for m in messages)
    assert any(f"player {c.pk} did not go out" in m and "no cards" in m for m in messages)
    assert not Hand.objects.filter(game=game).exists()


def test_api_refuses_an_impossible_correction(
    api: APIClient, user: User, three: list[Player]
) -> None:
    a, b, c = three
    game = make_game(user, "dirt", three)
    good = {
        "winner": a.pk,
        "results": [{"player": b.pk, "points": 3}, {"player": c.pk, "points": 4}],
    }
    hand_record(game=game, user=user, hand_input=good)
    bad = {
        "winner": a.pk,
        "results": [{"player": b.pk, "points": 0}, {"player": c.pk, "points": 4}],
    }
    response = api.put(f"{GAMES}{game.pk}/hands/1/", bad, format="json")
    assert response.status_code == 400
    assert "did not go out" in " ".join(response.json()["results"])
    assert Hand.objects.get(game=game, number=1).input == good


def test_api_refuses_a_surplus_of_eighteen_with_the_bower_elsewhere(
    api: APIClient, user: User
) -> None:
    four = make_players("P1", "P2", "P3", "P4", created_by=user)
    game = make_game(user, "dirty-deals", four)
    body = {"winner": four[0].pk, "suit": "H", "surplus_count": 18, "bower_holder": four[1].pk}
    response = api.post(f"{GAMES}{game.pk}/hands/", body, format="json")
    assert response.status_code == 400
    assert "holds all 24 cards" in " ".join(response.json()["surplus_count"])


def test_the_sheet_says_it_at_the_pad(client: Client, user: User, three: list[Player]) -> None:
    client.force_login(user)
    a, b, c = three
    game = make_game(user, "dirt", three)
    response = post_hand(
        client, game, {"winner": str(a.pk), f"points_{b.pk}": "0", f"cards_{c.pk}": "4H"}
    )
    assert response.status_code == 422
    said = beside(response.content.decode(), f"problems-{b.pk}")
    assert "Bo did not go out, so holds at least one card" in said
    assert not Hand.objects.filter(game=game).exists()
