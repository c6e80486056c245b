"""The leagues API: members, standings, history, head-to-head and rating history."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from scorekeeper.api.leagues import GamePagination
from scorekeeper.models import League, Membership, Player
from scorekeeper.services.games import game_delete, hand_replace
from tests.scorekeeper.league_factories import SYN, dirt_hand, play_partner_dirt, play_syn

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(user: User) -> League:
    return League.objects.create(name="Thursday table", owner=user)


@pytest.fixture
def four(make_players) -> list[Player]:  # type: ignore[no-untyped-def]
    return make_players("Ana", "Bo", "Cy", "Di")


def url(league: League, rest: str = "") -> str:
    return f"/api/v1/leagues/{league.pk}/{rest}"


def test_create_a_league_answers_as_the_contract_says(api: APIClient, user: User) -> None:
    # The user has a player of their own: it is not added behind their back.
    Player.objects.create(name="Ana", user=user, created_by=user)
    response = api.post("/api/v1/leagues/", {"name": "  Thursday   table "}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "Thursday table"
    assert body["members"] == []
    assert isinstance(body["id"], int)

    listed = api.get("/api/v1/leagues/").json()
    assert [lg["name"] for lg in listed] == ["Thursday table"]
    assert listed[0]["can_change"] is True


def test_create_a_league_needs_a_name(api: APIClient) -> None:
    response = api.post("/api/v1/leagues/", {"name": "   "}, format="json")
    assert response.status_code == 400
    assert "name" in response.json()


def test_add_members(api: APIClient, league: League, four: list[Player]) -> None:
    ana, bo, *_ = four
    response = api.post(url(league, "members/"), {"player": ana.pk}, format="json")
    assert response.status_code == 201
    assert response.json() == {"id": ana.pk, "name": "Ana"}
    again = api.post(url(league, "members/"), {"player": ana.pk}, format="json")
    assert again.status_code == 200
    api.post(url(league, "members/"), {"player": bo.pk}, format="json")

    detail = api.get(url(league)).json()
    assert detail["members"] == [{"id": ana.pk, "name": "Ana"}, {"id": bo.pk, "name": "Bo"}]
    assert api.get(url(league, "members/")).json() == detail["members"]


@pytest.mark.parametrize(
    ("body", "field"),
    [({"player": "x"}, "player"), ({}, "player"), ({"player": 999999}, "player")],
)
def test_add_member_bad_input_is_a_400(api, league, body, field) -> None:  # type: ignore[no-untyped-def]
    response = api.post(url(league, "members/"), body, format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_leagues_of_others_are_not_found_and_cannot_be_changed(
    api: APIClient, other_user: User, four: list[Player]
) -> None:
    theirs = League.objects.create(name="Their table", owner=other_user)
    for rest in ("", "members/", "standings/", "games/", f"head-to-head/?a={four[0].pk}&b=1"):
        assert api.get(url(theirs, rest)).status_code == 404
    response = api.post(url(theirs, "members/"), {"player": four[0].pk}, format="json")
    assert response.status_code == 404
    assert api.get("/api/v1/leagues/").json() == []


def test_a_member_who_is_not_the_owner_sees_the_league(other_user: User, league: League) -> None:
    bo = Player.objects.create(name="Bo", user=other_user)
    Membership.objects.create(league=league, player=bo)
    client = APIClient()
    client.force_authenticate(other_user)
    assert client.get(url(league)).json()["can_change"] is True
    assert client.get("/api/v1/leagues/").json()[0]["id"] == league.pk


def test_anonymous_gets_401_or_403(anon_api: APIClient, league: League) -> None:
    assert anon_api.get(url(league, "standings/")).status_code in (401, 403)


def test_standings_best_first_with_every_field(
    api: APIClient, user: User, league: League, four: list[Player]
) -> None:
    bo = four[1]
    play_syn(user, league, four, [bo], minutes_ago=20)
    play_syn(user, league, four, [bo], minutes_ago=10)
    rows = api.get(url(league, "standings/")).json()
    assert rows[0]["player"] == bo.pk
    assert rows[0]["name"] == "Bo"
    assert rows[0]["games"] == 2
    assert rows[0]["wins"] == 2
    assert rows[0]["win_rate"] == 1.0
    assert rows[0]["avg_place"] == 1.0
    assert rows[0]["provisional"] is True
    assert [r["rating"] for r in rows] == sorted((r["rating"] for r in rows), reverse=True)
    assert {r["player"] for r in rows} == {p.pk for p in four}

    assert api.get(url(league, "standings/?ruleset=dirt")).json() == []
    assert api.get(url(league, f"standings/?ruleset={SYN}")).json()[0]["player"] == bo.pk


def test_standings_of_an_unknown_game_is_a_400(api: APIClient, league: League) -> None:
    response = api.get(url(league, "standings/?ruleset=poker"))
    assert response.status_code == 400
    assert "ruleset" in response.json()


def test_games_newest_first_paginated_and_filtered(
    api: APIClient, user: User, league: League, four: list[Player]
) -> None:
    ana, bo, cy, di = four
    old = play_syn(user, league, four, [ana], minutes_ago=30)
    play_syn(user, league, [ana, bo, cy], [cy], minutes_ago=20)
    new = play_syn(user, league, four, [], target=2, minutes_ago=10)

    page = api.get(url(league, "games/")).json()
    assert page["count"] == 3
    games = page["results"]
    assert next(g["id"] for g in games) == new.pk
    assert games[-1]["id"] == old.pk
    assert games[0]["status"] == "in_progress"
    assert games[0]["ranking"][0]["place"] is None
    finished = games[-1]
    assert finished["ranking"][0] == {
        "place": 1, "players": [ana.pk], "names": ["Ana"], "won": True, "score": 1,
    }  # fmt: skip
    assert [r["place"] for r in finished["ranking"]] == [1, 2, 2, 2]
    assert finished["winners"] == [ana.pk]
    assert finished["sheet"] == f"/games/{old.pk}/"

    with_di = api.get(url(league, f"games/?player={di.pk}")).json()
    assert {g["id"] for g in with_di["results"]} == {old.pk, new.pk}
    assert api.get(url(league, "games/?status=finished")).json()["count"] == 2
    assert api.get(url(league, "games/?ruleset=dirt")).json()["count"] == 0
    assert api.get(url(league, "games/?page=2")).status_code == 404


def test_games_pages_follow_on_to_the_oldest(
    api: APIClient, user: User, league: League, four: list[Player], monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """Each page is read by its ids first (a deferred join): pages still cover every
    game once, newest first, filtered or not."""
    monkeypatch.setattr(GamePagination, "page_size", 3)
    ana, bo, cy, di = four
    games = [
        play_syn(user, league, four if i % 2 else [ana, bo, cy], [ana], minutes_ago=60 - i)
        for i in range(8)
    ]
    newest_first = [g.pk for g in reversed(games)]

    def pages(query: str, count: int) -> list[list[int]]:
        found, page = [], 1
        while (response := api.get(url(league, f"games/?{query}page={page}"))).status_code == 200:
            assert response.json()["count"] == count
            found.append([g["id"] for g in response.json()["results"]])
            page += 1
        assert response.status_code == 404
        return found

    everything = pages("", 8)
    assert [len(p) for p in everything] == [3, 3, 2]
    assert [g for p in everything for g in p] == newest_first
    with_di = pages(f"player={di.pk}&", 4)
    assert [g for p in with_di for g in p] == newest_first[::2]


@pytest.mark.parametrize(
    ("query", "field"),
    [("player=abc", "player"), ("ruleset=chess", "ruleset"), ("status=lost", "status")],
)
def test_games_bad_filters_are_a_400(api, league, query, field) -> None:  # type: ignore[no-untyped-def]
    response = api.get(url(league, f"games/?{query}"))
    assert response.status_code == 400
    assert field in response.json()


def test_team_game_ranks_teams(
    api: APIClient, user: User, league: League, four: list[Player]
) -> None:
    ana, bo, cy, di = four
    play_partner_dirt(user, league, [ana, cy], [bo, di], [
        dirt_hand(bo, {ana: 10, cy: 20, di: 5}),
        dirt_hand(bo, {ana: 3, cy: 4, di: 30}),
        dirt_hand(bo, {ana: 1, cy: 2, di: 9}),
    ])  # fmt: skip
    game = api.get(url(league, "games/")).json()["results"][0]
    assert game["ranking"] == [
        {"place": 1, "players": [bo.pk, di.pk], "names": ["Bo", "Di"], "won": True,
         "score": None},
        {"place": 2, "players": [ana.pk, cy.pk], "names": ["Ana", "Cy"], "won": False,
         "score": None},
    ]  # fmt: skip


def test_head_to_head(api: APIClient, user: User, league: League, four: list[Player]) -> None:
    ana, bo, cy, di = four
    play_syn(user, league, four, [ana], minutes_ago=40)
    play_syn(user, league, four, [bo], minutes_ago=30)
    play_syn(user, league, four, [ana], minutes_ago=20)
    play_syn(user, league, four, [cy], minutes_ago=10)  # Ana and Bo share second
    play_syn(user, league, [ana, cy, di], [di], minutes_ago=5)  # without Bo

    record = api.get(url(league, f"head-to-head/?a={ana.pk}&b={bo.pk}")).json()
    assert record["a"] == {"id": ana.pk, "name": "Ana"}
    assert record["b"] == {"id": bo.pk, "name": "Bo"}
    assert (record["games"], record["a_ahead"], record["b_ahead"], record["ties"]) == (
        4, 2, 1, 1,
    )  # fmt: skip
    assert (record["a_wins"], record["b_wins"]) == (2, 1)
    assert record["by_ruleset"][0]["ruleset"] == SYN
    assert record["by_ruleset"][0]["games"] == 4


def test_head_to_head_partners_are_counted_apart(
    api: APIClient, user: User, league: League, four: list[Player]
) -> None:
    ana, bo, cy, di = four
    play_partner_dirt(user, league, [ana, cy], [bo, di], [
        dirt_hand(bo, {ana: 10, cy: 20, di: 5}),
        dirt_hand(bo, {ana: 3, cy: 4, di: 30}),
        dirt_hand(bo, {ana: 1, cy: 2, di: 9}),
    ])  # fmt: skip
    record = api.get(url(league, f"head-to-head/?a={ana.pk}&b={cy.pk}")).json()
    assert (record["games"], record["partners"], record["ties"]) == (1, 1, 0)
    record = api.get(url(league, f"head-to-head/?a={ana.pk}&b={bo.pk}")).json()
    assert (record["games"], record["b_ahead"], record["partners"]) == (1, 1, 0)


@pytest.mark.parametrize(
    ("query", "field"),
    [("a=1", "b"), ("b=1", "a"), ("a=x&b=1", "a"), ("a=SAME&b=SAME", "b"), ("a=OUT&b=IN", "a")],
)
def test_head_to_head_bad_params(api, make_players, league, query, field) -> None:  # type: ignore[no-untyped-def]
    inside, outside = make_players("In", "Out")
    Membership.objects.create(league=league, player=inside)
    query = (
        query.replace("SAME", str(inside.pk))
        .replace("OUT", str(outside.pk))
        .replace("IN", str(inside.pk))
    )
    response = api.get(url(league, f"head-to-head/?{query}"))
    assert response.status_code == 400
    assert field in response.json()


def test_rating_history_follows_corrections_and_deletes(
    api: APIClient, user: User, league: League, four: list[Player]
) -> None:
    ana, bo, cy = four[:3]
    first = play_syn(user, league, four, [ana], minutes_ago=30)
    second = play_syn(user, league, four, [bo], minutes_ago=20)
    history = api.get(f"/api/v1/players/{ana.pk}/ratings/?league={league.pk}").json()
    assert [p["game"] for p in history] == [first.pk, second.pk]
    assert history[0]["won"] is True
    assert history[0]["change"] > 0
    assert history[1]["change"] < 0
    assert history[1]["games"] == 2

    hand_replace(game=first, number=1, user=None, hand_input={"winner": cy.pk})
    history = api.get(f"/api/v1/players/{ana.pk}/ratings/").json()
    assert history[0]["won"] is False
    assert history[0]["change"] < 0

    game_delete(game=second, user=None)
    history = api.get(f"/api/v1/players/{ana.pk}/ratings/?ruleset={SYN}").json()
    assert [p["game"] for p in history] == [first.pk]


def test_rating_history_errors(api: APIClient, other_user: User, four: list[Player]) -> None:
    theirs = League.objects.create(name="Their table", owner=other_user)
    assert api.get("/api/v1/players/999999/ratings/").status_code == 404
    assert api.get(f"/api/v1/players/{four[0].pk}/ratings/?league={theirs.pk}").status_code == 404
    response = api.get(f"/api/v1/players/{four[0].pk}/ratings/?league=x")
    assert response.status_code == 400
    assert "league" in response.json()


def test_rating_history_hides_leagues_you_cannot_see(
    api: APIClient, other_user: User, four: list[Player]
) -> None:
    theirs = League.objects.create(name="Their table", owner=other_user)
    # The same people play at Bo's table too (members there, so Bo may seat them).
    Membership.objects.bulk_create(Membership(league=theirs, player=p) for p in four)
    play_syn(other_user, theirs, four, [four[0]])
    assert api.get(f"/api/v1/players/{four[0].pk}/ratings/").json() == []


def test_schema_documents_the_league_endpoints(api: APIClient) -> None:
    schema = api.get("/api/v1/schema/?format=json").json()
    for path in (
        "/api/v1/leagues/",
        "/api/v1/leagues/{league_id}/members/",
        "/api/v1/leagues/{league_id}/standings/",
        "/api/v1/leagues/{league_id}/games/",
        "/api/v1/leagues/{league_id}/head-to-head/",
        "/api/v1/players/{player_id}/ratings/",
    ):
        assert path in schema["paths"]


# -- query counts do not grow with the data -------------------------------------------


def _fill(user: User, league: League, players: list[Player], games: int) -> None:
    for i in range(games):
        seated = [players[(i + k) % len(players)] for k in range(4)]
        play_syn(user, league, seated, [seated[i % 4]], minutes_ago=games - i)


@pytest.mark.parametrize("games", [2, 12])
def test_league_reads_use_a_fixed_number_of_queries(
    api: APIClient, user: User, league: League, make_players, games: int,
    django_assert_num_queries,
) -> None:  # type: ignore[no-untyped-def]  # fmt: skip
    players = make_players(*(f"P{i}" for i in range(6)))
    _fill(user, league, players, games)
    a, b = players[0].pk, players[1].pk
    # Per request: the league lookup (1) plus what the endpoint reads.
    with django_assert_num_queries(2):
        assert api.get(url(league, "standings/")).status_code == 200
    with django_assert_num_queries(4):  # league, count, page (ids picked in a subquery), seats
        assert api.get(url(league, f"games/?player={a}")).status_code == 200
    with django_assert_num_queries(3):  # league, both members, the record
        assert api.get(url(league, f"head-to-head/?a={a}&b={b}")).status_code == 200
    with django_assert_num_queries(3):  # player, league, points
        assert api.get(f"/api/v1/players/{a}/ratings/?league={league.pk}").status_code == 200
