"""Joining a game by link without an account, and the Share page: a score guest gives a
name once, then records, corrects and undoes hands of that one game and is named in
their history; a watcher only watches; a revoked link and its guests are shut out."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.models import Game, Guest, Hand, HandRevision, Invite, Player
from scorekeeper.services.games import hand_record
from scorekeeper.services.invites import invite_create, invite_revoke
from tests.scorekeeper.factories import make_game, make_player, make_players
from tests.scorekeeper.test_web_games import HTMX, post_hand, text

SYN = "screw-your-neighbour"


@pytest.fixture
def three(user: User) -> list[Player]:
    return make_players("Ana", "Bo", "Cy", created_by=user)


@pytest.fixture
def game(user: User, three: list[Player]) -> Game:
    return make_game(user, SYN, three, options={"target_wins": 0})


def join_path(invite: Invite) -> str:
    return f"/join/{invite.token}/"


def joined_guest(game: Game, user: User, name: str = "Maya") -> tuple[Client, Invite]:
    invite = invite_create(game=game, user=user, role="score")
    guest = Client()
    response = guest.post(join_path(invite), {"name": name})
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/"
    return guest, invite


def test_a_score_link_asks_for_a_name_once(game: Game, user: User, three: list[Player]) -> None:
    invite = invite_create(game=game, user=user, role="score")
    guest = Client()
    page = guest.get(join_path(invite))
    assert page.status_code == 200
    body = text(page)
    assert f"Join Screw Your Neighbour #{game.pk}" in body
    assert "Ana, Bo, Cy" in body
    assert "Your name" in body
    assert guest.post(join_path(invite), {"name": "  Maya  "}).status_code == 302
    assert Guest.objects.get().name == "Maya"
    # Following the link again goes straight to the sheet: no second name, no second guest.
    again = guest.get(join_path(invite))
    assert again.status_code == 302
    assert again["Location"] == f"/games/{game.pk}/"
    assert Guest.objects.count() == 1
    sheet = guest.get(f"/games/{game.pk}/")
    assert sheet.status_code == 200
    assert "You keep score as Maya (guest)" in text(sheet)
    assert 'id="entry-heading"' in sheet.content.decode()


@pytest.mark.parametrize(("name", "message"), [("   ", "Give your name"), ("x" * 41, "40")])
def test_a_bad_name_is_refused_with_a_message(
    game: Game, user: User, name: str, message: str
) -> None:
    invite = invite_create(game=game, user=user, role="score")
    response = Client().post(join_path(invite), {"name": name})
    assert response.status_code == 422
    assert message in text(response)
    assert not Guest.objects.exists()


def test_a_guest_records_corrects_and_undoes_hands_and_is_named(
    game: Game, user: User, three: list[Player]
) -> None:
    ana, bo, cy = three
    guest, _ = joined_guest(game, user)
    assert post_hand(guest, game, {"winner": str(bo.pk)}).status_code == 302
    assert post_hand(guest, game, {"winner": str(cy.pk)}).status_code == 302
    assert [h.input["winner"] for h in Hand.objects.filter(game=game)] == [bo.pk, cy.pk]
    corrected = guest.post(f"/games/{game.pk}/hands/1/", {"winner": str(ana.pk)})
    assert corrected.status_code == 302
    assert guest.post(f"/games/{game.pk}/hands/2/undo/").status_code == 302
    hands = list(Hand.objects.filter(game=game))
    assert [(h.number, h.input["winner"], h.created_by) for h in hands] == [(1, ana.pk, None)]
    revisions = HandRevision.objects.filter(game=game).order_by("id")
    assert [(r.number, r.action, r.guest and r.guest.name, r.user) for r in revisions] == [
        (1, "recorded", "Maya", None),
        (2, "recorded", "Maya", None),
        (1, "corrected", "Maya", None),
        (2, "undone", "Maya", None),
    ]
    # The correction form shows every version, and who made it.
    history = text(guest.get(f"/games/{game.pk}/hands/1/"))
    assert "History of hand 1 (2 versions)" in history
    assert "Recorded by Maya (guest)" in history
    assert "Corrected by Maya (guest)" in history


def test_the_owner_sees_the_guest_in_the_history_and_over_the_api(
    game: Game, user: User, three: list[Player]
) -> None:
    guest, _ = joined_guest(game, user, "Tom")
    post_hand(guest, game, {"winner": str(three[1].pk)})
    owner = Client()
    owner.force_login(user)
    assert "Recorded by Tom (guest)" in text(owner.get(f"/games/{game.pk}/hands/1/"))
    owner.post(f"/games/{game.pk}/hands/1/", {"winner": str(three[2].pk)})
    api = owner.get(f"/api/v1/games/{game.pk}/hands/1/").json()
    assert [(r["action"], r["guest"], r["username"]) for r in api["history"]] == [
        ("recorded", "Tom", None),
        ("corrected", None, "ana"),
    ]


def test_a_guest_is_confined_to_that_one_game(game: Game, user: User, three: list[Player]) -> None:
    other = make_game(user, SYN, three)
    guest, _ = joined_guest(game, user)
    assert guest.get(f"/games/{other.pk}/").status_code == 302  # the sign-in page
    assert post_hand(guest, other, {"winner": str(three[0].pk)}).status_code == 302
    assert not Hand.objects.filter(game=other).exists()
    for url in ("/games/", "/games/new/", "/leagues/", f"/games/{game.pk}/share/"):
        response = guest.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/"), url
    # Ending or deleting the game is not a guest's to do.
    assert guest.post(f"/games/{game.pk}/close/").status_code == 302
    assert guest.post(f"/games/{game.pk}/delete/").status_code == 302
    assert Game.objects.filter(pk=game.pk, closed=False).exists()
    sheet = text(guest.get(f"/games/{game.pk}/"))
    assert "Delete game" not in sheet
    assert "End game now" not in sheet
    assert "Share" not in sheet
    # The API needs a real account.
    assert guest.get(f"/api/v1/games/{game.pk}/").status_code in (401, 403)
    assert guest.post(f"/api/v1/games/{game.pk}/hands/", {"winner": three[0].pk}).status_code in (
        401,
        403,
    )
    assert not Hand.objects.filter(game=game).exists()


def test_a_signed_in_stranger_with_a_score_link_keeps_only_that_game(
    game: Game, user: User, other_user: User, three: list[Player]
) -> None:
    invite = invite_create(game=game, user=user, role="score")
    stranger = Client()
    stranger.force_login(other_user)
    stranger.post(join_path(invite), {"name": "Bo"})
    assert post_hand(stranger, game, {"winner": str(three[1].pk)}).status_code == 302
    revision = HandRevision.objects.get(game=game)
    assert revision.guest is not None
    assert revision.guest.name == "Bo"
    assert revision.user is None
    assert stranger.get(f"/games/{game.pk}/share/").status_code == 403  # sees it, may not share


def test_a_watch_link_shows_the_sheet_but_cannot_record(
    game: Game, user: User, three: list[Player]
) -> None:
    hand_record(game=game, user=user, hand_input={"winner": three[0].pk})
    invite = invite_create(game=game, user=user, role="watch")
    watcher = Client()
    joined = watcher.get(join_path(invite))
    assert joined.status_code == 302
    sheet = watcher.get(joined["Location"])
    assert sheet.status_code == 200
    assert "You are watching through a shared link" in text(sheet)
    assert 'id="entry-heading"' not in sheet.content.decode()
    assert "Undo hand" not in text(sheet)
    live = watcher.get(f"/games/{game.pk}/live/?v=0&hand=2", **HTMX)
    assert live.status_code == 200
    assert post_hand(watcher, game, {"winner": str(three[1].pk)}).status_code == 403
    assert (
        watcher.post(f"/games/{game.pk}/hands/1/", {"winner": str(three[1].pk)}).status_code == 403
    )
    assert watcher.post(f"/games/{game.pk}/hands/1/undo/").status_code == 403
    assert [h.input["winner"] for h in Hand.objects.filter(game=game)] == [three[0].pk]


def test_a_revoked_link_shuts_out_its_guests_at_their_next_request(
    game: Game, user: User, three: list[Player]
) -> None:
    guest, invite = joined_guest(game, user)
    assert post_hand(guest, game, {"winner": str(three[1].pk)}).status_code == 302
    invite_revoke(invite=invite, user=user)
    assert Client().get(join_path(invite)).status_code == 404
    assert guest.get(join_path(invite)).status_code == 404
    # Its sheet sends the phone to the page that says its access ended (403).
    assert guest.get(f"/games/{game.pk}/").url == f"/games/{game.pk}/ended/"
    assert guest.get(f"/games/{game.pk}/ended/").status_code == 403
    assert post_hand(guest, game, {"winner": str(three[2].pk)}).status_code == 404
    assert guest.post(f"/games/{game.pk}/hands/1/undo/").status_code == 404
    assert Hand.objects.filter(game=game).count() == 1
    # A phone polling the sheet is told, and sent to a page that says why.
    live = guest.get(f"/games/{game.pk}/live/?v=0&hand=2", **HTMX)
    assert live["HX-Redirect"] == f"/games/{game.pk}/ended/"
    ended = guest.get(live["HX-Redirect"])
    assert ended.status_code == 403
    assert "The link you joined game" in text(ended)
    assert "was revoked" in text(ended)
    # The hand they recorded still names them.
    assert HandRevision.objects.get(game=game).guest.name == "Maya"  # type: ignore[union-attr]


def test_a_scorer_who_opens_a_watch_link_keeps_scoring(
    game: Game, user: User, three: list[Player]
) -> None:
    guest, _ = joined_guest(game, user)
    watch_link = invite_create(game=game, user=user, role="watch")
    assert guest.get(join_path(watch_link)).status_code == 302
    assert post_hand(guest, game, {"winner": str(three[0].pk)}).status_code == 302
    assert Hand.objects.filter(game=game).count() == 1


def test_deleting_a_game_takes_its_links_and_guests_with_it(
    game: Game, user: User, three: list[Player]
) -> None:
    guest, invite = joined_guest(game, user)
    post_hand(guest, game, {"winner": str(three[0].pk)})
    owner = Client()
    owner.force_login(user)
    assert owner.post(f"/games/{game.pk}/delete/").status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not Invite.objects.exists()
    assert not Guest.objects.exists()
    # Its sheet sends the phone to the page that says the game was deleted (403).
    assert guest.get(f"/games/{game.pk}/").url == f"/games/{game.pk}/ended/"
    ended = guest.get(f"/games/{game.pk}/ended/")
    assert ended.status_code == 403
    assert f"Game #{game.pk} was deleted" in ended.content.decode()
    assert guest.get(join_path(invite)).status_code == 404


def test_an_unknown_link_is_404(db: None) -> None:
    assert Client().get("/join/not-a-real-token/").status_code == 404
    assert Client().get("/join/not-a-real-token/qr.svg").status_code == 404
    assert Client().get(f"/join/{'x' * 200}/").status_code == 404


def test_the_owner_following_their_own_link_lands_on_the_sheet(game: Game, user: User) -> None:
    invite = invite_create(game=game, user=user, role="score")
    owner = Client()
    owner.force_login(user)
    response = owner.get(join_path(invite))
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/"
    assert not Guest.objects.exists()


# -- the Share page -------------------------------------------------------------------------


@pytest.fixture
def owner(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def test_the_sheet_has_a_share_button_for_its_owner(owner: Client, game: Game) -> None:
    html = owner.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/games/{game.pk}/share/"' in html


def test_share_makes_a_link_and_shows_its_qr_code(owner: Client, game: Game) -> None:
    empty = text(owner.get(f"/games/{game.pk}/share/"))
    assert "Live links (0)" in empty
    assert "New score link" in empty
    made = owner.post(f"/games/{game.pk}/share/", {"role": "score"})
    invite = Invite.objects.get()
    assert made.status_code == 302
    assert made["Location"] == f"/games/{game.pk}/share/?invite={invite.pk}"
    page = owner.get(made["Location"])
    html = page.content.decode()
    assert f'src="/join/{invite.token}/qr.svg"' in html
    assert f'value="http://testserver/join/{invite.token}/"' in html
    assert "Score link" in text(page)
    assert "Live links (1)" in text(page)


def test_share_lists_who_joined_and_revokes(owner: Client, game: Game, user: User) -> None:
    _, invite = joined_guest(game, user, "Maya")
    page = text(owner.get(f"/games/{game.pk}/share/"))
    assert "Joined: Maya" in page
    revoked = owner.post(f"/games/{game.pk}/share/{invite.pk}/revoke/", follow=True)
    assert "The score link was revoked" in text(revoked)
    assert "Live links (0)" in text(revoked)
    assert Invite.objects.get().revoked_at is not None
    assert Client().get(join_path(invite)).status_code == 404


def test_share_refuses_a_bad_role(owner: Client, game: Game) -> None:
    response = owner.post(f"/games/{game.pk}/share/", {"role": "admin"}, follow=True)
    assert "'admin' is not a role" in text(response)
    assert not Invite.objects.exists()


def test_share_is_for_whoever_may_change_the_game(
    client: Client, user: User, other_user: User
) -> None:
    # The owner created the seat of Bo, whose account then only sees the game.
    bo = make_player("Bo", user=other_user, created_by=user)
    game = make_game(
        user, SYN, [make_player("Ana", created_by=user), bo, make_player("Cy", created_by=user)]
    )
    client.force_login(other_user)
    assert client.get(f"/games/{game.pk}/").status_code == 200
    assert f"/games/{game.pk}/share/" not in client.get(f"/games/{game.pk}/").content.decode()
    assert client.get(f"/games/{game.pk}/share/").status_code == 403
    assert client.post(f"/games/{game.pk}/share/", {"role": "score"}).status_code == 403
    assert not Invite.objects.exists()


# -- throttling ------------------------------------------------------------------------------


def test_guessing_join_links_is_limited_per_address(
    game: Game, user: User, settings: object
) -> None:
    """Tokens are unguessable, and trying many answers 429 with Retry-After long before."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "join": "5/10m"}  # type: ignore[attr-defined]
    client = Client()
    for i in range(5):
        assert client.get(f"/join/not-a-token-{i}/").status_code == 404
    invite = invite_create(game=game, user=user, role="watch")
    response = client.get(join_path(invite))
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    # Another address is not held back.
    other = Client(REMOTE_ADDR="192.0.2.7")
    assert other.get(join_path(invite)).status_code == 302


