"""Who may do what with a game: every action of the pages and of the API, for every kind
of viewer, on a game in play and on a finished one.

The viewers: the game's owner, a member of its league, a player who sat at it with an
account (a game outside any league: seating a player in a league game makes them a
member), a guest of a score link, a guest of a watch link, another account, and a
browser with neither an account nor a link. A finished game is changed only by those
who may reopen it: a score guest may not correct or undo its hands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from scorekeeper.models import Game, GameStatus, Hand, League, Membership
from scorekeeper.selectors.access import Role, game_access
from scorekeeper.services.games import hand_record
from scorekeeper.services.invites import invite_create
from tests.scorekeeper.factories import make_game, make_player, make_user

SYN = "screw-your-neighbour"
STATES = ("in_progress", "finished")


def _game(role: str, state: str) -> tuple[Game, dict[str, User]]:
    """A Screw Your Neighbour game to two hand wins, with one hand (in play) or two
    (finished, Ana won both); a league game unless the viewer is a seated player."""
    owner, member, seated, other = (make_user(n) for n in ("ana", "bo", "cy", "dee"))
    ana = make_player("Ana", user=owner)
    bo = make_player("Bo", created_by=owner)
    cy = make_player("Cy", user=seated, created_by=owner)
    league = None
    if role != "player":
        league = League.objects.create(name="Thursday", owner=owner)
        Membership.objects.create(league=league, player=make_player("Bob", user=member))
    game = make_game(owner, SYN, [ana, bo, cy], options={"target_wins": 2}, league=league)
    for _ in range(1 if state == "in_progress" else 2):
        hand_record(game=game, user=owner, hand_input={"winner": ana.pk})
    game.refresh_from_db()
    assert game.status == state
    return game, {"owner": owner, "member": member, "player": seated, "other": other}


def _browser(role: str, game: Game, users: dict[str, User]) -> Client:
    client = Client()
    if role in users:
        client.force_login(users[role])
    elif role in ("scorer", "watcher"):
        invite = invite_create(
            game=game, user=users["owner"], role="score" if role == "scorer" else "watch"
        )
        joined = client.post(reverse("join", args=[invite.token]), {"name": "Maya"})
        assert joined.status_code == 302
    return client


def _outcome(response: Any, game: Game) -> str:
    """What the viewer got: ok, login (sent to sign in), 403, 404 or 409."""
    if response.status_code == 302:
        where = response["Location"]
        return "login" if where.startswith(reverse("login")) else "ok"
    return "ok" if response.status_code in (200, 201, 204) else str(response.status_code)


def _last(game: Game) -> int:
    return Game.objects.get(pk=game.pk).hand_count


WEB: dict[str, Callable[[Client, Game], Any]] = {
    "see the sheet": lambda c, g: c.get(reverse("game_sheet", args=[g.pk])),
    "poll it": lambda c, g: c.get(reverse("game_live", args=[g.pk]), {"v": "0"}),
    "record a hand": lambda c, g: c.post(
        reverse("game_hand_new", args=[g.pk]),
        {"winner": str(g.seats.first().player_id), "number": str(_last(g) + 1)},  # type: ignore[union-attr]
    ),
    "preview a hand": lambda c, g: c.post(
        reverse("game_hand_preview", args=[g.pk]),
        {"winner": str(g.seats.first().player_id)},  # type: ignore[union-attr]
    ),
    "open a correction": lambda c, g: c.get(reverse("game_hand_edit", args=[g.pk, 1])),
    "correct a hand": lambda c, g: c.post(
        reverse("game_hand_edit", args=[g.pk, 1]),
        {"winner": str(g.seats.first().player_id)},  # type: ignore[union-attr]
    ),
    "undo the last hand": lambda c, g: c.post(reverse("game_hand_undo", args=[g.pk, _last(g)])),
    "end the game": lambda c, g: c.post(reverse("game_close", args=[g.pk])),
    "delete it": lambda c, g: c.get(reverse("game_delete", args=[g.pk])),
    "share it": lambda c, g: c.get(reverse("game_share", args=[g.pk])),
    "see the result image": lambda c, g: c.get(reverse("game_result_png", args=[g.pk])),
}

VIEWERS = ("owner", "member", "scorer", "player", "watcher")


def _web_expected(action: str, role: str, state: str) -> str:
    """The outcome the table of rights gives."""
    finished = state == "finished"
    if role == "other":
        return "404"
    if role == "nobody":
        return "404" if action == "see the result image" else "login"
    manager = role in ("owner", "member")
    guest = role in ("scorer", "watcher")
    if action in ("see the sheet", "poll it"):
        return "ok"
    if action == "see the result image":
        return "ok" if finished else "404"
    if action == "record a hand":
        if manager or role == "scorer":
            return "409" if finished else "ok"
        return "403"
    if action == "preview a hand":
        return "ok" if manager or role == "scorer" else "403"
    if action in ("open a correction", "correct a hand", "undo the last hand"):
        if manager or (role == "scorer" and not finished):
            return "ok"
        return "403"
    if action == "end the game":
        if guest:
            return "login"
        # A finished game: the sheet again, saying it is already over.
        return "ok" if manager else "403"
    # delete, share: accounts that manage it only; a guest is sent to sign in.
    if guest:
        return "login"
    return "ok" if manager else "403"


@pytest.mark.django_db
@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("role", [*VIEWERS, "other", "nobody"])
@pytest.mark.parametrize("action", list(WEB))
def test_pages(action: str, role: str, state: str) -> None:
    game, users = _game(role, state)
    client = _browser(role, game, users)
    hands_before = list(Hand.objects.filter(game=game).values_list("number", "revision"))
    got = _outcome(WEB[action](client, game), game)
    assert got == _web_expected(action, role, state), (action, role, state)
    if got != "ok" and action in ("record a hand", "correct a hand", "undo the last hand"):
        hands_after = list(Hand.objects.filter(game=game).values_list("number", "revision"))
        assert hands_after == hands_before, "a refused write changed nothing"


def test_a_score_guest_cannot_reopen_a_finished_game_by_undoing_its_last_hand(
    db: None,
) -> None:
    game, users = _game("scorer", "finished")
    guest = _browser("scorer", game, users)
    response = guest.post(reverse("game_hand_undo", args=[game.pk, 2]))
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert game.hand_count == 2
    sheet = guest.get(reverse("game_sheet", args=[game.pk])).content.decode()
    assert "Game over" in sheet
    assert "Undo hand" not in sheet
    assert reverse("game_hand_edit", args=[game.pk, 1]) not in sheet


# -- the API ----------------------------------------------------------------------------

API: dict[str, Callable[[APIClient, Game], Any]] = {
    "get the game": lambda c, g: c.get(reverse("api-game-detail", args=[g.pk])),
    "list its hands": lambda c, g: c.get(reverse("api-game-hands", args=[g.pk])),
    "get a hand": lambda c, g: c.get(reverse("api-game-hand", args=[g.pk, 1])),
    "record a hand": lambda c, g: c.post(
        reverse("api-game-hands", args=[g.pk]),
        {"winner": g.seats.first().player_id},  # type: ignore[union-attr]
        format="json",
    ),
    "correct a hand": lambda c, g: c.put(
        reverse("api-game-hand", args=[g.pk, 1]),
        {"winner": g.seats.first().player_id},  # type: ignore[union-attr]
        format="json",
    ),
    "undo the last hand": lambda c, g: c.delete(reverse("api-game-hand", args=[g.pk, _last(g)])),
    "end the game": lambda c, g: c.post(reverse("api-game-close", args=[g.pk])),
    "list its links": lambda c, g: c.get(reverse("api-game-invites", args=[g.pk])),
    "delete it": lambda c, g: c.delete(reverse("api-game-detail", args=[g.pk])),
}


def _api_expected(action: str, role: str, state: str) -> str:
    finished = state == "finished"
    if role == "other":
        return "404"
    if role == "nobody":
        return "401"
    manager = role in ("owner", "member")
    if action.startswith(("get", "list its hands")):
        return "ok"
    if not manager:
        return "403"
    if action in ("record a hand", "end the game") and finished:
        return "409"
    return "ok"


@pytest.mark.django_db
@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("role", ["owner", "member", "player", "other", "nobody"])
@pytest.mark.parametrize("action", list(API))
def test_api(action: str, role: str, state: str) -> None:
    game, users = _game(role, state)
    client = APIClient()
    if role in users:
        client.force_authenticate(users[role])
    response = API[action](client, game)
    got = "ok" if response.status_code in (200, 201, 204) else str(response.status_code)
    assert got == _api_expected(action, role, state), (action, role, state, response.content)
    if got != "ok":
        assert response["Content-Type"] == "application/json"


@pytest.mark.django_db
@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("role", ["owner", "member", "player"])
def test_the_decision_names_each_account(role: str, state: str) -> None:
    game, users = _game(role, state)
    access = game_access(game, users[role])
    assert access.role == Role(role)
    assert access.may_view
    assert access.may_change == (role != "player")
    assert access.may_manage == (role != "player")
    assert game_access(game, users["other"]).role is Role.NONE
