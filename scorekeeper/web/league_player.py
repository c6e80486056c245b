"""A player's page: standings in each league, rating over time, and their games."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from scorekeeper.models import League, PlayerMerge
from scorekeeper.ratings.model import PROVISIONAL_GAMES
from scorekeeper.selectors.games import (
    leagues_visible_to,
    player_visible_to,
)
from scorekeeper.selectors.league_player import (
    RatingSeries,
    page_player,
    player_leagues_visible,
    player_summary,
)
from scorekeeper.selectors.leagues import ruleset_name
from scorekeeper.web.leagues import (
    PLAYER_GAMES_PAGE,
    _htmx_target,
    _int,
    _query,
    _scope,
    _window,
    game_rows,
)

# -- a player -------------------------------------------------------------------------

#: Merges followed from an old player id to the one that holds its games now (a merged
#: player can itself be merged later; a chain longer than this is not followed).
MERGE_HOPS = 8


def _merged_into(player_id: int) -> int | None:
    """The player that ``player_id``'s games now belong to, if it was merged away."""
    found = None
    for _ in range(MERGE_HOPS):
        into = (
            PlayerMerge.objects.filter(from_player_id=player_id)
            .values_list("into_id", flat=True)
            .first()
        )
        if into is None:
            break
        found = player_id = into
    return found


#: The most points the rating line is drawn with. A player with hundreds of games gets a
#: thinned line (see :func:`_thinned`): the plot is ~300 units wide, so more points
#: would not show, only cost time to build and bytes to send.
CHART_POINTS = 160
#: Up to this many games, each one is a dot (won ones gold) with its rating as a tooltip.
CHART_DOTS = 60


def _thinned(values: Sequence[float], limit: int) -> list[int]:
    """Which of ``values`` a line of at most ``limit`` points keeps (indices, in order):
    all of them if they fit; else the first and the last, and in each of
    ``(limit - 2) // 2`` equal runs between them its lowest and its highest value. Every
    peak and trough keeps its height and its place along the line (the best and worst
    ratings always survive); only the wiggles between them narrower than a run go."""
    n = len(values)
    if n <= limit:
        return list(range(n))
    runs = (limit - 2) // 2
    kept = {0, n - 1}
    for run in range(runs):
        first = 1 + (n - 2) * run // runs
        last = 1 + (n - 2) * (run + 1) // runs
        if first < last:
            span = range(first, last)
            kept.add(min(span, key=values.__getitem__))
            kept.add(max(span, key=values.__getitem__))
    return sorted(kept)


def rating_chart(series: RatingSeries | None) -> dict[str, Any] | None:
    """A rating-over-time line drawn on the server (inline SVG: no script, no style
    attribute, so the CSP holds), from the rating before the first game to the rating
    after the last; past :data:`CHART_POINTS` games the line is thinned (its extremes
    and ends kept). ``None`` without points."""
    if series is None or not series.ratings:
        return None
    width, height = 360, 200
    # Room for axis labels of 16 units (14 px or more at phone width).
    left, right, top, bottom = 50, 350, 12, 166
    start = series.start
    values = [start, *series.ratings]
    step = _nice_step((max(values) - min(values)) / 4 or 1)
    low = math.floor(min(values) / step) * step
    high = max(math.ceil(max(values) / step) * step, low + step)
    n = len(values) - 1  # games

    def x(i: float) -> float:
        return left + (right - left) * i / n

    def y(value: float) -> float:
        return bottom - (bottom - top) * (value - low) / (high - low)

    line = " ".join(
        f"{round(x(i), 1)},{round(y(values[i]), 1)}" for i in _thinned(values, CHART_POINTS)
    )
    y_ticks = []
    tick = low
    while tick <= high + 1e-9:
        y_ticks.append((round(y(tick), 1), _fmt(tick)))
        tick += step
    count = min(n + 1, 5)
    x_index = sorted({round(i * n / (count - 1)) for i in range(count)})
    # The games whose rating was still provisional, up to halfway to the next one.
    provisional = series.provisional
    return {
        "width": width,
        "height": height,
        "left": left,
        "right": right,
        "top": top,
        "bottom": bottom,
        "zero": round(y(0), 1) if low <= 0 <= high else None,
        "line": line,
        "dots": [
            {
                "x": round(x(i), 1),
                "y": round(y(rating), 1),
                "won": won,
                "rating": rating,
                "games": i,
            }
            for i, (rating, won) in enumerate(zip(series.ratings, series.won, strict=True), start=1)
        ]
        if n <= CHART_DOTS
        else [],
        "last": {"x": round(x(n), 1), "y": round(y(values[-1]), 1), "rating": values[-1]},
        "y_ticks": y_ticks,
        "x_ticks": [(round(x(i), 1), i) for i in x_index],
        "x_label_y": bottom + 20,
        "provisional_width": round(x(provisional + 0.5) - left, 1) if 0 < provisional < n else None,
        "plot_height": bottom - top,
        "first": start,
        "best": max(series.ratings),
        "games": n,
    }