def test_a_guests_writes_are_limited_but_the_owners_are_not(
    game: Game, user: User, three: list[Player], settings: object
) -> None:
    limits = {**settings.RATE_LIMITS, "guest-write": "2/10m"}  # type: ignore[attr-defined]
    settings.RATE_LIMITS = limits  # type: ignore[attr-defined]
    ana, bo, _ = three
    guest, _ = joined_guest(game, user)
    assert post_hand(guest, game, {"winner": ana.pk}).status_code in {200, 201, 302}
    assert post_hand(guest, game, {"winner": bo.pk}).status_code in {200, 201, 302}
    refused = post_hand(guest, game, {"winner": ana.pk})
    assert refused.status_code == 429
    assert "Retry-After" in refused
    assert Hand.objects.filter(game=game).count() == 2
    # The owner, signed in, keeps recording.
    owner = Client()
    owner.force_login(user)
    assert post_hand(owner, game, {"winner": ana.pk}).status_code in {200, 201, 302}
    assert Hand.objects.filter(game=game).count() == 3


def test_a_watch_phone_is_told_what_changed_but_of_no_entry(
    game: Game, user: User, three: list[Player]
) -> None:
    """A watch link has no entry: its live update says a hand was saved elsewhere, not
    which hand "the entry below" is for (a score guest's still says it)."""
    watcher = Client()
    assert (
        watcher.get(join_path(invite_create(game=game, user=user, role="watch"))).status_code == 302
    )
    scorer, _ = joined_guest(game, user)
    version = Game.objects.get(pk=game.pk).version
    hand_record(game=game, user=user, hand_input={"winner": three[1].pk})
    live = f"/games/{game.pk}/live/?v={version}&hand=1"
    watched = text(watcher.get(live, **HTMX))
    assert "Hand 1 was saved on another phone." in watched
    assert "entry" not in watched.lower()
    assert "The entry below is for hand 2." in text(scorer.get(live, **HTMX))


@pytest.mark.parametrize(
    ("host", "warned"),
    [
        ("127.0.0.1:8000", True),
        ("localhost:8000", True),
        ("[::1]:8000", True),
        ("192.168.1.20:8000", False),
    ],
)
def test_the_share_page_warns_when_its_links_say_loopback(
    game: Game, user: User, settings: Any, host: str, warned: bool
) -> None:
    """Opened at 127.0.0.1, the QR codes lead the phones to themselves: the page says
    so and how to serve on the home network (with this computer's address when it has
    one); opened by the network address, it says nothing."""
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "192.168.1.20"]
    owner = Client()
    owner.force_login(user)
    invite_create(game=game, user=user, role="score")
    page = owner.get(f"/games/{game.pk}/share/", HTTP_HOST=host)
    assert page.status_code == 200
    body = text(page)
    assert ("These links lead the phones to themselves" in body) is warned
    assert ("make run HOST=0.0.0.0" in body) is warned
