"""The table display (issue 18): a tablet or TV in the middle of the table shows the
scoreboard, the hand in play (dealer, the game's facts) and the shared tools in big
type, landscape, kept awake. Opened from the Share page or by a watch link (anyone who
may see the sheet may open it); it follows the game live as the sheet does: the same
events stream and poll (``static/js/live.js``), answered here with the display's parts.
When the game ends the display turns into its final standings, winner first, across the
whole screen (issue 29)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_GET

from scorekeeper.selectors.access import GameAccess
from scorekeeper.selectors.table import read_with_game
from scorekeeper.web.access import game_page
from scorekeeper.web.scoreboard import build_final_board
from scorekeeper.web.sheet_context import reload_access, sheet_context, sheet_game


def _context(request: HttpRequest, access: GameAccess) -> dict[str, object]:
    context = sheet_context(request, access)
    context["can_change"] = False  # the display shows; the phones change
    tools = context.get("table_tools")
    context["display_facts"] = getattr(tools, "display_facts", [])
    # At the end, the whole screen is the final standings: the moment the table looks.
    state = context["state"]
    context["final"] = build_final_board(state, context["grid"].columns, context["names"])
    context["tools_row"] = read_with_game(access.game)  # read by sheet_game()
    return context


@require_GET
@game_page(games=sheet_game())
def table_display(request: HttpRequest, access: GameAccess) -> HttpResponse:
    return render(request, "games/display.html", _context(request, access))


@require_GET
@game_page(rows=False)
def table_display_live(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """204 while the game's version is the one shown; else the display's parts."""
    if request.GET.get("v") == str(access.game.version):
        return HttpResponse(status=204)
    context = _context(request, reload_access(access, sheet_game()))
    context["oob"] = True
    return render(request, "games/display.html#live", context)


urlpatterns = [
    path("games/<int:pk>/display/", table_display, name="game_display"),
    path("games/<int:pk>/display/live/", table_display_live, name="game_display_live"),
]
