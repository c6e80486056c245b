"""Any other game of the evening (``custom``) over the API: the spec's examples (a Hearts
game to 100, lowest wins; five rounds, highest wins; an open game closed by its owner;
ties), bad input answered 400 naming the field, corrections and undo, its rules page
from the table's notes, a league keeping each game's name apart, and a league's export
and import."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from scorekeeper.models import Game, League, Membership, Player
from scorekeeper.selectors.leagues import standings_for_league
from scorekeeper.services.backup import league_export_json, league_import_json
from tests.scorekeeper.factories import make_players

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"


@pytest.fixture
def four(user: User) -> list[int]:
    return [p.pk for p in make_players("Ana", "Bo", "Cy", "Di", created_by=user)]


def start(api: APIClient, players: list[int], **options: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"ruleset": "custom", "players": players, "options": options}
    response = api.post(GAMES, body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def scores(players: list[int], *points: int) -> dict[str, Any]:
    return {"scores": [{"player": p, "points": n} for p, n in zip(players, points, strict=True)]}


def hand(api: APIClient, game: dict[str, Any], body: dict[str, Any]) -> Any:
    return api.post(f"{GAMES}{game['id']}/hands/", body, format="json")


def test_hearts_to_100_lowest_wins_ending_on_the_hand_that_crosses(
    api: APIClient, four: list[int]
) -> None:
    a, b, c, d = four
    game = start(api, four, name="Hearts", winner="low", end="target", target=100)
    assert game["options"] == {
        "name": "Hearts",
        "winner": "low",
        "end": "target",
        "target": 100,
        "rounds": 5,
        "notes": "",
    }
    assert game["ruleset_name"] == "Hearts"
    for points in [(26, 0, 0, 0), (0, 13, 13, 0), (20, 6, 0, 0), (26, 0, 0, 0)]:
        assert hand(api, game, scores(four, *points)).status_code == 201
    state = api.get(f"{GAMES}{game['id']}/").json()
    assert state["status"] == "in_progress"
    assert [(r["player"], r["score"], r["rank"]) for r in state["standings"]] == [
        (d, 0, 1),
        (c, 13, 2),
        (b, 19, 3),
        (a, 72, 4),
    ]
    # Ana reaches 98, still short of 100; then 111: the hand that crosses ends the game.
    assert hand(api, game, scores(four, 26, 0, 0, 0)).status_code == 201
    assert api.get(f"{GAMES}{game['id']}/").json()["status"] == "in_progress"
    assert hand(api, game, scores(four, 13, 0, 13, 0)).status_code == 201
    state = api.get(f"{GAMES}{game['id']}/").json()
    assert state["status"] == "finished"
    assert state["winners"] == [d]
    assert state["next_hand"] is None
    assert hand(api, game, scores(four, 0, 0, 0, 0)).status_code == 409


def test_five_rounds_highest_wins_with_negatives(api: APIClient, four: list[int]) -> None:
    a, b, c, d = four
    game = start(api, four, name="Rummy", end="rounds", rounds=5)
    for n in range(5):
        response = hand(api, game, scores(four, 10, -5, n, 0))
        assert response.status_code == 201
        assert response.json()["points"][1] == {"player": b, "points": -5}
    state = api.get(f"{GAMES}{game['id']}/").json()
    assert state["status"] == "finished"
    assert [(r["player"], r["score"]) for r in state["standings"]] == [
        (a, 50),
        (c, 10),
        (d, 0),
        (b, -25),
    ]
    assert state["winners"] == [a]


def test_an_open_game_ends_when_its_owner_closes_it_and_ties_share(
    api: APIClient, four: list[int]
) -> None:
    a, b, _c, _d = four
    game = start(api, four, name="Yahtzee", end="open")
    assert hand(api, game, scores(four, 30, 30, 12, 0)).status_code == 201
    assert api.get(f"{GAMES}{game['id']}/").json()["status"] == "in_progress"
    assert api.post(f"{GAMES}{game['id']}/close/").status_code in (200, 204)
    state = api.get(f"{GAMES}{game['id']}/").json()
    assert state["status"] == "finished"
    assert sorted(state["winners"]) == sorted([a, b])
    assert [r["rank"] for r in state["standings"]] == [1, 1, 3, 4]


def test_corrections_and_undo_recompute_the_totals(api: APIClient, four: list[int]) -> None:
    game = start(api, four, name="Hearts", winner="low")
    hand(api, game, scores(four, 1, 2, 3, 20))
    hand(api, game, scores(four, 4, 5, 6, 11))
    url = f"{GAMES}{game['id']}/hands/"
    assert api.put(f"{url}1/", scores(four, 0, 0, 0, 26), format="json").status_code == 200
    state = api.get(f"{GAMES}{game['id']}/").json()
    assert {r["player"]: r["score"] for r in state["standings"]} == dict(
        zip(four, [4, 5, 6, 37], strict=True)
    )
    assert api.delete(f"{url}2/").status_code in (200, 204)
    state = api.get(f"{GAMES}{game['id']}/").json()
    assert {r["player"]: r["score"] for r in state["standings"]} == dict(
        zip(four, [0, 0, 0, 26], strict=True)
    )


def test_teams_add_their_members_points(api: APIClient, four: list[int]) -> None:
    a, b, c, d = four
    response = api.post(
        GAMES,
        {
            "ruleset": "custom",
            "players": four,
            "teams": [[a, c], [b, d]],
            "options": {"name": "Spades", "end": "target", "target": 50},
        },
        format="json",
    )
    assert response.status_code == 201
    game = response.json()
    hand(api, game, scores(four, 20, 5, 31, 0))
    state = api.get(f"{GAMES}{game['id']}/").json()
    assert state["status"] == "finished"
    assert sorted(state["winners"]) == sorted([a, c])
    assert state["standings"][0]["score"] == 51


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({}, "name: is required"),
        ({"name": "   "}, "name: is required"),
        ({"name": "x" * 61}, "at most 60"),
        ({"name": 7}, "must be text"),
        ({"name": "Hearts", "notes": "n" * 5001}, "at most 5,000"),
        ({"name": "Hearts", "winner": "middle"}, "winner"),
        ({"name": "Hearts", "end": "never"}, "end"),
        ({"name": "Hearts", "target": 0}, "target"),
        ({"name": "Hearts", "rounds": 1001}, "rounds"),
        ({"name": "Hearts", "colour": "red"}, "colour"),
    ],
)
def test_bad_options_are_400_naming_them(
    api: APIClient, four: list[int], options: dict[str, Any], words: str
) -> None:
    response = api.post(
        GAMES, {"ruleset": "custom", "players": four, "options": options}, format="json"
    )
    assert response.status_code == 400
    assert words in " ".join(response.json()["options"])


def test_twenty_players_at_most(api: APIClient, user: User) -> None:
    many = [p.pk for p in make_players(*(f"P{i}" for i in range(21)), created_by=user)]
    body = {"ruleset": "custom", "players": many, "options": {"name": "Bingo"}}
    assert api.post(GAMES, body, format="json").status_code == 400
    body["players"] = many[:20]
    assert api.post(GAMES, body, format="json").status_code == 201
    body["players"] = many[:1]
    assert api.post(GAMES, body, format="json").status_code == 201


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"scores": [{"player": 0, "points": 100_001}]}, "between"),
        ({"scores": [{"player": 0, "points": -100_001}]}, "between"),
        ({"scores": [{"player": 0, "points": 1.5}]}, "whole number"),
        ({"scores": [{"player": 0, "points": "ten"}]}, "whole number"),
        ({"scores": [{"player": 0}]}, "whole number"),
        ({"scores": []}, "has no points"),
        ({"scores": "all"}, "list"),
        ({}, "list"),
        ({"scores": [{"player": 0, "points": 1}, {"player": 0, "points": 2}]}, "twice"),
        ({"scores": [{"player": 99_999, "points": 1}]}, "not in this game"),
    ],
)
def test_bad_hands_are_400_naming_the_field(
    api: APIClient, four: list[int], body: dict[str, Any], words: str
) -> None:
    game = start(api, four, name="Hearts")
    for row in body.get("scores", []) if isinstance(body.get("scores"), list) else []:
        if row.get("player") == 0:
            row["player"] = four[0]
    if words != "twice" and isinstance(body.get("scores"), list) and body["scores"]:
        # Everyone else scored 0, so only the named problem is left.
        body["scores"] += [{"player": p, "points": 0} for p in four[1:]]
    response = hand(api, game, body)
    assert response.status_code == 400, response.json()
    assert words in " ".join(response.json()["scores"])


def test_the_ruleset_describes_its_options(anon_api: APIClient) -> None:
    described = anon_api.get("/api/v1/rulesets/custom/").json()
    assert described["min_players"] == 1
    assert described["max_players"] == 20
    options = described["options"]
    assert options["name"]["kind"] == "text"
    assert options["name"]["max_length"] == 60
    assert options["name"]["required"] is True
    assert options["notes"]["max_length"] == 5000
    assert options["winner"]["choices"] == ["high", "low"]
    assert options["end"]["choices"] == ["target", "rounds", "open"]
    assert options["target"]["default"] == 100


def test_the_notes_are_the_games_rules_page_shown_safely(
    api: APIClient, user: User, four: list[int]
) -> None:
    notes = (
        "## Passing\n\nPass **three** cards left.\n\n"
        '<script>alert("x")</script><a href="javascript:alert(1)" onclick="x()">go</a>'
    )
    game = start(api, four, name="Hearts", notes=notes)
    client = Client()
    client.force_login(user)
    for url in (f"/games/{game['id']}/rules/", f"/games/{game['id']}/rules/panel/"):
        page = client.get(url).content.decode()
        assert "<strong>three</strong>" in page
        assert "alert" not in page.split("table-notes-body")[1].split("</section>")[0]
        assert "javascript:" not in page
        assert "onclick" not in page
    sheet = client.get(f"/games/{game['id']}/").content.decode()
    assert f"/games/{game['id']}/rules/panel/" in sheet
    assert "Hearts rules" in sheet
    # Someone with no access to the game sees nothing of it.
    assert Client().get(f"/games/{game['id']}/rules/").status_code == 302


def test_a_league_ranks_each_game_name_apart(api: APIClient, user: User, four: list[int]) -> None:
    a, _b, c, _d = four
    league = League.objects.create(name="Fridays", owner=user)
    for p in four:
        Membership.objects.create(league=league, player_id=p)
    for name, points in (("Hearts", (0, 5, 5, 5)), ("Rummy", (0, 0, 9, 0))):
        response = api.post(
            GAMES,
            {
                "ruleset": "custom",
                "players": four,
                "league": league.pk,
                "options": {"name": name, "winner": "low" if name == "Hearts" else "high"},
            },
            format="json",
        )
        game = response.json()
        hand(api, game, scores(four, *points))
        assert api.post(f"{GAMES}{game['id']}/close/").status_code in (200, 204)
    url = f"/api/v1/leagues/{league.pk}/standings/"
    hearts = api.get(url, {"ruleset": "custom/Hearts"}).json()
    rummy = api.get(url, {"ruleset": "custom/Rummy"}).json()
    assert next((r["player"], r["games"], r["wins"]) for r in hearts) == (a, 1, 1)
    assert next((r["player"], r["games"], r["wins"]) for r in rummy) == (c, 1, 1)
    every = api.get(url).json()
    assert {r["player"]: r["games"] for r in every} == dict.fromkeys(four, 2)
    assert api.get(url, {"ruleset": "custom/Snap"}).json() == []
    assert next(r["player"] for r in standings_for_league(league, "custom/Hearts")) == a


def test_export_and_import_keep_the_game(api: APIClient, user: User, four: list[int]) -> None:
    league = League.objects.create(name="Fridays", owner=user)
    for p in four:
        Membership.objects.create(league=league, player_id=p)
    game = api.post(
        GAMES,
        {
            "ruleset": "custom",
            "players": four,
            "league": league.pk,
            "options": {"name": "Hearts", "winner": "low", "notes": "Pass *three*."},
        },
        format="json",
    ).json()
    hand(api, game, scores(four, 26, 0, 0, -5))
    before = league_export_json(league)
    imported = league_import_json(before, owner=user)
    after = league_export_json(imported)
    assert [g["options"] for g in after["games"]] == [g["options"] for g in before["games"]]
    copy = Game.objects.exclude(pk=game["id"]).get(ruleset="custom")
    assert copy.get_ruleset_display() == "Hearts"
    assert Player.objects.count() >= 4
