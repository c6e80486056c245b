"""The table's tools on the sheet (issue 18): what the game's presenter offers
(``Presenter.table_tools``), their shared state as JSON for ``static/js/table-tools.js``
(``games/<pk>/table/``: GET to read, POST an action), and the context the sheet and the
table display render them from. Every phone computes the timer from the server's clock;
the events server says when the state changed (``tools`` events)."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import path
from django.views.decorators.http import require_http_methods

from games import GameState, RuleError
from scorekeeper.models import Game
from scorekeeper.presenters import presenter_for
from scorekeeper.presenters.base import TableTools
from scorekeeper.selectors.access import GameAccess
from scorekeeper.selectors.table import game_table, hand_in_play, state_of
from scorekeeper.services.table import parse_action, table_act
from scorekeeper.web.access import game_page, writer

#: The largest action body read (an action is a few words).
MAX_BODY = 2_000


def tools_for(state: GameState, names: dict[int, str]) -> TableTools | None:
    """The tools of the hand in play (None: the game is over, or has none)."""
    if state.next_hand is None:
        return None
    return presenter_for(state.config.ruleset).table_tools(state, state.next_hand, names)


def answer(access: GameAccess) -> dict[str, Any]:
    """The tools' state for this viewer: the shared values, the hand's tools (the
    presenter's), and whether this phone may change them."""
    data = game_table(access.game)
    state, names = state_of(access.game)
    tools = tools_for(state, names)
    data["tools"] = asdict(tools) if tools is not None else None
    data["may_change"] = access.may_record and not state.finished
    return data


def _bad(field: str, message: str) -> JsonResponse:
    return JsonResponse({field: [message]}, status=400)


def _body(request: HttpRequest) -> dict[str, Any]:
    if request.content_type == "application/json":
        if len(request.body) > MAX_BODY:
            raise RuleError("body: too large", "non_field_errors")
        try:
            data = json.loads(request.body or b"{}")
        except ValueError:
            raise RuleError("body: not JSON", "non_field_errors") from None
        if not isinstance(data, dict):
            raise RuleError("body: must be an object", "non_field_errors")
        return data
    return {k: request.POST.get(k) for k in ("action", "amount", "player")}


@require_http_methods(["GET", "POST"])
@game_page(rows=False)
def table_view(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """GET: the tools' state (any viewer of the game). POST ``action`` (``amount`` for
    ``penalty-add``, ``player`` for ``leader``): only a phone that may enter hands."""
    if request.method == "POST":
        if not access.may_record:
            return JsonResponse(
                {"detail": "Only the phones that keep score may use the table's tools."},
                status=403,
            )
        try:
            act = parse_action(_body(request))
            state, _ = state_of(access.game)
            table_act(game=access.game, act=act, hand=hand_in_play(state), **writer(access))
        except RuleError as error:
            return _bad(error.field, str(error))
        except (PermissionDenied, Game.DoesNotExist) as error:
            return JsonResponse({"detail": str(error)}, status=403)
    response = JsonResponse(answer(access))
    response["Cache-Control"] = "no-store"
    return response


urlpatterns = [
    path("games/<int:pk>/table/", table_view, name="game_table"),
]
