"""League pages: my leagues, a league (standings, game history, members) and head to
head (a player's page, with their games and rating over time, is ``web.league_player``).

Plain function views with links and forms that work without JavaScript; htmx swaps just
the standings, the history or the chart in place (``hx-target`` names the partial), each
control keeping a real ``href``. All reads come from ``selectors.leagues`` in a fixed
number of queries; writes go through ``services.players``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from games import RULESETS, RuleError
from scorekeeper import engine_text
from scorekeeper.models import ALL_GAMES, Game, GameStatus, League, Player, Season
from scorekeeper.ratings.model import PROVISIONAL_GAMES
from scorekeeper.selectors.access import league_access
from scorekeeper.selectors.games import leagues_visible_to, players_usable_by
from scorekeeper.selectors.league_counts import league_game_count
from scorekeeper.selectors.league_seasons import season_view
from scorekeeper.selectors.leagues import (
    Member,
    game_ranking,
    head_to_head,
    league_games,
    league_members,
    league_scopes,
    page_of_games,
    players_addable,
    ratings_updating,
    ruleset_name,
    ruleset_scope,
    seats_of,
    standings_for_league,
    with_ratings_updating,
)
from scorekeeper.services.players import league_add_member, league_create, player_create
from scorekeeper.validation import optional_id, page_number
from scorekeeper.web import league_seasons
from scorekeeper.web.league_charts import meetings_chart, rating_race_chart
from scorekeeper.web.league_members import member_roles_context
from scorekeeper.web.league_seasons import (
    season_choice,
    season_head_to_head_span,
    seasons_context,
    seasons_of,
    switcher,
    with_has_seasons,
)

HISTORY_PAGE = 15
#: From this many games back, the history reads the league's game count to page from the
#: nearer end (one query more; skipping fewer games costs less than that query).
DEEP_HISTORY = 20 * HISTORY_PAGE
PLAYER_GAMES_PAGE = 15
#: Rows of the standings shown before "Show everyone" (a league can have 1,000 players).
STANDINGS_SHOWN = 25
#: Member names shown before "Show all members".
MEMBERS_SHOWN = 48
#: A select of members is cached in runs of this many (``leagues/_member_options.html``).
OPTION_RUN = 50


def _user(request: HttpRequest) -> User:
    """The signed-in account (the views are ``login_required``)."""
    assert isinstance(request.user, User)
    return request.user


def _htmx_target(request: HttpRequest) -> str | None:
    htmx = getattr(request, "htmx", None)
    return htmx.target if htmx else None


def _int(value: str | None) -> int | None:
    """An id from the query string or a form; None when missing or not an id."""
    return optional_id(value)


def _scope(value: str | None) -> str:
    """A ``?…=slug`` filter; an unknown slug is ignored rather than an error page."""
    try:
        return ruleset_scope(value)
    except RuleError:
        return ALL_GAMES


def _league(request: HttpRequest, league_id: int) -> League:
    league = (
        with_has_seasons(with_ratings_updating(leagues_visible_to(request.user)))
        .filter(pk=league_id)
        .first()
    )
    if league is None:
        raise Http404("There is no such league, or it is not one of yours.")
    return league


def _query(params: QueryDict, **changes: object) -> str:
    """The current query string with some parameters changed (None or "" drops one)."""
    query = params.copy()
    for key, value in changes.items():
        if value in (None, ""):
            query.pop(key, None)
        else:
            query[key] = str(value)
    encoded = query.urlencode()
    return f"?{encoded}" if encoded else "?"


@dataclass(frozen=True)
class _Window:
    """One page of a newest-first list, found without counting the whole list (a count
    of a 100,000-game league costs more than the page itself)."""

    rows: list[Game]
    number: int
    has_previous: bool
    has_next: bool


def _window(read: Callable[[int, int], list[Game]], page: str | None, size: int) -> _Window:
    """Page ``page`` (from 1) of ``size`` rows; ``read(start, stop)`` reads rows
    ``start`` to ``stop`` (one more than shown, to know whether there is a next page)."""
    number = page_number(page)
    start = (number - 1) * size
    rows = read(start, start + size + 1)
    return _Window(rows[:size], number, number > 1, len(rows) > size)


def option_runs(
    choices: Sequence[tuple[int, str]], chosen: int | None = None
) -> list[tuple[Sequence[tuple[int, str]], int | None]]:
    """The ``(id, name)`` choices of a select in runs of :data:`OPTION_RUN`, each with
    ``chosen`` if it is among them (else None): ``leagues/_member_options.html`` caches
    each run's options by what they show, so a thousand members are rendered once, and
    choosing one renders only its run again."""
    runs = [choices[i : i + OPTION_RUN] for i in range(0, len(choices), OPTION_RUN)]
    return [(run, chosen if any(pk == chosen for pk, _ in run) else None) for run in runs]


def game_rows(
    games: Sequence[Game], *, highlight: int | None = None, show_league: bool = False
) -> list[dict[str, Any]]:
    """What ``leagues/_games.html`` shows of each game of a history list, and nothing
    else (the template caches each game by its row): its name, sheet, start, state, its
    ranking with each name's page (``href``) and whether it is ``highlight``'s (``me``),
    and with ``show_league`` its league's name (``select_related``). One query, for
    the games' seats. The links are made here: a page has ~90 names, and ``{% url %}``
    costs twice what ``reverse()`` does."""
    seats = seats_of(games)
    hrefs: dict[int, str] = {}  # a player's name is often on several of the games
    rows = []
    for g in games:
        ranking = game_ranking(g, seats[g.pk])
        for line in ranking:
            for p in line["players"]:
                if p["id"] not in hrefs:
                    hrefs[p["id"]] = reverse("player_detail", args=[p["id"]])
                p["href"] = hrefs[p["id"]]
                p["me"] = p["id"] == highlight
        rules = RULESETS[g.ruleset]
        rows.append(
            {
                "name": engine_text.game_title(g.ruleset, g.options),
                "score_label": _(rules.score_label),
                "sheet": reverse("game_sheet", args=[g.pk]),
                "created_at": g.created_at,
                "finished": g.status == GameStatus.FINISHED,
                "hand_count": g.hand_count,
                "league": g.league.name if show_league and g.league else None,
                "ranking": ranking,
            }
        )
    return rows


# -- my leagues -----------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def league_list(request: HttpRequest) -> HttpResponse:
    error = ""
    name = ""
    if request.method == "POST":
        name = request.POST.get("name", "")
        try:
            league = league_create(name=name, owner=_user(request))
        except RuleError as exc:
            error = exc.message
        else:
            messages.success(
                request,
                _("League “%(league)s” started. Add its players.") % {"league": league.name},
            )
            return redirect("league_detail", league_id=league.pk)
    leagues = list(leagues_visible_to(request.user).prefetch_related("members").order_by("name"))
    return render(
        request,
        "leagues/list.html",
        {
            "leagues": leagues,
            "error": error,
            "name": name,
        },
        status=400 if error else 200,
    )


# -- a league -------------------------------------------------------------------------


def _standings_context(
    request: HttpRequest, league: League, seasons: list[Season]
) -> dict[str, Any]:
    """The standings section: of the season asked for (``?season=``; the current one by
    default), or of every game; in one game (``?standings=``) or all."""
    scope = _scope(request.GET.get("standings"))
    everyone = request.GET.get("everyone") == "1"
    limit = None if everyone else STANDINGS_SHOWN
    season = season_choice(request, seasons)
    if season is None:
        tabs = league_scopes(league)
        standings = standings_for_league(league, scope, limit=limit)
    else:
        tabs, standings = season_view(season, scope, limit=limit)
    for tab in tabs:
        tab["query"] = _query(request.GET, standings=tab["slug"])
        tab["current"] = tab["slug"] == scope
    total = next((t["players"] for t in tabs if t["current"]), 0)
    return {
        "standings": standings,
        # The race runs over every game (each season's ratings start level).
        "race": rating_race_chart(league, scope, standings, ruleset_name(scope))
        if season is None
        else None,
        "season": season,
        "season_closed": season is not None and season.end is not None,
        "season_links": switcher(request, seasons, season),
        "standings_scope": scope,
        "standings_name": ruleset_name(scope),
        "standings_tabs": tabs,
        "standings_total": total,
        "standings_more": _query(request.GET, everyone=1)
        if not everyone and total > STANDINGS_SHOWN
        else None,
        "standings_fewer": _query(request.GET, everyone=None) if everyone else None,
        "standings_shown": STANDINGS_SHOWN,
        "provisional_games": PROVISIONAL_GAMES,
        "ratings_updating": ratings_updating(league),
    }


def _history_context(
    request: HttpRequest, league: League, members: Sequence[Member]
) -> dict[str, Any]:
    scope = _scope(request.GET.get("game"))
    player_id = _int(request.GET.get("player"))
    if player_id not in {p.pk for p in members}:
        player_id = None
    games = league_games(league, scope, player_id)

    def read(start: int, stop: int) -> list[Game]:
        # Far from the newest games, the league's game count (kept by the database)
        # lets a page near the oldest end be read from that end. A player's games are
        # few, and the first pages are cheap from the newest end.
        deep = start >= DEEP_HISTORY and player_id is None
        total = league_game_count(league, scope) if deep else None
        return page_of_games(games, start, stop, total=total)

    page = _window(read, request.GET.get("page"), HISTORY_PAGE)
    return {
        "history": game_rows(page.rows, highlight=player_id),
        "history_page": page,
        "history_game": scope,
        "history_filtered": bool(scope or player_id),
        "history_prev": _query(request.GET, page=page.number - 1 if page.number > 2 else None)
        if page.has_previous
        else None,
        "history_next": _query(request.GET, page=page.number + 1) if page.has_next else None,
        "history_first": _query(request.GET, page=None),
        "game_choices": [(slug, _(r.name)) for slug, r in RULESETS.items()],
        "player_options": option_runs(members, player_id),
    }


@login_required
@require_GET
@vary_on_headers("HX-Request", "HX-Target")
def league_detail(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(request, league_id)
    target = _htmx_target(request)
    if target == "standings":
        return render(
            request,
            "leagues/detail.html#standings",
            {"league": league, **_standings_context(request, league, seasons_of(league))},
        )
    members = league_members(league)
    access = league_access(request.user, league)
    can_change = access.may_record
    if target == "history":
        return render(
            request,
            "leagues/detail.html#history",
            {
                "league": league,
                "members": members,
                "can_change": can_change,
                **_history_context(request, league, members),
            },
        )
    all_members = request.GET.get("members") == "all"
    seasons = seasons_of(league)
    context: dict[str, Any] = {
        "league": league,
        "members": members,
        "members_shown": members if all_members else members[:MEMBERS_SHOWN],
        "members_more": _query(request.GET, members="all") + "#members"
        if not all_members and len(members) > MEMBERS_SHOWN
        else None,
        "can_change": can_change,
        **member_roles_context(access),
        "addable_options": option_runs(
            list(players_addable(request.user, league).values_list("id", "name"))
        )
        if access.may_manage
        else [],
        **_standings_context(request, league, seasons),
        **seasons_context(request, league, seasons, access),
        **_history_context(request, league, members),
    }
    return render(request, "leagues/detail.html", context)


@login_required
@require_POST
def league_member_add(request: HttpRequest, league_id: int) -> HttpResponse:
    """Add an existing player (``player``) or a new one by name (``name``)."""
    league = _league(request, league_id)
    player_id = _int(request.POST.get("player"))
    name = request.POST.get("name", "").strip()
    try:
        if not league_access(request.user, league).may_manage:
            raise PermissionDenied
        with transaction.atomic():
            player: Player | None
            if name:
                player = player_create(name=name, created_by=_user(request))
            elif player_id is not None:
                player = players_usable_by(request.user).filter(pk=player_id).first()
                if player is None:
                    raise RuleError(_("Choose a player from the list."), "player")
            else:
                raise RuleError(_("Choose a player, or type the name of a new one."), "player")
            league_add_member(league=league, player=player, user=_user(request))
    except RuleError as exc:
        messages.error(request, exc.message[:1].upper() + exc.message[1:])
    except PermissionDenied:
        messages.error(request, _("Only the league's owner and admins may add members."))
    else:
        messages.success(
            request,
            _("%(player)s is in %(league)s.") % {"player": player.name, "league": league.name},
        )
    return redirect(reverse("league_detail", args=[league.pk]) + "#members")


@login_required
@require_GET
def league_head_to_head(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(request, league_id)
    members = league_members(league)
    by_id = {p.pk: p for p in members}
    a = by_id.get(_int(request.GET.get("a")) or 0)
    b = by_id.get(_int(request.GET.get("b")) or 0)
    error = ""
    record = None
    timeline = None
    together: list[dict[str, Any]] = []
    if "a" in request.GET or "b" in request.GET:
        if a is None or b is None:
            error = _("Pick two members of the league.")
        elif a.pk == b.pk:
            error = _("Pick two different players.")
    season, since, until = season_head_to_head_span(request, league)
    if a is not None and b is not None and not error:
        record = head_to_head(league, a.pk, b.pk, since=since, until=until)
        timeline = meetings_chart(league, a, b, record)
        together = game_rows(
            list(league_games(league, players=[a.pk, b.pk], status="finished")[:10]),
            highlight=a.pk,
        )
    context = {
        "league": league,
        "members": members,
        "a_options": option_runs(members, a.pk if a else None),
        "b_options": option_runs(members, b.pk if b else None),
        "a": a,
        "b": b,
        "record": record,
        "timeline": timeline,
        "together": together,
        "error": error,
        "season": season,
        "seasons": seasons_of(league),
    }
    return render(request, "leagues/head_to_head.html", context, status=400 if error else 200)


urlpatterns = [
    path("leagues/", league_list, name="league_list"),
    path("leagues/<int:league_id>/", league_detail, name="league_detail"),
    path("leagues/<int:league_id>/members/", league_member_add, name="league_member_add"),
    path("leagues/<int:league_id>/head-to-head/", league_head_to_head, name="league_head_to_head"),
    *league_seasons.urlpatterns,
]
