"""A game's rules page when the table wrote its own (``Ruleset.table_rules``): the
table's notes, rendered safely (``games.rules.render_table_markdown``), above the
game's own rules text; as a page and as the sheet's overlay fragment. Whoever may see
the game may read them."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from games import RULESETS, rules
from scorekeeper import engine_text
from scorekeeper.models import Game
from scorekeeper.selectors.access import GameAccess
from scorekeeper.web.access import game_page


def table_rules_context(game: Game) -> dict[str, Any]:
    ruleset = RULESETS[game.ruleset]
    notes = ruleset.table_rules(game.options)
    return {
        "game": engine_text.rules_for(game.ruleset),
        "sheet": game,
        "title": ruleset.game_title(game.options),
        "notes_html": mark_safe(rules.render_table_markdown(notes)) if notes else "",
        "meta": ruleset.metadata(),
    }


@require_GET
@game_page(rows=False)
def game_rules(request: HttpRequest, access: GameAccess) -> HttpResponse:
    return render(request, "rules/table.html", table_rules_context(access.game))


@require_GET
@game_page(rows=False)
def game_rules_panel(request: HttpRequest, access: GameAccess) -> HttpResponse:
    response = render(
        request, "rules/_table_panel.html", {**table_rules_context(access.game), "prefix": "rp-"}
    )
    patch_cache_control(response, no_cache=True)
    return response


urlpatterns = [
    path("games/<int:pk>/rules/", game_rules, name="game_rules"),
    path("games/<int:pk>/rules/panel/", game_rules_panel, name="game_rules_panel"),
]
