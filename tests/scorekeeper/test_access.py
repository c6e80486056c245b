"""Who may do what with a game: every action of the pages and of the API, for every kind
of viewer, on a game in play and on a finished one.

The viewers: the game's owner (a member of its league who records), the league's
owner, its admins, its members who record and those who only look, a player who sat at
it with an account (a game outside any league: seating a player in a league game makes
them a member), a guest of a score link, a guest of a watch link, another account, and a
browser with neither an account nor a link. A finished game is changed only by those
who may reopen it: a score guest or a member who records may not correct or undo its
hands, nor close, reopen or delete another's game; a member who only looks changes
nothing. The states: in play, won (finished by its hands), and ended by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from scorekeeper.models import Game, GameStatus, Hand, League, MemberRole, Membership
from scorekeeper.selectors.access import Role, game_access
from scorekeeper.services.games import game_close, hand_record
from scorekeeper.services.invites import invite_create
from tests.scorekeeper.factories import make_game, make_player, make_user

SYN = "screw-your-neighbour"
STATES = ("in_progress", "finished", "ended")
#: The league's roles as its members hold them (``MemberRole``), by viewer.
MEMBER_ROLES = {
    "admin": MemberRole.ADMIN,
    "recorder": MemberRole.RECORDER,
    "viewer": MemberRole.VIEWER,
}
#: Who may close, reopen, delete and share a league game, and change a finished one.
MANAGERS = ("owner", "league owner", "admin")


def _game(role: str, state: str) -> tuple[Game, dict[str, User]]:
    """A Screw Your Neighbour game to two hand wins, started by Ana (a member of the
    league who records), with one hand (in play), two (finished, Ana won both), or one
    and ended by hand; a league game unless the viewer is a seated player."""
    names = ("ana", "lou", "adi", "rex", "vi", "cy", "dee")
    owner, lou, admin, recorder, viewer, seated, other = (make_user(n) for n in names)
    ana = make_player("Ana", user=owner)
    bo = make_player("Bo", created_by=owner)
    cy = make_player("Cy", user=seated, created_by=owner)
    league = None
    if role != "player":
        league = League.objects.create(name="Thursday", owner=lou)
        Membership.objects.create(league=league, player=ana, role=MemberRole.RECORDER)
        for name, user, held in (
            ("Adi", admin, "admin"),
            ("Rex", recorder, "recorder"),
            ("Vi", viewer, "viewer"),
        ):
            player = make_player(name, user=user)
            Membership.objects.create(league=league, player=player, role=MEMBER_ROLES[held])
    game = make_game(owner, SYN, [ana, bo, cy], options={"target_wins": 2}, league=league)
    for _ in range(2 if state == "finished" else 1):
        hand_record(game=game, user=owner, hand_input={"winner": ana.pk})
    if state == "ended":
        game_close(game=game, user=owner)
    game.refresh_from_db()
    assert game.status == ("in_progress" if state == "in_progress" else "finished")
    users = {"owner": owner, "league owner": lou, "admin": admin, "recorder": recorder}
    return game, {**users, "viewer": viewer, "player": seated, "other": other}


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
    "reopen it": lambda c, g: c.post(reverse("game_reopen", args=[g.pk])),
    "delete it": lambda c, g: c.get(reverse("game_delete", args=[g.pk])),
    "share it": lambda c, g: c.get(reverse("game_share", args=[g.pk])),
    "see the result image": lambda c, g: c.get(reverse("game_result_png", args=[g.pk])),
}

VIEWERS = ("owner", "league owner", "admin", "recorder", "viewer", "scorer", "player", "watcher")


def _web_expected(action: str, role: str, state: str) -> str:
    """The outcome the table of rights gives."""
    finished = state != "in_progress"
    if role == "other":
        return "404"
    if role == "nobody":
        return "404" if action == "see the result image" else "login"
    manager = role in MANAGERS
    guest = role in ("scorer", "watcher")
    records = role in ("recorder", "scorer")
    if action in ("see the sheet", "poll it"):
        return "ok"
    if action == "see the result image":
        return "ok" if finished else "404"
    if action == "record a hand":
        if manager or records:
            return "409" if finished else "ok"
        return "403"
    if action == "preview a hand":
        return "ok" if manager or records else "403"
    if action in ("open a correction", "correct a hand", "undo the last hand"):
        if manager or (records and not finished):
            return "ok"
        return "403"
    if action in ("end the game", "reopen it"):
        if guest:
            return "login"
        # A game over, or not ended by hand: the sheet again, saying why not.
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
    "reopen it": lambda c, g: c.post(reverse("api-game-reopen", args=[g.pk])),
    "make a link": lambda c, g: c.post(
        reverse("api-game-invites", args=[g.pk]), {"role": "watch"}, format="json"
    ),
    "list its links": lambda c, g: c.get(reverse("api-game-invites", args=[g.pk])),
    "revoke a link": lambda c, g: c.delete(reverse("api-game-invite", args=[g.pk, _a_link(g)])),
    "delete it": lambda c, g: c.delete(reverse("api-game-detail", args=[g.pk])),
}


def _a_link(game: Game) -> int:
    return invite_create(game=game, user=game.owner, role="watch").pk


def _api_expected(action: str, role: str, state: str) -> str:
    finished = state != "in_progress"
    if role == "other":
        return "404"
    if role == "nobody":
        return "401"
    manager = role in MANAGERS
    if action.startswith(("get", "list its hands")):
        return "ok"
    if role == "recorder" and action in ("record a hand", "correct a hand", "undo the last hand"):
        if not finished:
            return "ok"
        return "409" if action == "record a hand" else "403"
    if not manager:
        return "403"
    if action in ("record a hand", "end the game") and finished:
        return "409"
    if action == "reopen it" and state != "ended":
        return "409"
    return "ok"


API_VIEWERS = ("owner", "league owner", "admin", "recorder", "viewer", "player", "other", "nobody")


@pytest.mark.django_db
@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("role", API_VIEWERS)
@pytest.mark.parametrize("action", list(API))
def test_api(action: str, role: str, state: str) -> None:
    game, users = _game(role, state)
    client = APIClient()
    if role in users:
        client.force_authenticate(users[role])
    hands_before = list(Hand.objects.filter(game=game).values_list("number", "revision"))
    response = API[action](client, game)
    got = "ok" if response.status_code in (200, 201, 204) else str(response.status_code)
    assert got == _api_expected(action, role, state), (action, role, state, response.content)
    if got != "ok":
        assert response["Content-Type"] == "application/json"
        hands_after = list(Hand.objects.filter(game=game).values_list("number", "revision"))
        assert hands_after == hands_before, "a refused write changed nothing"


#: The role each account holds on the league game, by viewer.
DECIDED = {
    "owner": Role.OWNER,
    "league owner": Role.MEMBER,
    "admin": Role.MEMBER,
    "recorder": Role.RECORDER,
    "viewer": Role.VIEWER,
    "player": Role.PLAYER,
}


@pytest.mark.django_db
@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("role", list(DECIDED))
def test_the_decision_names_each_account(role: str, state: str) -> None:
    game, users = _game(role, state)
    access = game_access(game, users[role])
    in_play = state == "in_progress"
    assert access.role == DECIDED[role]
    assert access.may_view
    assert access.may_manage == (role in MANAGERS)
    assert access.may_record == (role in (*MANAGERS, "recorder"))
    assert access.may_change == (role in MANAGERS or (role == "recorder" and in_play))
    assert game_access(game, users["other"]).role is Role.NONE
