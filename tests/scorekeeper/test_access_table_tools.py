"""The access table (``test_access``) extended to the table tools (issue 27): reading
and changing them, on the sheet's ``games/<pk>/table/`` and on the API, for every kind
of viewer, on a game in play and on a finished one. The tools follow the one access
decision (``GameAccess.may_change``): a finished game's tools change only for those who
may reopen it, so a score guest may flip the direction while the game is played, not
after. A refused change changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from scorekeeper.models import Game, TableState
from tests.scorekeeper.test_access import (
    API_VIEWERS,
    MANAGERS,
    STATES,
    VIEWERS,
    _browser,
    _game,
    _outcome,
)


def _revision(game: Game) -> int:
    found = TableState.objects.filter(game=game).values_list("revision", flat=True)
    return next(iter(found), 0)


WEB: dict[str, Callable[[Client, Game], Any]] = {
    "read the tools": lambda c, g: c.get(reverse("game_table", args=[g.pk])),
    "flip the direction": lambda c, g: c.post(
        reverse("game_table", args=[g.pk]), {"action": "direction-flip"}
    ),
}


def _web_expected(action: str, role: str, state: str) -> str:
    if role == "other":
        return "404"
    if role == "nobody":
        return "login"
    if action == "read the tools":
        return "ok"
    if role in MANAGERS:
        return "ok"
    if role in ("scorer", "recorder"):
        return "ok" if state == "in_progress" else "403"
    return "403"


@pytest.mark.django_db
@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("role", [*VIEWERS, "other", "nobody"])
@pytest.mark.parametrize("action", list(WEB))
def test_the_sheets_tools(action: str, role: str, state: str) -> None:
    # The access table's game is Screw Your Neighbour: jacks reverse its direction.
    game, users = _game(role, state)
    client = _browser(role, game, users)
    got = _outcome(WEB[action](client, game), game)
    assert got == _web_expected(action, role, state), (action, role, state)
    if action == "flip the direction":
        assert _revision(game) == (1 if got == "ok" else 0), "a refused tap changed nothing"


@pytest.mark.django_db
@pytest.mark.parametrize("role", VIEWERS)
def test_a_phone_is_told_whether_it_may_change_the_tools(role: str) -> None:
    game, users = _game(role, "in_progress")
    answer = _browser(role, game, users).get(reverse("game_table", args=[game.pk])).json()
    assert answer["may_change"] is (role in (*MANAGERS, "recorder", "scorer"))
    buttons = "Reverse direction (a jack played)"
    sheet = _browser(role, game, users).get(reverse("game_sheet", args=[game.pk]))
    assert (buttons in sheet.content.decode()) is answer["may_change"]


API: dict[str, Callable[[APIClient, Game], Any]] = {
    "read the tools": lambda c, g: c.get(reverse("api-game-table", args=[g.pk])),
    "flip the direction": lambda c, g: c.post(
        reverse("api-game-table", args=[g.pk]), {"action": "direction-flip"}, format="json"
    ),
}


def _api_expected(action: str, role: str, state: str) -> str:
    if role == "other":
        return "404"
    if role == "nobody":
        return "401"
    if action == "read the tools" or role in MANAGERS:
        return "ok"
    if role == "recorder":
        return "ok" if state == "in_progress" else "403"
    return "403"


@pytest.mark.django_db
@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("role", API_VIEWERS)
@pytest.mark.parametrize("action", list(API))
def test_the_apis_tools(action: str, role: str, state: str) -> None:
    game, users = _game(role, state)
    client = APIClient()
    if role in users:
        client.force_authenticate(users[role])
    response = API[action](client, game)
    got = "ok" if response.status_code in (200, 201, 204) else str(response.status_code)
    assert got == _api_expected(action, role, state), (action, role, state, response.content)
    if got != "ok":
        assert response["Content-Type"] == "application/json"
    if action == "flip the direction":
        assert _revision(game) == (1 if got == "ok" else 0)


def test_the_service_asks_the_same_decision_under_the_lock(db: None) -> None:
    """A score guest's tap on a game that finished since its page decided: the service's
    own check under the game's lock refuses it."""
    from django.core.exceptions import PermissionDenied

    from scorekeeper.models import Guest
    from scorekeeper.services.table import TableAction, table_act

    game, users = _game("scorer", "finished")
    _browser("scorer", game, users)
    guest = Guest.objects.get(invite__game=game)
    with pytest.raises(PermissionDenied, match="may change a finished game"):
        table_act(game=game, user=None, guest=guest, act=TableAction("direction-flip"), hand=0)
    assert _revision(game) == 0
    table_act(game=game, user=users["owner"], guest=None, act=TableAction("direction-flip"), hand=0)
    assert _revision(game) == 1
