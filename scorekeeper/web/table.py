"""The table's tools on the sheet (issue 18): what the game's presenter offers
(``Presenter.table_tools``), their shared state as JSON for ``static/js/table-tools.js``
(``games/<pk>/table/``: GET to read, POST an action), and the context the sheet and the
table display render them from. Every phone computes the timer from the server's clock.

The state rides with what a phone gets anyway: in the page, in the live answer after a
hand (``games/_table_tools_state.html``, out of band) and, as a revision, in the events
stream's ``hello``. A phone reads ``table/`` only when a ``tools`` event (or a ``hello``)
says the revision moved past the one it shows, sending the ``ETag`` its state came
with: ``304`` when it is current (Django's ``condition``). The game's state is the
sheet's, kept once per version (``selectors.rows.rows_by_version``)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_http_methods

from games import GameState, RuleError
from scorekeeper.models import Game, TableState
from scorekeeper.presenters.base import TableTools
from scorekeeper.selectors.access import GameAccess
from scorekeeper.selectors.rows import rows_by_version
from scorekeeper.selectors.table import game_table, hand_in_play, tools_for, tools_tag
from scorekeeper.services.table import parse_action, table_act
from scorekeeper.web.access import game_page, writer
from scorekeeper.web.live_answer import LiveRequest, poll_access, read_tools_revision, tools_row

#: The largest action body read (an action is a few words).
MAX_BODY = 2_000


def state_of(game: Game) -> tuple[GameState, dict[int, str]]:
    """The game's state and players' names: the sheet's rows of its version."""
    rows = rows_by_version(game)
    return rows.state, rows.names


def etag_of(game: Game, revision: int, may_change: bool) -> str:
    """The ``ETag`` of the tools' state for a viewer (see ``selectors.table.tools_tag``)."""
    tag = tools_tag(game, revision, may_change)
    return f'W/"{hashlib.blake2b(tag.encode(), digest_size=12).hexdigest()}"'


def answer(
    access: GameAccess,
    state: GameState | None = None,
    names: dict[int, str] | None = None,
    tools: TableTools | None = None,
    row: TableState | bool | None = False,
) -> dict[str, Any]:
    """The tools' state for this viewer: the shared values, the hand's tools (the
    presenter's), whether this phone may change them, the game's version and the
    state's ``ETag``. ``state``/``names``: the game's, and ``tools`` the hand's, when
    the caller has them; ``row``: the tools' row when read with the game (see
    ``selectors.table.table_answer``)."""
    if state is None or names is None:
        state, names = state_of(access.game)
    data = game_table(access.game, state, names, row)
    if tools is None:
        tools = tools_for(state, names)
    data["tools"] = asdict(tools) if tools is not None else None
    data["may_change"] = access.may_change and not state.finished
    data["version"] = access.game.version
    data["etag"] = etag_of(access.game, data["revision"], access.may_change)
    return data


def _bad(field: str, message: str) -> JsonResponse:
    return JsonResponse({field: [message]}, status=400)


def _body(request: HttpRequest) -> dict[str, Any]:
    if request.content_type == "application/json":
        if len(request.body) > MAX_BODY:
            raise RuleError(_("body: too large"), "non_field_errors")
        try:
            data = json.loads(request.body or b"{}")
        except ValueError:
            raise RuleError(_("body: not JSON"), "non_field_errors") from None
        if not isinstance(data, dict):
            raise RuleError(_("body: must be an object"), "non_field_errors")
        return data
    return {k: request.POST.get(k) for k in ("action", "amount", "player")}


def _answered(access: GameAccess, row: TableState | bool | None = False) -> JsonResponse:
    data = answer(access, row=row)
    response = JsonResponse(data)
    response["ETag"] = data["etag"]
    return response


def tools_etag(request: LiveRequest, pk: int) -> str | None:
    """The ``ETag`` of the tools' state for this viewer, for ``condition``: none when
    they may not see the game (the view then says so)."""
    found = poll_access(request, pk)
    if found is None:
        return None
    return etag_of(found.game, read_tools_revision(request, found), found.may_change)


@game_page(rows=False)
def _read(request: HttpRequest, access: GameAccess) -> HttpResponse:
    return _answered(access)


@cache_control(private=True, no_cache=True)
@condition(etag_func=tools_etag)
def table_read(request: LiveRequest, pk: int) -> HttpResponse:
    """GET: the tools' state (any viewer of the game); ``304`` to a phone whose
    ``If-None-Match`` names the current one. The game row the ``ETag`` was made from
    (the live poll's) and the tools' row read for it serve the answer too; a viewer
    without access gets what any game page gives them (sent to sign in, to the page
    saying the link ended, or a 404)."""
    found = poll_access(request, pk)
    if found is None:
        return _read(request, pk)
    return _answered(found, tools_row(request, found))


@game_page(rows=False)
def table_change(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """POST ``action`` (``amount`` for ``penalty-add``, ``player`` for ``leader``): only
    a phone that may change the game (``GameAccess.may_change``: a finished game's only
    for those who may reopen it). The answer is the new state, as a GET gives it."""
    if not access.may_change:
        return JsonResponse(
            {"detail": _("Only the phones that keep score may use the table's tools.")},
            status=403,
        )
    try:
        act = parse_action(_body(request))
        state, _revision = state_of(access.game)
        table_act(game=access.game, act=act, hand=hand_in_play(state), **writer(access))
    except RuleError as error:
        return _bad(error.field, str(error))
    except (PermissionDenied, Game.DoesNotExist) as error:
        return JsonResponse({"detail": str(error)}, status=403)
    response = _answered(access)
    response["Cache-Control"] = "no-store"
    return response


@require_http_methods(["GET", "POST"])
def table_view(request: LiveRequest, pk: int) -> HttpResponse:
    if request.method == "POST":
        return table_change(request, pk)
    return table_read(request, pk)


urlpatterns = [
    path("games/<int:pk>/table/", table_view, name="game_table"),
]
