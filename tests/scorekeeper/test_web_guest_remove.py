"""Removing one guest from a game: the Share page lists who joined by each score link,
each with "Remove…", which asks first and says what it does; the removed guest's phone
is refused at once (and cannot join again by the same link), the link's other guests
play on, and the hands the removed guest recorded still name them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import Game, Guest, Hand, HandRevision, Player
from scorekeeper.services.invites import guest_remove
from tests.scorekeeper.factories import make_game, make_players
from tests.scorekeeper.test_web_games import HTMX, post_hand, text
from tests.scorekeeper.test_web_invites import join_path, joined_guest

SYN = "screw-your-neighbour"


@pytest.fixture
def three(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", created_by=user)


@pytest.fixture
def game(user: User, three: list[Player]) -> Game:
    return make_game(user, SYN, three, options={"target_wins": 0})


def test_removing_one_guest_asks_first_then_shuts_out_only_them(
    game: Game, user: User, three: list[Player]
) -> None:
    maya, invite = joined_guest(game, user, "Maya")
    theo = Client()
    assert theo.post(join_path(invite), {"name": "Theo"}).status_code == 302
    assert post_hand(maya, game, {"winner": str(three[0].pk)}).status_code == 302
    owner = Client()
    owner.force_login(user)
    share = owner.get(f"/games/{game.pk}/share/")
    assert "Maya" in text(share)
    assert "Theo" in text(share)
    guest = Guest.objects.get(name="Maya")
    remove_url = f"/games/{game.pk}/share/guests/{guest.pk}/remove/"
    assert remove_url in share.content.decode()

    # The confirm step says what will happen, and changes nothing.
    confirm = owner.get(remove_url)
    assert confirm.status_code == 200
    said = text(confirm)
    assert "Remove Maya?" in said
    assert "can no longer enter, correct or undo hands" in said
    assert "still say “Maya (guest)”" in said
    assert "keeps working for Theo" in said
    assert post_hand(maya, game, {"winner": str(three[1].pk)}).status_code == 302
    assert Hand.objects.filter(game=game).count() == 2

    response = owner.post(remove_url, follow=True)
    assert "Maya was removed" in text(response)
    assert "Maya" not in text(owner.get(f"/games/{game.pk}/share/")).split("Joined:")[-1]

    # Maya: refused at once, everywhere; her polling sheet is sent to say why.
    assert post_hand(maya, game, {"winner": str(three[2].pk)}).status_code == 404
    assert maya.post(f"/games/{game.pk}/hands/2/undo/").status_code == 404
    # Its sheet sends the phone to the page that says its access ended (403).
    assert maya.get(f"/games/{game.pk}/").url == f"/games/{game.pk}/ended/"
    assert maya.get(f"/games/{game.pk}/ended/").status_code == 403
    live = maya.get(f"/games/{game.pk}/live/?v=0&hand=3", **HTMX)
    assert live["HX-Redirect"] == f"/games/{game.pk}/ended/"
    ended = maya.get(live["HX-Redirect"])
    assert ended.status_code == 403
    assert "The game's owner removed you from it" in text(ended)
    # The same link does not let her back in under another name.
    again = maya.get(join_path(invite))
    assert again.status_code == 403
    assert maya.post(join_path(invite), {"name": "Maya2"}).status_code == 403
    assert not Guest.objects.filter(name="Maya2").exists()

    # Theo, on the same link, plays on.
    assert post_hand(theo, game, {"winner": str(three[2].pk)}).status_code == 302
    assert Hand.objects.filter(game=game).count() == 3
    # The hands Maya recorded still name her.
    first = HandRevision.objects.filter(game=game).order_by("id").first()
    assert first is not None
    assert first.guest is not None
    assert first.guest.name == "Maya"


def test_only_who_may_share_removes_a_guest(
    game: Game, user: User, other_user: User, three: list[Player]
) -> None:
    maya, _ = joined_guest(game, user, "Maya")
    guest = Guest.objects.get()
    url = f"/games/{game.pk}/share/guests/{guest.pk}/remove/"
    stranger = Client()
    stranger.force_login(other_user)
    assert stranger.get(url).status_code == 404
    assert stranger.post(url).status_code == 404
    assert maya.post(url).status_code in (302, 403)  # a guest is not signed in: sign in first
    guest.refresh_from_db()
    assert guest.removed_at is None
    with pytest.raises(Exception, match="Only the game's owner"):
        guest_remove(guest=guest, user=other_user)
    # An unknown guest: 404 to look at, a message after a post.
    owner = Client()
    owner.force_login(user)
    assert owner.get(f"/games/{game.pk}/share/guests/999999/remove/").status_code == 404
    assert "already removed" in text(
        owner.post(f"/games/{game.pk}/share/guests/999999/remove/", follow=True)
    )


def test_the_ended_page_is_only_for_a_phone_that_joined_by_link(game: Game, user: User) -> None:
    assert Client().get(f"/games/{game.pk}/ended/").status_code == 404
    maya, _ = joined_guest(game, user, "Maya")
    # Still let in: the page sends the phone back to the sheet.
    response = maya.get(f"/games/{game.pk}/ended/")
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/"
