"""The sheet's parts are kept in Django's cache per version of the game: whoever saw the
sheet first, every viewer then sees what their own access allows — the entry, the undo
and the hand corrections only for who may change the game, its management only for
who may manage it. A sheet seen before reads only its game row."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from scorekeeper.models import Game, Membership, Player
from scorekeeper.services.games import game_close, hand_record
from scorekeeper.services.invites import invite_create
from scorekeeper.services.player_admin import player_update
from tests.scorekeeper.factories import make_game, make_league, make_player, make_user
from tests.scorekeeper.test_web_games import HTMX

ROLES = ["owner", "member", "player", "scorer", "watcher", "stranger"]
#: Who may record, correct and undo hands; who may also share, end and delete the game.
CHANGES = {"owner", "member", "scorer"}
MANAGES = {"owner", "member"}


@pytest.fixture
def setting(user: User) -> tuple[Game, dict[str, Callable[[], Client]]]:
    """A league game two hands in, and a way in for each kind of viewer."""
    seated = [make_player(name, created_by=user) for name in ("Ana", "Bo", "Cy")]
    member_account, player_account = make_user("mo"), make_user("pia")
    league = make_league(user, members=[make_player("Mo", created_by=user, user=member_account)])
    # "member": an admin of the league (test_access has each role).
    Membership.objects.filter(league=league).update(role="admin")
    game = make_game(
        user, "screw-your-neighbour", seated, options={"target_wins": 0}, league=league
    )
    for winner in (seated[0], seated[1]):
        hand_record(game=game, user=user, hand_input={"winner": winner.pk})
    # Cy's account sat at the game and left the league since: it may see the game only.
    Player.objects.filter(pk=seated[2].pk).update(user=player_account)
    Membership.objects.filter(league=league, player=seated[2]).delete()
    score_link = invite_create(game=game, user=user, role="score")
    watch_link = invite_create(game=game, user=user, role="watch")

    def signed_in(account: User) -> Callable[[], Client]:
        def make() -> Client:
            client = Client()
            client.force_login(account)
            return client

        return make

    def joined(token: str, name: str | None) -> Callable[[], Client]:
        def make() -> Client:
            client = Client()
            path = f"/join/{token}/"
            answer = client.post(path, {"name": name}) if name else client.get(path)
            assert answer.status_code == 302
            return client

        return make

    return game, {
        "owner": signed_in(user),
        "member": signed_in(member_account),
        "player": signed_in(player_account),
        "scorer": joined(score_link.token, "Maya"),
        "watcher": joined(watch_link.token, None),
        "stranger": signed_in(make_user("stranger")),
    }


def check_sheet(role: str, game: Game, page: str, *, partial: bool = False) -> None:
    edit = f'hx-get="/games/{game.pk}/hands/1/"'
    may_change = role in CHANGES
    assert ('id="entry-heading"' in page) is may_change, role
    assert ("Enter hand 3" in page) is may_change, role
    assert ("Undo hand 2" in page) is may_change, role
    assert (edit in page) is may_change, role
    assert ("Tap a hand number to correct it." in page) is may_change, role
    assert (f'action="/games/{game.pk}/close/"' in page) is (role in MANAGES), role
    assert ("Delete game" in page) is (role in MANAGES), role
    if partial:
        return
    assert (f"/games/{game.pk}/share/" in page) is (role in MANAGES), role
    assert ("You keep score as <strong>Maya (guest)</strong>" in page) is (role == "scorer"), role
    assert ("You are watching through a shared link" in page) is (role == "watcher"), role
    assert ("You are watching this sheet" in page) is (role == "player"), role


@pytest.mark.parametrize("first", ROLES)
def test_each_viewer_sees_what_they_may_do_after_any_other(
    setting: tuple[Game, dict[str, Callable[[], Client]]], first: str
) -> None:
    game, clients = setting
    viewers = {role: make() for role, make in clients.items()}
    live_url = f"/games/{game.pk}/live/?v=0&hand=1"
    for second in ROLES:
        if second == first:
            continue
        cache.clear()
        etags: dict[str, str] = {}
        for role in (first, second):  # the first fills the cache, the second reads it
            client = viewers[role]
            page = client.get(f"/games/{game.pk}/")
            if role == second and first in etags:
                # The first's live answer is this viewer's too only if they may do the
                # same: its ETag is this viewer's (304) for the owner and a member alone.
                seen = client.get(live_url, HTTP_IF_NONE_MATCH=etags[first], **HTMX)
                same_kind = {first, second} <= MANAGES
                assert seen.status_code == (304 if same_kind else 200), (first, second)
            live = client.get(live_url, **HTMX)
            partial = client.get(f"/games/{game.pk}/", **HTMX)
            if role == "stranger":
                assert page.status_code == partial.status_code == 404
                assert live["HX-Redirect"] == "/"  # "That game was deleted."
                continue
            etags[role] = live["ETag"]
            assert page.status_code == live.status_code == partial.status_code == 200, role
            check_sheet(role, game, page.content.decode())
            check_sheet(role, game, live.content.decode(), partial=True)
            check_sheet(role, game, partial.content.decode(), partial=True)


def test_a_refused_correction_after_the_sheet_was_seen_is_shown_as_a_correction(
    setting: tuple[Game, dict[str, Callable[[], Client]]],
) -> None:
    game, clients = setting
    owner = clients["owner"]()
    assert "Enter hand 3" in owner.get(f"/games/{game.pk}/").content.decode()
    refused = owner.post(f"/games/{game.pk}/hands/1/", {"winner": ""}, **HTMX)
    assert refused.status_code == 422
    page = refused.content.decode()
    assert "Correct hand 1" in page
    assert "Enter hand 3" not in page  # the entry is the correction's, not the new hand's


def test_a_sheet_seen_before_reads_only_the_game_row(
    setting: tuple[Game, dict[str, Callable[[], Client]]],
    django_assert_num_queries: Callable[..., Any],
) -> None:
    game, clients = setting
    owner = clients["owner"]()
    owner.get(f"/games/{game.pk}/")
    # The session, the account, and the game with its league and the table's shared
    # tools (Screw's direction, issue 27) in the same row.
    with django_assert_num_queries(3):
        assert owner.get(f"/games/{game.pk}/").status_code == 200
    game_close(game=Game.objects.get(pk=game.pk), user=game.owner)
    owner.get(f"/games/{game.pk}/")
    # A finished game's result reads its seats with their players and its hands at once.
    with django_assert_num_queries(5):
        assert "Game over" in owner.get(f"/games/{game.pk}/").content.decode()


def test_a_player_renamed_after_the_sheet_was_seen_shows_by_the_new_name(
    setting: tuple[Game, dict[str, Callable[[], Client]]],
) -> None:
    game, clients = setting
    owner = clients["owner"]()
    assert "Bo" in owner.get(f"/games/{game.pk}/").content.decode()
    bo = Player.objects.get(name="Bo")
    player_update(user=game.owner, player=bo, name="Bodil")
    page = owner.get(f"/games/{game.pk}/").content.decode()
    assert "<dd>Ana, Bodil, Cy</dd>" in page  # the seats in the head
    assert '<span class="col-name">Bodil</span>' in page  # the grid
    assert "Bodil" in page[page.index('id="entry"') :]  # the entry
