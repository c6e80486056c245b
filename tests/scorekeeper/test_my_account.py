"""My account (``/accounts/``): name and e-mail, my data as JSON, my API token revoked,
and deleting the account — my private games go, every league's games, history and
standings stay as they were (my player keeps its name, tied to no account). Locking an
account in the admin."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scorekeeper.models import Game, League, Player
from tests.scorekeeper.factories import make_league, make_player
from tests.scorekeeper.league_factories import play_syn


@pytest.fixture
def ana(db: None) -> User:
    return User.objects.create_user("ana", "ana@example.org", "table-talk-42")


@pytest.fixture
def page(ana: User) -> Client:
    client = Client()
    client.force_login(ana)
    return client


def test_every_page_links_to_my_account(page: Client) -> None:
    assert 'href="/accounts/"' in page.get("/").content.decode()
    assert 'href="/accounts/"' in page.get("/rules/").content.decode()
    assert 'href="/accounts/"' not in Client().get("/").content.decode()
    assert page.get("/accounts/").status_code == 200
    assert Client().get("/accounts/").status_code == 302


def test_change_name_and_email(page: Client, ana: User) -> None:
    make_player("Ana", created_by=ana, user=ana)
    response = page.post("/accounts/", {"name": "Ana B", "email": "ana@club.example"})
    assert response.status_code == 302
    ana.refresh_from_db()
    assert ana.email == "ana@club.example"
    assert Player.objects.get(user=ana).name == "Ana B"


def test_a_new_name_makes_the_player_an_admin_made_account_lacks(page: Client, ana: User) -> None:
    page.post("/accounts/", {"name": "Ana", "email": "ana@example.org"})
    assert Player.objects.get(user=ana).name == "Ana"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"name": "Ana", "email": "nope"}, "Enter a valid email address."),
        ({"name": "Ana", "email": ""}, "This field is required."),
        ({"name": "\u202eanA", "email": "ana@example.org"}, "text-direction"),
        ({"name": "A" * 61, "email": "ana@example.org"}, "at most 60 characters"),
    ],
)
def test_bad_profile_input_is_a_form_message(
    page: Client, ana: User, body: dict[str, str], message: str
) -> None:
    response = page.post("/accounts/", body)
    assert response.status_code == 400
    assert message in response.content.decode()
    ana.refresh_from_db()
    assert ana.email == "ana@example.org"


def test_download_my_data(page: Client, ana: User) -> None:
    bo = User.objects.create_user("bo")
    me = make_player("Ana", created_by=ana, user=ana)
    cy = make_player("Cy", created_by=ana)
    other = make_player("Bo", created_by=bo, user=bo)
    dee = make_player("Dee", created_by=bo)
    league = make_league(bo, "Bo's table", [me, other, dee])
    played = play_syn(bo, league, [me, other, dee], [me])
    mine = play_syn(ana, None, [me, cy, dee], [cy])
    play_syn(bo, None, [other, dee, make_player("Eve", created_by=bo)], [other])  # not mine

    response = page.get("/accounts/data/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="scorekeeper-ana-')
    body = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    data = json.loads(body)
    assert data["account"]["username"] == "ana"
    assert data["account"]["email"] == "ana@example.org"
    assert {p["name"]: p["mine"] for p in data["players"]} == {"Ana": True, "Cy": False}
    assert [(lg["name"], lg["owned"]) for lg in data["leagues"]] == [("Bo's table", False)]
    games = {g["id"]: g for g in data["games"]}
    assert set(games) == {played.pk, mine.pk}
    assert games[mine.pk]["owned"]
    assert not games[played.pk]["owned"]
    assert games[mine.pk]["hands"] == [
        {
            "number": 1,
            "input": {"winner": cy.pk},
            "created_at": games[mine.pk]["hands"][0]["created_at"],
        }
    ]
    assert [s["name"] for s in games[played.pk]["seats"]] == ["Ana", "Bo", "Dee"]
    assert "password" not in body.decode()


def test_a_revoked_token_is_refused_by_the_api(page: Client, ana: User) -> None:
    token = Token.objects.create(user=ana)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.get("/api/v1/games/").status_code == 200
    assert "Token made" in page.get("/accounts/").content.decode()
    assert token.key not in page.get("/accounts/").content.decode()
    assert page.post("/accounts/token/revoke/").status_code == 302
    assert api.get("/api/v1/games/").status_code == 401
    assert "You hold no API token" in page.get("/accounts/").content.decode()


def _standings(client: APIClient, league: League) -> Any:
    return client.get(f"/api/v1/leagues/{league.pk}/standings/").json()


def test_deleting_my_account_keeps_league_history_and_standings(page: Client, ana: User) -> None:
    bo = User.objects.create_user("bo")
    me = make_player("Ana", created_by=ana, user=ana)
    friends = [make_player("Bo", created_by=bo, user=bo), make_player("Cy", created_by=ana)]
    table = [me, *friends]
    mine = make_league(ana, "Ana's table", table)
    theirs = make_league(bo, "Bo's table", table)
    for i in range(4):
        play_syn(ana, mine, table, [table[i % 3]], minutes_ago=100 - i)
    play_syn(bo, theirs, table, [me])
    hosted_in_theirs = play_syn(ana, theirs, table, [friends[0]])
    private = play_syn(ana, None, table, [me])
    elsewhere = play_syn(bo, None, table, [me])

    bo_api = APIClient()
    bo_api.force_authenticate(bo)
    before = {lg.pk: _standings(bo_api, lg) for lg in (mine, theirs)}
    history = bo_api.get(f"/api/v1/leagues/{mine.pk}/games/").json()

    confirm = page.get("/accounts/delete/")
    assert confirm.status_code == 200
    assert 'type="password"' in confirm.content.decode()
    for refused in ({}, {"username": "ana"}, {"password": ""}, {"password": "table-talk-43"}):
        wrong = page.post("/accounts/delete/", refused)
        assert wrong.status_code == 400, refused
        assert User.objects.filter(pk=ana.pk).exists()
    assert "That is not your password: nothing was done." in wrong.content.decode()

    response = page.post("/accounts/delete/", {"password": "table-talk-42"}, follow=True)
    assert response.redirect_chain[-1][0] == "/"
    assert "Your account is deleted." in response.content.decode()
    assert not User.objects.filter(username="ana").exists()
    assert page.get("/accounts/").status_code == 302  # signed out

    assert not Game.objects.filter(pk=private.pk).exists()
    assert Game.objects.filter(pk=elsewhere.pk).exists()
    me.refresh_from_db()
    assert (me.name, me.user_id) == ("Ana", None)
    mine.refresh_from_db()
    assert mine.owner == bo  # the member with an account who joined first
    assert Game.objects.get(pk=hosted_in_theirs.pk).owner == bo
    assert Game.objects.filter(league=mine).count() == 4
    assert {lg.pk: _standings(bo_api, lg) for lg in (mine, theirs)} == before
    assert bo_api.get(f"/api/v1/leagues/{mine.pk}/games/").json() == history


def test_a_league_nobody_else_could_take_over_keeps_the_account(page: Client, ana: User) -> None:
    me = make_player("Ana", created_by=ana, user=ana)
    league = make_league(ana, "Solo", [me, make_player("Cy", created_by=ana)])
    response = page.post("/accounts/delete/", {"password": "table-talk-42"})
    assert response.status_code == 400
    assert "Nobody else with an account could take over your league" in response.content.decode()
    assert User.objects.filter(pk=ana.pk).exists()
    assert League.objects.get(pk=league.pk).owner == ana
    # The instance's administrator takes it when there is one.
    root = User.objects.create_superuser("root", "root@example.org", None)
    assert page.post("/accounts/delete/", {"password": "table-talk-42"}).status_code == 302
    assert League.objects.get(pk=league.pk).owner == root


def test_the_admin_locks_and_unlocks_an_account(ana: User) -> None:
    root = User.objects.create_superuser("root", "root@example.org", None)
    admin = Client()
    admin.force_login(root)
    token = Token.objects.create(user=ana)
    changelist = "/admin/auth/user/"
    assert admin.get(changelist).status_code == 200
    admin.post(changelist, {"action": "lock", "_selected_action": [ana.pk, root.pk]})
    ana.refresh_from_db()
    root.refresh_from_db()
    assert not ana.is_active
    assert root.is_active  # never oneself
    signed_in = Client().post("/accounts/login/", {"username": "ana", "password": "table-talk-42"})
    assert "This account is locked" in signed_in.content.decode()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.get("/api/v1/games/").status_code == 401

    admin.post(changelist, {"action": "unlock", "_selected_action": [ana.pk]})
    ana.refresh_from_db()
    assert ana.is_active
    assert api.get("/api/v1/games/").status_code == 200
