"""Players over the API: anyone signed in can add players and find their own (see
test_players_belong.py for whose players an account sees and seats)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from scorekeeper.models import Player
from tests.scorekeeper.factories import make_players


def test_add_a_player(api: APIClient, user: User) -> None:
    response = api.post("/api/v1/players/", {"name": "  Ana   Lima "}, format="json")
    assert response.status_code == 201
    player = Player.objects.get()
    assert response.json() == {
        "id": player.pk,
        "name": "Ana Lima",
        "colour": (player.pk - 1) % 10 + 1,
        "colour_chosen": False,
        "hidden": False,
    }
    assert player.created_by == user


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "This field is required."),
        ({"name": ""}, "This field may not be blank."),
        ({"name": "   "}, "This field may not be blank."),
        ({"name": ["Ana"]}, "Not a valid string."),
        ({"name": {"first": "Ana"}}, "Not a valid string."),
        ({"name": "x" * 61}, "Ensure this field has no more than 60 characters."),
    ],
)
def test_bad_names_are_refused(api: APIClient, body: dict[str, object], message: str) -> None:
    response = api.post("/api/v1/players/", body, format="json")
    assert response.status_code == 400
    assert response.json() == {"name": [message]}
    assert not Player.objects.exists()


def test_body_must_be_an_object(api: APIClient) -> None:
    response = api.post("/api/v1/players/", ["Ana"], format="json")
    assert response.status_code == 400
    assert response.json() == {
        "non_field_errors": ["Invalid data. Expected a dictionary, but got list."]
    }


def test_list_is_paginated_by_name_and_searchable(api: APIClient, user: User) -> None:
    make_players("Zoe", "ana", "Bo", "Anatole", created_by=user)
    listing = api.get("/api/v1/players/").json()
    assert listing["count"] == 4
    assert listing["next"] is None
    assert [p["name"] for p in listing["results"]] == ["ana", "Anatole", "Bo", "Zoe"]

    found = api.get("/api/v1/players/", {"q": "ANA"}).json()
    assert [p["name"] for p in found["results"]] == ["ana", "Anatole"]
    assert api.get("/api/v1/players/", {"q": "nobody"}).json()["count"] == 0


def test_list_pages(api: APIClient, user: User) -> None:
    make_players(*(f"Player {i:02}" for i in range(30)), created_by=user)
    first = api.get("/api/v1/players/").json()
    assert first["count"] == 30
    assert len(first["results"]) == 25
    second = api.get(first["next"]).json()
    assert [p["name"] for p in second["results"]] == [f"Player {i}" for i in range(25, 30)]
    assert api.get("/api/v1/players/", {"page": 9}).status_code == 404


def test_player_detail(api: APIClient, user: User) -> None:
    (zoe,) = make_players("Zoe", created_by=user)
    response = api.get(f"/api/v1/players/{zoe.pk}/")
    assert response.status_code == 200
    assert {k: response.json()[k] for k in ("id", "name")} == {"id": zoe.pk, "name": "Zoe"}
    assert api.get(f"/api/v1/players/{zoe.pk + 100}/").status_code == 404
