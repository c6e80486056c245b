"""A league's seasons on its page: which season the standings show (a switcher of plain
links), the past seasons with their champions, and the "Start a new season" form (for
the league's owner and admins).

``?season=ID`` shows one season (a closed one from its kept final table), ``?season=all``
every game; left out, the current season (every game while the league has none).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import RuleError
from scorekeeper.models import League, Season
from scorekeeper.selectors.access import LeagueAccess
from scorekeeper.selectors.games import leagues_visible_to
from scorekeeper.selectors.league_seasons import (
    ALL_TIME,
    champion,
    current_season,
    league_seasons,
    season_param,
    season_span,
    today,
)
from scorekeeper.services.seasons import SEASON_REFUSED, season_start


def with_has_seasons(leagues: QuerySet[League]) -> QuerySet[League]:
    """The leagues, each knowing (``has_seasons``) whether it has a season, in the same
    query: a league without any reads none."""
    return leagues.annotate(has_seasons=Exists(Season.objects.filter(league_id=OuterRef("pk"))))


def seasons_of(league: League) -> list[Season]:
    """The league's seasons, the latest first (no query when it is known to have none)."""
    if getattr(league, "has_seasons", True) is False:
        return []
    return league_seasons(league)


def _link(params: QueryDict, value: str | None) -> str:
    query = params.copy()
    for key in ("season", "standings", "everyone", "page"):
        query.pop(key, None)
    if value:
        query["season"] = value
    encoded = query.urlencode()
    return f"?{encoded}" if encoded else "?"


def season_choice(request: HttpRequest, seasons: list[Season]) -> Season | None:
    """The season the standings show (None: every game). An unknown ``?season=`` shows
    the default rather than an error page."""
    try:
        return season_param(seasons, request.GET.get("season"), default_current=True)
    except RuleError:
        return current_season(seasons)


def switcher(
    request: HttpRequest, seasons: list[Season], chosen: Season | None
) -> list[dict[str, Any]]:
    """The links of the season switcher: each season, the latest first, then all time."""
    if not seasons:
        return []
    now = current_season(seasons)
    links = [
        {
            "name": s.name,
            "query": _link(request.GET, None if s is now else str(s.pk)),
            "current": chosen is not None and s.pk == chosen.pk,
            "open": s.end is None,
        }
        for s in seasons
    ]
    links.append(
        {
            "name": _("All time"),
            "query": _link(request.GET, ALL_TIME),
            "current": chosen is None,
            "open": False,
        }
    )
    return links


def seasons_context(
    request: HttpRequest, league: League, seasons: list[Season], access: LeagueAccess
) -> dict[str, Any]:
    """The league page's seasons section: the current season, the closed ones with their
    champions (the latest first), and whether the viewer may start a new season (their
    ``access`` to the league says)."""
    past = [
        {
            "name": s.name,
            "start": s.start,
            "end": s.end,
            "champion": champion(s),
            "query": _link(request.GET, str(s.pk)),
        }
        for s in seasons
        if s.end is not None
    ]
    return {
        "season_now": current_season(seasons),
        "seasons_past": past,
        "can_start_season": access.may_start_season,
        "season_today": today(),
    }


def season_head_to_head_span(request: HttpRequest, league: League) -> tuple[Any, Any, Any]:
    """The season a head-to-head page asks for (``?season=``; left out: all time) as
    ``(season, since, until)``; unknown: all time."""
    seasons = seasons_of(league)
    try:
        season = season_param(seasons, request.GET.get("season"), default_current=False)
    except RuleError:
        season = None
    if season is None:
        return None, None, None
    span = season_span(season)
    return season, span.since, span.until


@login_required
@require_POST
def league_season_start(request: HttpRequest, league_id: int) -> HttpResponse:
    """The owner or an admin starts a new season (``name``, ``start``); a problem (or
    anyone else's try) comes back as a message by the form."""
    league = leagues_visible_to(request.user).filter(pk=league_id).first()
    if league is None:
        raise Http404("There is no such league, or it is not one of yours.")
    try:
        season = season_start(
            league=league,
            user=request.user,
            name=request.POST.get("name", ""),
            start=request.POST.get("start", ""),
        )
    except RuleError as exc:
        label = {"name": _("Name"), "start": _("First day")}.get(exc.field or "", "")
        text = exc.message[:1].upper() + exc.message[1:]
        messages.error(request, f"{label}: {exc.message}" if label else text)
    except PermissionDenied:
        messages.error(request, _(SEASON_REFUSED))
    else:
        messages.success(
            request, _("“%(season)s” has started. Everyone starts level.") % {"season": season.name}
        )
        return redirect(reverse("league_detail", args=[league.pk]) + "#standings")
    return redirect(reverse("league_detail", args=[league.pk]) + "#seasons")


urlpatterns = [
    path("leagues/<int:league_id>/seasons/", league_season_start, name="league_season_start"),
]
