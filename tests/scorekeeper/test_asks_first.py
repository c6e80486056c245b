"""What cannot be undone asks first, saying what will happen: deleting a game or the
account, revoking the API token, withdrawing a sign-up invitation, removing a guest
(tests/scorekeeper/test_web_guest_remove.py) and turning a result's public page off.
(Merging players asks too: tests/scorekeeper/test_players_merge*.) There is no way to
delete a league or a player."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import NoReverseMatch, reverse
from rest_framework.authtoken.models import Token

from scorekeeper.models import Game, SignupInvitation
from tests.scorekeeper.factories import make_game, make_players
from tests.scorekeeper.test_results import finish, publish
from tests.scorekeeper.test_web_games import text


@pytest.fixture
def ana(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def test_deleting_a_game_asks_first(ana: Client, user: User) -> None:
    game = make_game(user, "dirt", make_players("Ana", "Bo", "Cy", created_by=user))
    sheet = text(ana.get(f"/games/{game.pk}/"))
    assert "Delete game" in sheet
    confirm = text(ana.get(f"/games/{game.pk}/delete/"))
    assert "Delete this game?" in confirm
    assert "The sheet and all its hands are removed" in confirm
    assert "This cannot be undone." in confirm
    assert Game.objects.filter(pk=game.pk).exists()
    assert ana.post(f"/games/{game.pk}/delete/").status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()


def test_deleting_the_account_asks_first(ana: Client, user: User) -> None:
    confirm = text(ana.get("/accounts/delete/"))
    assert "This cannot be undone." in confirm
    assert "deletes the games you own that belong to no league" in confirm
    assert "Your password" in confirm
    assert User.objects.filter(pk=user.pk).exists()


def test_revoking_the_api_token_asks_first(ana: Client, user: User) -> None:
    Token.objects.create(user=user)
    page = ana.get("/accounts/").content.decode()
    # The account page leads to the question; it does not revoke at a tap.
    assert 'href="/accounts/token/revoke/"' in page
    assert 'action="/accounts/token/revoke/"' not in page
    confirm = text(ana.get("/accounts/token/revoke/"))
    assert "Revoke your API token?" in confirm
    assert "signed out at once" in confirm
    assert "This cannot be undone" in confirm
    assert Token.objects.filter(user=user).exists()
    assert ana.post("/accounts/token/revoke/").status_code == 302
    assert not Token.objects.filter(user=user).exists()
    # Nothing left to revoke: back to the account page.
    assert ana.get("/accounts/token/revoke/")["Location"] == "/accounts/"


def test_withdrawing_an_invitation_asks_first(ana: Client, user: User, settings) -> None:  # type: ignore[no-untyped-def]
    settings.SIGNUP = "invite"
    settings.SIGNUP_INVITES_BY = "users"
    invitation = SignupInvitation.objects.create(created_by=user, note="Cy")
    url = f"/accounts/invitations/{invitation.pk}/delete/"
    page = ana.get("/accounts/").content.decode()
    assert f'href="{url}"' in page
    assert f'action="{url}"' not in page
    confirm = text(ana.get(url))
    assert "Withdraw this invitation?" in confirm
    assert "Its link (for Cy) stops working at once" in confirm
    assert "This cannot be undone" in confirm
    assert SignupInvitation.objects.filter(pk=invitation.pk).exists()
    assert ana.post(url).status_code == 302
    assert not SignupInvitation.objects.filter(pk=invitation.pk).exists()


def test_someone_elses_invitation_is_not_shown(
    client: Client, user: User, other_user: User
) -> None:
    invitation = SignupInvitation.objects.create(created_by=user, note="Cy")
    client.force_login(other_user)
    url = f"/accounts/invitations/{invitation.pk}/delete/"
    assert client.get(url)["Location"] == "/accounts/"
    client.post(url)
    assert SignupInvitation.objects.filter(pk=invitation.pk).exists()


def test_turning_the_public_page_off_asks_first(ana: Client, user: User) -> None:
    trio = make_players("Maya", "Bob", "Cy", created_by=user)
    game = finish(
        user, "screw-your-neighbour", trio, [{"winner": trio[0].pk}], options={"target_wins": 0}
    )
    publish(ana, game)
    sheet = ana.get(f"/games/{game.pk}/").content.decode()
    assert 'hx-confirm="Turn the public page off? Its link stops working at once, for good' in sheet


def test_there_is_no_league_or_player_delete() -> None:
    for name in ("league_delete", "player_delete"):
        with pytest.raises(NoReverseMatch):
            reverse(name, args=[1])
