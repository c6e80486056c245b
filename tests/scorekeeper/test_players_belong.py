"""Players belong to someone (issue 9, item 4): an account seats and adds only its own
players (its player, those it created) and the members of the leagues it may change;
the player list, the pickers and the search show only those. Anyone else's player is
refused by id, as if it did not exist."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games import RuleError
from scorekeeper.models import Game, League, Membership, Player
from scorekeeper.selectors.games import players_usable_by
from scorekeeper.services.games import game_create
from scorekeeper.services.players import league_add_member
from tests.scorekeeper.factories import make_game, make_league, make_player, make_players


@pytest.fixture
def mine(user: User) -> list[Player]:
    return make_players("Ana", "Bo", created_by=user)


@pytest.fixture
def theirs(other_user: User) -> list[Player]:
    return make_players("Xena", "Yuri", "Zed", created_by=other_user)


@pytest.fixture
def bo_api(other_user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(other_user)
    return client


def test_seating_someone_else_s_player_is_refused(
    api: APIClient, mine: list[Player], theirs: list[Player]
) -> None:
    body = {"ruleset": "dirt", "players": [mine[0].pk, mine[1].pk, theirs[0].pk]}
    response = api.post("/api/v1/games/", body, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "players": [f"player {theirs[0].pk} does not exist or is not one of your players"]
    }
    assert not Game.objects.exists()


def test_adding_someone_else_s_player_to_my_league_is_refused(
    api: APIClient, user: User, theirs: list[Player]
) -> None:
    league = make_league(user)
    response = api.post(
        f"/api/v1/leagues/{league.pk}/members/", {"player": theirs[0].pk}, format="json"
    )
    assert response.status_code == 400
    assert "not one of your players" in response.json()["player"][0]
    assert not Membership.objects.exists()


def test_a_league_s_members_are_everyone_s_in_it(
    api: APIClient, user: User, other_user: User, theirs: list[Player]
) -> None:
    """Bo's players joined a league Ana is in: Ana may seat them in that league's games
    and in her own, and add them to her other leagues."""
    ana = make_player("Ana (account)", user=user, created_by=user)
    shared = make_league(other_user, name="Bo's table", members=[ana, theirs[0], theirs[1]])
    body = {"ruleset": "dirt", "players": [ana.pk, theirs[0].pk, theirs[1].pk]}
    in_league = api.post("/api/v1/games/", {**body, "league": shared.pk}, format="json")
    assert in_league.status_code == 201
    assert api.post("/api/v1/games/", body, format="json").status_code == 201
    own = make_league(user, name="Ana's table")
    added = api.post(f"/api/v1/leagues/{own.pk}/members/", {"player": theirs[0].pk}, format="json")
    assert added.status_code == 201
    # Zed never joined a league of Ana's.
    refused = {**body, "players": [ana.pk, theirs[0].pk, theirs[2].pk]}
    assert api.post("/api/v1/games/", refused, format="json").status_code == 400


def test_the_player_list_and_search_show_only_my_players(
    api: APIClient, user: User, other_user: User, mine: list[Player], theirs: list[Player]
) -> None:
    league = make_league(user, members=[mine[0]])
    Membership.objects.create(league=league, player=theirs[0])  # Xena plays with us
    names = [p["name"] for p in api.get("/api/v1/players/").json()["results"]]
    assert names == ["Ana", "Bo", "Xena"]
    found = api.get("/api/v1/players/", {"q": "e"}).json()["results"]
    assert [p["name"] for p in found] == ["Xena"]
    assert api.get("/api/v1/players/", {"q": "yuri"}).json()["count"] == 0


def test_someone_else_s_player_is_not_found(
    api: APIClient, bo_api: APIClient, user: User, theirs: list[Player], mine: list[Player]
) -> None:
    assert api.get(f"/api/v1/players/{theirs[0].pk}/").status_code == 404
    assert api.get(f"/api/v1/players/{theirs[0].pk}/ratings/").status_code == 404
    # Sitting at a game the account can see makes a name visible (the sheet shows it).
    bo_player = make_player("Bo (account)", user=User.objects.get(username="bo"))
    Membership.objects.create(league=make_league(user), player=bo_player)
    make_game(user, "dirt", [*mine, bo_player])
    assert bo_api.get(f"/api/v1/players/{mine[0].pk}/").status_code == 200
    listed = {p["name"] for p in bo_api.get("/api/v1/players/").json()["results"]}
    assert listed == {"Bo (account)", "Xena", "Yuri", "Zed"}  # Ana's are not Bo's to seat


def test_services_refuse_too(user: User, other_user: User, theirs: list[Player]) -> None:
    league = make_league(user)
    with pytest.raises(RuleError, match="not one of your players"):
        league_add_member(league=league, player=theirs[0].pk, user=user)
    with pytest.raises(RuleError, match="not one of your players"):
        game_create(owner=user, ruleset="dirt", players=[p.pk for p in theirs])


def test_a_superuser_may_use_anyone(theirs: list[Player]) -> None:
    admin = User.objects.create_superuser("root", password="table-talk-42")
    assert set(players_usable_by(admin)) == set(theirs)


# -- the pages ---------------------------------------------------------------------------


@pytest.fixture
def ana_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_new_game_picker_offers_only_my_players(
    ana_client: Client, mine: list[Player], theirs: list[Player]
) -> None:
    page = ana_client.get("/games/new/?ruleset=dirt").content.decode()
    assert "Ana" in page
    assert "Xena" not in page


def test_the_new_game_form_refuses_someone_else_s_player_by_id(
    ana_client: Client, mine: list[Player], theirs: list[Player]
) -> None:
    response = ana_client.post(
        "/games/new/",
        {
            "ruleset": "dirt",
            "seat_count": "3",
            "seat-0-player": str(mine[0].pk),
            "seat-1-player": str(mine[1].pk),
            "seat-2-player": str(theirs[0].pk),
        },
    )
    assert response.status_code == 422
    assert "pick a player from the list" in response.content.decode()
    assert not Game.objects.exists()


def test_the_add_member_form_offers_and_takes_only_my_players(
    ana_client: Client, user: User, mine: list[Player], theirs: list[Player]
) -> None:
    league: League = make_league(user)
    page = ana_client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Bo" in page
    assert "Xena" not in page
    response = ana_client.post(
        f"/leagues/{league.pk}/members/", {"player": str(theirs[0].pk)}, follow=True
    )
    assert "Choose a player from the list" in response.content.decode()
    assert not Membership.objects.exists()


def test_someone_else_s_player_page_is_not_found(ana_client: Client, theirs: list[Player]) -> None:
    assert ana_client.get(f"/players/{theirs[0].pk}/").status_code == 404
