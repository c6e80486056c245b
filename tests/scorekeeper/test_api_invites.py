"""Invites over the API: a game's owner or league member makes score and watch links,
lists the live ones and revokes them; nobody else may, and a revoked link stops working."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from scorekeeper.models import Game, Invite, MemberRole, Membership, Player
from tests.scorekeeper.factories import make_game, make_league, make_player, make_players


@pytest.fixture
def four(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", "Di", created_by=user)


@pytest.fixture
def game(user: User, four: list[Player]) -> Game:
    return make_game(user, "dirt", four)


def invites_url(game: Game) -> str:
    return f"/api/v1/games/{game.pk}/invites/"


def create(api: APIClient, game: Game, role: str = "score") -> Any:
    return api.post(invites_url(game), {"role": role}, format="json")


def test_the_owner_makes_a_score_link_with_its_qr_code(api: APIClient, game: Game) -> None:
    response = create(api, game)
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "role", "url", "qr_svg"}
    assert body["role"] == "score"
    invite = Invite.objects.get(pk=body["id"])
    assert body["url"] == f"http://testserver/join/{invite.token}/"
    assert len(invite.token) >= 32  # secrets.token_urlsafe(24): 192 random bits
    assert body["qr_svg"] == f"http://testserver/join/{invite.token}/qr.svg"
    qr = Client().get(body["qr_svg"])
    assert qr.status_code == 200
    assert qr["Content-Type"] == "image/svg+xml"
    svg = qr.content.decode()
    assert "<svg" in svg
    assert "style" not in svg  # drawn with attributes: nothing for the CSP to refuse


def test_every_link_is_different(api: APIClient, game: Game) -> None:
    urls = {create(api, game, role).json()["url"] for role in ("score", "watch", "score")}
    assert len(urls) == 3


def test_list_shows_the_live_links_newest_first(api: APIClient, game: Game) -> None:
    first = create(api, game, "score").json()
    second = create(api, game, "watch").json()
    third = create(api, game, "score").json()
    assert api.delete(f"{invites_url(game)}{third['id']}/").status_code == 204
    listed = api.get(invites_url(game))
    assert listed.status_code == 200
    assert listed.json() == [second, first]


def test_a_revoked_link_answers_404(api: APIClient, game: Game) -> None:
    body = create(api, game, "watch").json()
    browser = Client()
    assert browser.get(body["url"]).status_code == 302
    assert api.delete(f"{invites_url(game)}{body['id']}/").status_code == 204
    assert browser.get(body["url"]).status_code == 404
    assert browser.get(body["qr_svg"]).status_code == 404
    # Revoking again: there is no live link with that id any more.
    assert api.delete(f"{invites_url(game)}{body['id']}/").status_code == 404


@pytest.mark.parametrize("role", ["admin", "", None, 3, ["score"]])
def test_a_bad_role_is_a_400_naming_the_field(api: APIClient, game: Game, role: Any) -> None:
    response = api.post(invites_url(game), {"role": role}, format="json")
    assert response.status_code == 400
    assert "role" in response.json()
    assert not Invite.objects.exists()


def test_a_missing_role_is_a_400(api: APIClient, game: Game) -> None:
    response = api.post(invites_url(game), {}, format="json")
    assert response.status_code == 400
    assert response.json()["role"] == ["This field is required."]


def test_a_stranger_gets_404(game: Game, other_user: User) -> None:
    stranger = APIClient()
    stranger.force_authenticate(other_user)
    assert create(stranger, game).status_code == 404
    assert stranger.get(invites_url(game)).status_code == 404
    invite = Invite.objects.create(game=game, role="score", token="t" * 32)
    assert stranger.delete(f"{invites_url(game)}{invite.pk}/").status_code == 404
    assert Invite.objects.get(pk=invite.pk).revoked_at is None


def test_a_seated_player_sees_the_game_but_may_not_share_it(user: User, other_user: User) -> None:
    # The owner created the seat of Bo, whose account then only sees the game.
    bo = make_player("Bo", user=other_user, created_by=user)
    seats = [make_player("Ana", created_by=user), bo, make_player("Cy", created_by=user)]
    game = make_game(user, "screw-your-neighbour", seats)
    seated = APIClient()
    seated.force_authenticate(other_user)
    assert seated.get(f"/api/v1/games/{game.pk}/").status_code == 200
    assert create(seated, game).status_code == 403
    assert seated.get(invites_url(game)).status_code == 403
    invite = Invite.objects.create(game=game, role="score", token="t" * 32)
    assert seated.delete(f"{invites_url(game)}{invite.pk}/").status_code == 403
    assert not Invite.objects.filter(revoked_at__isnull=False).exists()


def test_a_league_admin_may_share_the_leagues_game(user: User, other_user: User) -> None:
    bo = make_player("Bo", user=other_user)
    league = make_league(user, members=[bo])
    Membership.objects.filter(league=league, player=bo).update(role=MemberRole.ADMIN)
    game = make_game(
        user,
        "screw-your-neighbour",
        [make_player("Ana", created_by=user), bo, make_player("Cy", created_by=user)],
        league=league.pk,
    )
    member = APIClient()
    member.force_authenticate(other_user)
    made = create(member, game, "watch")
    assert made.status_code == 201
    assert Invite.objects.get(pk=made.json()["id"]).created_by == other_user
    assert member.delete(f"{invites_url(game)}{made.json()['id']}/").status_code == 204


def test_signing_in_is_needed(anon_api: APIClient, game: Game) -> None:
    assert create(anon_api, game).status_code == 401
    assert anon_api.get(invites_url(game)).status_code == 401


def test_another_games_invite_cannot_be_revoked_through_this_game(
    api: APIClient, user: User, four: list[Player], game: Game
) -> None:
    other = make_game(user, "dirt", four)
    body = create(api, other).json()
    assert api.delete(f"{invites_url(game)}{body['id']}/").status_code == 404
    assert Invite.objects.get(pk=body["id"]).revoked_at is None


def test_huge_ids_are_404_not_500(api: APIClient, game: Game) -> None:
    huge = 2**70
    assert api.get(f"/api/v1/games/{huge}/invites/").status_code == 404
    assert api.delete(f"{invites_url(game)}{huge}/").status_code == 404


def test_the_schema_documents_invites(anon_api: APIClient, db: None) -> None:
    schema = anon_api.get("/api/v1/schema/", {"format": "json"}).json()
    listing = schema["paths"]["/api/v1/games/{game_id}/invites/"]
    assert {"201", "400", "401", "403", "404"} <= set(listing["post"]["responses"])
    assert set(listing["get"]["responses"]) == {"200", "401", "403", "404"}
    one = schema["paths"]["/api/v1/games/{game_id}/invites/{invite_id}/"]
    assert set(one["delete"]["responses"]) == {"204", "401", "403", "404"}
    invite = schema["components"]["schemas"]["Invite"]["properties"]
    assert set(invite) == {"id", "role", "url", "qr_svg"}


# -- guests ------------------------------------------------------------------------------


def test_the_owner_lists_the_guests_and_removes_one(api: APIClient, game: Game) -> None:
    link = create(api, game, "score").json()
    maya, theo = Client(), Client()
    assert maya.post(link["url"], {"name": "Maya"}).status_code == 302
    assert theo.post(link["url"], {"name": "Theo"}).status_code == 302
    guests_url = f"/api/v1/games/{game.pk}/guests/"
    listed = api.get(guests_url).json()
    assert [(g["name"], g["invite"]) for g in listed] == [
        ("Maya", link["id"]),
        ("Theo", link["id"]),
    ]
    assert set(listed[0]) == {"id", "name", "invite", "joined_at"}
    maya_id = listed[0]["id"]
    assert api.delete(f"{guests_url}{maya_id}/").status_code == 204
    assert [g["name"] for g in api.get(guests_url).json()] == ["Theo"]
    # Maya is shut out; Theo, on the same link, is not.
    # Her sheet sends her to the page that says she was removed.
    ended = maya.get(f"/games/{game.pk}/", follow=True)
    assert ended.status_code == 403
    assert "removed you" in ended.content.decode()
    assert theo.get(f"/games/{game.pk}/").status_code == 200
    # Removing again, or a guest that never was: 404.
    assert api.delete(f"{guests_url}{maya_id}/").status_code == 404
    assert api.delete(f"{guests_url}99999999999/").status_code == 404


def test_only_who_may_share_sees_or_removes_guests(
    api: APIClient, game: Game, other_user: User
) -> None:
    link = create(api, game, "score").json()
    assert Client().post(link["url"], {"name": "Maya"}).status_code == 302
    stranger = APIClient()
    stranger.force_authenticate(other_user)
    guests_url = f"/api/v1/games/{game.pk}/guests/"
    assert stranger.get(guests_url).status_code == 404
    guest_id = api.get(guests_url).json()[0]["id"]
    assert stranger.delete(f"{guests_url}{guest_id}/").status_code == 404
    assert APIClient().get(guests_url).status_code == 401
    assert len(api.get(guests_url).json()) == 1
