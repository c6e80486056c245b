"""The list of a user's games, newest first, and the rows it shares with the home page."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from games import RULESETS
from scorekeeper import engine_text
from scorekeeper.models import Game, GameStatus
from scorekeeper.selectors.games import (
    games_visible_to,
)

# -- lists --------------------------------------------------------------------------------


def _ago(moment: datetime) -> str:
    """How long ago, in its largest unit and the page's language ("3 hours ago", "vor 3
    Stunden", "hace 3 horas"): each language says "ago" with its own grammar. (Not
    ``timesince`` + "ago": German needs the dative, "vor 3 Tagen"; and Django 5.2's own
    German ``naturaltime`` catalog says "vor 3 Tage".)"""
    seconds = (timezone.now() - moment).total_seconds()
    if seconds < 60:
        return _("just now")
    minutes, hours, days = int(seconds // 60), int(seconds // 3600), int(seconds // 86400)
    if hours < 1:
        return ngettext("%(n)s minute ago", "%(n)s minutes ago", minutes) % {"n": minutes}
    if days < 1:
        return ngettext("%(n)s hour ago", "%(n)s hours ago", hours) % {"n": hours}
    if days < 14:
        return ngettext("%(n)s day ago", "%(n)s days ago", days) % {"n": days}
    if days < 60:
        weeks = days // 7
        return ngettext("%(n)s week ago", "%(n)s weeks ago", weeks) % {"n": weeks}
    if days < 365:
        months = days // 30
        return ngettext("%(n)s month ago", "%(n)s months ago", months) % {"n": months}
    years = days // 365
    return ngettext("%(n)s year ago", "%(n)s years ago", years) % {"n": years}


def game_summaries(games: QuerySet[Game]) -> list[dict[str, Any]]:
    """Rows for a list of games: the game, who sits at it, and who won."""
    rows = []
    for game in games.select_related("league").prefetch_related("seats__player"):
        seats = sorted(game.seats.all(), key=lambda s: s.position)
        rules = RULESETS[game.ruleset]
        variant = rules.variant(game.variant or None) if rules.variants else None
        rows.append(
            {
                "game": game,
                "name": engine_text.game_title(game.ruleset, game.options),
                "variant": _(variant.name) if variant else "",
                "hands_total": variant.hands if variant else None,
                "players": ", ".join(s.player.name for s in seats),
                "winners": ", ".join(s.player.name for s in seats if s.won),
                "when": _ago(game.finished_at or game.updated_at),
            }
        )
    return rows


@login_required
@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    status = request.GET.get("status", "")
    games = games_visible_to(request.user).order_by("-updated_at", "-id")
    if status in (GameStatus.IN_PROGRESS, GameStatus.FINISHED):
        games = games.filter(status=status)
    page = Paginator(games, 25).get_page(request.GET.get("page"))
    ids = [g.pk for g in page.object_list]
    rows = game_summaries(Game.objects.filter(pk__in=ids).order_by("-updated_at", "-id"))
    return render(
        request,
        "games/list.html",
        {
            "rows": rows,
            "page": page,
            "status": status,
        },
    )


urlpatterns = [
    path("games/", game_list, name="game_list"),
]
