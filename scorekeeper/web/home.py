"""The start page: (signed in) my games in progress, recent finished ones and "New game";
for everyone, the five games with their scoring tables."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_GET

from games import RULESETS
from scorekeeper.models import GameStatus
from scorekeeper.presenters import presenter_for
from scorekeeper.selectors.games import games_visible_to
from scorekeeper.web.game_list import game_summaries

IN_PROGRESS_SHOWN = 10
FINISHED_SHOWN = 5


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    rulesets = [
        {
            "meta": r.metadata(),
            "card_points": r.card_points(),
            "goal": presenter_for(r.slug).game_goal(r),
        }
        for r in RULESETS.values()
    ]
    context: dict[str, object] = {"rulesets": rulesets}
    if request.user.is_authenticated:
        visible = games_visible_to(request.user)
        context["in_progress"] = game_summaries(
            visible.filter(status=GameStatus.IN_PROGRESS).order_by("-updated_at", "-id")[
                :IN_PROGRESS_SHOWN
            ]
        )
        context["finished"] = game_summaries(
            visible.filter(status=GameStatus.FINISHED).order_by("-finished_at", "-id")[
                :FINISHED_SHOWN
            ]
        )
    return render(request, "home.html", context)


urlpatterns = [path("", home, name="home")]
