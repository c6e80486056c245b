"""The start page: (signed in) my games in progress, recent finished ones and "New game";
for everyone, the five games with their scoring tables."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_GET

from games import RULESETS, Ruleset
from scorekeeper.models import GameStatus
from scorekeeper.selectors.games import games_visible_to
from scorekeeper.web.game_list import game_summaries

IN_PROGRESS_SHOWN = 10
FINISHED_SHOWN = 5


def game_goal(rules: Ruleset) -> str:
    """How a game ends and who wins, with its default options and what the options
    change, in a few words (the home page's game cards)."""
    if rules.slug == "dirt":
        hands = sorted({v.hands for v in rules.variants if v.hands})
        default = rules.variant(None)
        length = f"{default.hands} hands" if default and default.hands else "the variant's hands"
        span = f" ({hands[0]}–{hands[-1]} by variant)" if len(hands) > 1 else ""
        return f"lowest total after {length}{span} wins"
    if rules.slug == "screw-your-neighbour":
        target = next((o.default for o in rules.options if o.name == "target_wins"), 3)
        return f"first to {target} hand wins (or the target you set, or none)"
    if rules.slug == "damn-you":
        return "one deal by each player; most chips wins"
    if rules.slug == "dirty-uno":
        return "first past 500 wins (penalty scoring: lowest score wins)"
    if rules.slug == "dirty-deals":
        return "rubbers to 9 points; first to win two rubbers takes the match"
    return ""


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    rulesets = [
        {"meta": r.metadata(), "card_points": r.card_points(), "goal": game_goal(r)}
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
