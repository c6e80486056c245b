"""The admin: every changelist and a game's page render for a superuser, games are
view-only (their hands go through the engine) and deleting one keeps the league's
statistics right."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import RULESETS
from scorekeeper.models import Game, League, Membership, Player, PlayerStanding
from scorekeeper.services.games import game_create, hand_record

pytestmark = pytest.mark.django_db

CHANGELISTS = (
    "player",
    "league",
    "game",
    "handrevision",
    "invite",
    "playerstanding",
    "ratingpoint",
    "signupinvitation",
)


@pytest.fixture
def admin_client(db: None) -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("root", "root@example.com", None))
    return client


@pytest.fixture
def game(user: User) -> Game:
    players = [Player.objects.create(name=n, created_by=user) for n in ("Ana", "Bo", "Cy")]
    league = League.objects.create(name="Thursday table", owner=user)
    for p in players:
        Membership.objects.create(league=league, player=p)
    game = game_create(
        owner=user,
        ruleset="screw-your-neighbour",
        players=[p.pk for p in players],
        options={"target_wins": 1},
        league=league,
    )
    hand_record(game=game, user=user, hand_input={"winner": players[1].pk})
    return game


@pytest.mark.parametrize("model", CHANGELISTS)
def test_changelists_render(admin_client: Client, game: Game, model: str) -> None:
    response = admin_client.get(f"/admin/scorekeeper/{model}/")
    assert response.status_code == 200


@pytest.mark.parametrize("query", ["Bo", str(1), "Thursday"])
def test_game_search(admin_client: Client, game: Game, query: str) -> None:
    response = admin_client.get("/admin/scorekeeper/game/", {"q": query})
    assert response.status_code == 200


def test_game_filters(admin_client: Client, game: Game) -> None:
    response = admin_client.get(
        "/admin/scorekeeper/game/",
        {
            "ruleset": "screw-your-neighbour",
            "status": "finished",
            "league__id__exact": game.league_id,
        },
    )
    assert response.status_code == 200
    assert f"Screw Your Neighbour #{game.pk}" in response.content.decode()


def test_game_page_shows_seats_and_hands_read_only(admin_client: Client, game: Game) -> None:
    response = admin_client.get(f"/admin/scorekeeper/game/{game.pk}/change/")
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert "Bo" in page
    assert '{"winner": ' in page
    assert 'name="_save"' not in page  # nothing to save: hands change on the sheet
    assert admin_client.get("/admin/scorekeeper/game/add/").status_code == 403


def test_league_page_edits_members(admin_client: Client, game: Game) -> None:
    response = admin_client.get(f"/admin/scorekeeper/league/{game.league_id}/change/")
    assert response.status_code == 200
    assert "memberships-TOTAL_FORMS" in response.content.decode()


def test_deleting_a_game_in_the_admin_updates_the_standings(
    admin_client: Client, game: Game
) -> None:
    assert PlayerStanding.objects.filter(league_id=game.league_id).exists()
    response = admin_client.post(f"/admin/scorekeeper/game/{game.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not PlayerStanding.objects.filter(league_id=game.league_id).exists()


def test_hand_history_is_read_only(admin_client: Client, game: Game) -> None:
    revision = game.hand_revisions.get()
    response = admin_client.get(f"/admin/scorekeeper/handrevision/{revision.pk}/change/")
    assert response.status_code == 200
    assert 'name="_save"' not in response.content.decode()


def test_the_ruleset_filter_names_the_registrys_games(admin_client: Client, game: Game) -> None:
    response = admin_client.get("/admin/scorekeeper/game/", {"ruleset": "dirt"})
    page = response.content.decode()
    assert response.status_code == 200
    assert f"Screw Your Neighbour #{game.pk}" not in page
    assert all(rules.name in page for rules in RULESETS.values())