def _nice_step(raw: float) -> float:
    for step in (0.5, 1, 2, 2.5, 5, 10, 20, 25, 50, 100):
        if raw <= step:
            return float(step)
    return float(100 * math.ceil(raw / 100))


def _fmt(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.1f}"


@login_required
@require_GET
@vary_on_headers("HX-Request", "HX-Target")
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    user = request.user
    # The viewer's leagues are read once, for the checks and the summary alike.
    visible: list[League] | None = None
    if user.is_authenticated and not user.is_superuser:
        visible = player_leagues_visible(user, player_id)
        player = page_player(user, player_id, [lg.pk for lg in visible])
    else:
        player = player_visible_to(user, player_id)
    if player is None:
        merged_into = _merged_into(player_id)
        if merged_into is not None and player_visible_to(user, merged_into) is not None:
            # An old link (a bookmark, a shared page) to a player merged into another.
            query = request.GET.urlencode()
            return redirect(
                reverse("player_detail", args=[merged_into]) + (f"?{query}" if query else "")
            )
        raise Http404("There is no such player, or not one you can see.")
    league_id = _int(request.GET.get("league"))
    league: League | None = None
    if league_id is not None:
        if visible is not None:
            league = next((lg for lg in visible if lg.pk == league_id), None)
        else:
            league = leagues_visible_to(user).filter(pk=league_id).first()
    summary = player_summary(
        player,
        league,
        viewer=user,
        ruleset=_scope(request.GET.get("scope")),
        visible_leagues=visible,
    )
    shown = summary.league
    lines = [r for r in summary.standings if shown is not None and r["league"] == shown.pk]
    for line in lines:
        line["query"] = _query(
            request.GET, league=shown.pk if shown else None, scope=line["ruleset"], page=None
        )
    league_tabs = [
        {
            "league": lg,
            "query": _query(request.GET, league=lg.pk, scope=None, page=None),
            "current": shown is not None and lg.pk == shown.pk,
        }
        for lg in summary.leagues
    ]
    recent = [
        {**point, "name": ruleset_name(point["game_ruleset"])}
        for point in (summary.rating.recent if summary.rating else [])
    ]
    chart_context = {
        "player": player,
        "shown_league": shown,
        "scope": summary.ruleset,
        "scope_name": ruleset_name(summary.ruleset),
        "provisional_games": PROVISIONAL_GAMES,
        "league_tabs": league_tabs,
        "chart": rating_chart(summary.rating),
        "recent": recent,
        "lines": lines,
    }
    if _htmx_target(request) == "rating":
        return render(request, "leagues/player.html#rating", chart_context)
    page = _window(
        lambda start, stop: list(summary.games[start:stop]),
        request.GET.get("page"),
        PLAYER_GAMES_PAGE,
    )
    games_context = {
        "player": player,
        "games": game_rows(page.rows, highlight=player.pk, show_league=True),
        "games_page": page,
        "games_prev": _query(request.GET, page=page.number - 1 if page.number > 2 else None)
        if page.has_previous
        else None,
        "games_next": _query(request.GET, page=page.number + 1) if page.has_next else None,
        "games_first": _query(request.GET, page=None),
    }
    if _htmx_target(request) == "games":
        return render(request, "leagues/player.html#games", games_context)
    return render(
        request,
        "leagues/player.html",
        {**chart_context, **games_context, "standings": summary.standings},
    )


urlpatterns = [
    path("players/<int:player_id>/", player_detail, name="player_detail"),
]
