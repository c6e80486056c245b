"""Managing players over the API: PATCH a player (name, colour, hidden) and merge two."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from scorekeeper.models import League, Membership, Player, PlayerMerge
from tests.scorekeeper.factories import make_game, make_players
from tests.scorekeeper.league_factories import play_syn

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", "Robert", created_by=user)


def test_rename_shows_in_an_old_game(api: APIClient, user: User, four: list[Player]) -> None:
    ana, bo, cy, _ = four
    game = play_syn(user, None, [ana, bo, cy], [bo])
    response = api.patch(f"/api/v1/players/{bo.pk}/", {"name": " Boris "}, format="json")
    assert response.status_code == 200
    assert response.json()["name"] == "Boris"
    seated = api.get(f"/api/v1/games/{game.pk}/").json()["players"]
    assert [p["name"] for p in seated] == ["Ana", "Boris", "Cy"]


def test_colour_and_hidden(api: APIClient, four: list[Player]) -> None:
    bo = four[1]
    body = api.patch(f"/api/v1/players/{bo.pk}/", {"colour": 4, "hidden": True}, format="json")
    assert body.status_code == 200
    assert body.json() == {
        "id": bo.pk,
        "name": "Bo",
        "colour": 4,
        "colour_chosen": True,
        "hidden": True,
    }
    back = api.patch(f"/api/v1/players/{bo.pk}/", {"colour": None}, format="json").json()
    assert back["colour_chosen"] is False
    assert back["colour"] == (bo.pk - 1) % 10 + 1
    assert back["hidden"] is True


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "A\u202egnp.exe"}, "name"),
        ({"name": "x" * 61}, "name"),
        ({"name": ["Bo"]}, "name"),
        ({"colour": 0}, "colour"),
        ({"colour": 11}, "colour"),
        ({"colour": "red"}, "colour"),
        ({"hidden": "maybe"}, "hidden"),
    ],
)
def test_bad_changes_are_400_naming_the_field(
    api: APIClient, four: list[Player], body: dict[str, object], field: str
) -> None:
    bo = four[1]
    response = api.patch(f"/api/v1/players/{bo.pk}/", body, format="json")
    assert response.status_code == 400
    assert list(response.json()) == [field]
    bo.refresh_from_db()
    assert (bo.name, bo.colour, bo.hidden) == ("Bo", None, False)


def test_someone_elses_player_is_404_or_403(api: APIClient, user: User, other_user: User) -> None:
    hidden_from_me = Player.objects.create(name="Zed", created_by=other_user)
    assert api.patch(f"/api/v1/players/{hidden_from_me.pk}/", {"name": "x"}).status_code == 404
    # One I can see (we play in their league) but not manage.
    league = League.objects.create(name="Theirs", owner=other_user)
    mine = Player.objects.create(name="Ana", user=user)
    Membership.objects.create(league=league, player=mine)
    Membership.objects.create(league=league, player=hidden_from_me)
    response = api.patch(f"/api/v1/players/{hidden_from_me.pk}/", {"name": "x"}, format="json")
    assert response.status_code == 403
    assert "You may not manage" in response.json()["detail"]
    assert api.patch("/api/v1/players/999999/", {"name": "x"}, format="json").status_code == 404


def test_anonymous_is_401(anon_api: APIClient, four: list[Player]) -> None:
    assert anon_api.patch(f"/api/v1/players/{four[0].pk}/", {"name": "x"}).status_code == 401
    merge = anon_api.post(f"/api/v1/players/{four[0].pk}/merge/", {"into": four[1].pk})
    assert merge.status_code == 401


def test_hidden_players_leave_the_list(api: APIClient, four: list[Player]) -> None:
    api.patch(f"/api/v1/players/{four[1].pk}/", {"hidden": True}, format="json")
    names = [p["name"] for p in api.get("/api/v1/players/").json()["results"]]
    assert names == ["Ana", "Cy", "Robert"]
    every = api.get("/api/v1/players/?hidden=include").json()["results"]
    assert [p["name"] for p in every] == ["Ana", "Bo", "Cy", "Robert"]
    only = api.get("/api/v1/players/?hidden=only&q=b").json()["results"]
    assert [p["name"] for p in only] == ["Bo"]
    assert api.get(f"/api/v1/players/{four[1].pk}/").json()["hidden"] is True
    bad = api.get("/api/v1/players/?hidden=yes")
    assert bad.status_code == 400
    assert list(bad.json()) == ["hidden"]


def test_merge(api: APIClient, user: User, four: list[Player]) -> None:
    ana, bo, cy, rob = four
    league = League.objects.create(name="Thursday", owner=user)
    play_syn(user, league, [ana, bo, cy], [bo], minutes_ago=30)
    play_syn(user, league, [ana, rob, cy], [rob], minutes_ago=20)
    response = api.post(f"/api/v1/players/{rob.pk}/merge/", {"into": bo.pk}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["player"]["id"] == bo.pk
    assert (body["merged"], body["merged_name"], body["games"]) == (rob.pk, "Robert", 1)
    assert body["ratings_updating"] is False
    assert api.get(f"/api/v1/players/{rob.pk}/").status_code == 404
    standings = api.get(f"/api/v1/leagues/{league.pk}/standings/").json()
    rows = {r["name"]: r for r in standings}
    assert "Robert" not in rows
    assert (rows["Bo"]["games"], rows["Bo"]["wins"]) == (2, 2)
    assert PlayerMerge.objects.get().from_name == "Robert"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "This field is required."),
        ({"into": "abc"}, "A valid integer is required."),
        ({"into": 0}, "ids are whole numbers from 1"),
        ({"into": 2**70}, "64 bits"),
        ({"into": 999999}, "does not exist"),
    ],
)
def test_merge_bad_input(
    api: APIClient, four: list[Player], body: dict[str, object], message: str
) -> None:
    response = api.post(f"/api/v1/players/{four[0].pk}/merge/", body, format="json")
    assert response.status_code == 400
    assert message in response.json()["into"][0]
    assert Player.objects.count() == 4


def test_merge_of_two_at_one_table_is_refused(api: APIClient, user: User, four: list[Player]):  # type: ignore[no-untyped-def]
    ana, bo, cy, _ = four
    make_game(user, "screw-your-neighbour", [ana, bo, cy])
    response = api.post(f"/api/v1/players/{ana.pk}/merge/", {"into": bo.pk}, format="json")
    assert response.status_code == 400
    assert "sat at the same game" in response.json()["into"][0]
    assert Player.objects.filter(pk=ana.pk).exists()


def test_merge_needs_both_manageable(api: APIClient, user: User, other_user: User, four):  # type: ignore[no-untyped-def]
    theirs = Player.objects.create(name="Zed", created_by=other_user)
    into_theirs = api.post(f"/api/v1/players/{four[0].pk}/merge/", {"into": theirs.pk})
    assert into_theirs.status_code == 400
    assert list(into_theirs.json()) == ["into"]
    from_theirs = api.post(f"/api/v1/players/{theirs.pk}/merge/", {"into": four[0].pk})
    assert from_theirs.status_code == 404
    assert Player.objects.filter(pk=theirs.pk).exists()


def test_the_schema_documents_the_operations(api: APIClient) -> None:
    schema = api.get("/api/v1/schema/?format=json").json()
    detail = schema["paths"]["/api/v1/players/{player_id}/"]
    assert {"200", "400", "403", "404"} <= set(detail["patch"]["responses"])
    merge = schema["paths"]["/api/v1/players/{player_id}/merge/"]["post"]
    assert merge["operationId"] == "players_merge"
    assert {"200", "400", "403", "404"} <= set(merge["responses"])
