"""Reads about a league's seasons: which there are, which games fall in one, and a
season's standings and champion.

A game belongs to the season its start (``created_at``, in the site's time zone) falls
in, from the season's first day to its last (the current season runs on). Each season's
ratings start level: its standings are the league's rating replay
(:mod:`scorekeeper.ratings.model`) over that season's finished games alone, computed
when asked for the current season (two queries), read from the stored final table for a
closed one (none).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from games import RuleError
from scorekeeper.models import ALL_GAMES, League, Player, Season
from scorekeeper.ratings.model import GameRow, Line, conservative_rating, rate
from scorekeeper.ratings.replay import finished_games
from scorekeeper.selectors.leagues import _standing_row, ruleset_scope, scope_order, scope_tabs

#: ``?season=`` for the standings over every game the league has played.
ALL_TIME = "all"


def day_start(day: date) -> datetime:
    """The first instant of ``day`` in the site's time zone."""
    return timezone.make_aware(datetime.combine(day, time.min))


def today() -> date:
    return timezone.localdate()


@dataclass(frozen=True)
class Span:
    """The instants a season's games start in: from ``since`` (included) to ``until``
    (excluded; None: no end)."""

    since: datetime
    until: datetime | None


def season_span(season: Season) -> Span:
    end = day_start(season.end + timedelta(days=1)) if season.end is not None else None
    return Span(day_start(season.start), end)


def league_seasons(league: League | int) -> list[Season]:
    """The league's seasons, the latest first. One query."""
    league_id = league if isinstance(league, int) else league.pk
    return list(Season.objects.filter(league_id=league_id).order_by("-start", "-id"))


def current_season(seasons: list[Season]) -> Season | None:
    """The open season among :func:`league_seasons` (None: the league has none)."""
    return next((s for s in seasons if s.end is None), None)


def season_param(
    seasons: list[Season], value: str | None, *, default_current: bool
) -> Season | None:
    """The season a ``?season=`` value names among ``seasons``: an id, or ``all`` (None:
    all time). Left out: the current season with ``default_current``, else all time. An
    unknown value is a :class:`RuleError` on ``season``."""
    raw = (value or "").strip()
    if raw == "":
        return current_season(seasons) if default_current else None
    if raw == ALL_TIME:
        return None
    found = next((s for s in seasons if str(s.pk) == raw), None)
    if found is None:
        raise RuleError(
            gettext(
                "'%(season)s' is not a season of this league (give a season's id, or '%(all)s')"
            )
            % {"season": raw[:20], "all": ALL_TIME},
            "season",
        )
    return found


def _games(league_id: int, scope: str, span: Span) -> list[GameRow]:
    """The finished games of the scope started in ``span``, in rating order, that can
    be ranked (the stored replay skips the others too). One query."""
    games = finished_games(
        league_id, scope, (span.since, 0), until=(span.until, 0) if span.until else None
    )
    return [g for g in games if len(g.entries) >= 2 and all(e.place is not None for e in g.entries)]


def _rows(games: list[GameRow], scope: str, names: dict[int, str]) -> list[dict[str, Any]]:
    """The standings of one scope over ``games``, everyone starting level: rows as
    :func:`scorekeeper.selectors.leagues.standings_for_league` gives them, in its
    order."""
    lines: dict[int, Line] = {}
    for game in games:
        if scope != ALL_GAMES and (game.scope or game.ruleset) != scope:
            continue
        for entry in game.entries:
            lines.setdefault(entry.player, Line())
        after = rate(game, lines)
        for entry in game.entries:
            line = lines[entry.player]
            line.mu, line.sigma = after[entry.player]
            line.games += 1
            line.wins += int(entry.won)
            line.place_sum += int(entry.place or 0)
    ordered = sorted(
        lines.items(),
        key=lambda kv: (
            -conservative_rating(kv[1].mu, kv[1].sigma),
            -kv[1].games,
            names.get(kv[0], ""),
            kv[0],
        ),
    )
    return [
        _standing_row(
            rank, pid, names.get(pid, ""), line.games, line.wins, line.place_sum,
            line.mu, line.sigma, conservative_rating(line.mu, line.sigma),
        )
        for rank, (pid, line) in enumerate(ordered, start=1)
    ]  # fmt: skip


def _names(games: list[GameRow]) -> dict[int, str]:
    """The names of the players of ``games``. One query (none without games)."""
    ids = {e.player for g in games for e in g.entries}
    if not ids:
        return {}
    return dict(Player.objects.filter(pk__in=ids).values_list("id", "name"))


def span_standings(
    league: League | int, span: Span, ruleset: str | None = None
) -> list[dict[str, Any]]:
    """The standings over the games started in ``span``, for one game (``ruleset``) or
    all, everyone starting level. Two queries."""
    league_id = league if isinstance(league, int) else league.pk
    scope = ruleset_scope(ruleset)
    games = _games(league_id, scope, span)
    return _rows(games, scope, _names(games))


def final_table(league: League | int, span: Span) -> dict[str, list[dict[str, Any]]]:
    """Every scope's standings over ``span``, as a closing season keeps them: ``{"":
    all games, slug: that game}``, only scopes with a finished game. Two queries."""
    league_id = league if isinstance(league, int) else league.pk
    games = _games(league_id, ALL_GAMES, span)
    names = _names(games)
    table = {ALL_GAMES: _rows(games, ALL_GAMES, names)}
    for scope in sorted({g.scope or g.ruleset for g in games}, key=scope_order):
        table[scope] = _rows(games, scope, names)
    return table


def season_standings(
    season: Season, ruleset: str | None = None, *, limit: int | None = None
) -> list[dict[str, Any]]:
    """A season's standings in one scope: the kept final table of a closed season, the
    games so far of the current one. An unknown ``ruleset`` is a :class:`RuleError`."""
    scope = ruleset_scope(ruleset)
    if season.final_table is not None:
        rows = list(season.final_table.get(scope, []))
    else:
        rows = span_standings(season.league_id, season_span(season), scope)
    return rows[:limit] if limit is not None else rows


def season_view(
    season: Season, ruleset: str | None = None, *, limit: int | None = None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """What the league page shows of a season: the tabs of its standings (as
    :func:`scorekeeper.selectors.leagues.league_scopes` gives a league's: all games, then
    each game with a standing in the season, with its number of players) and the rows of
    one scope (``limit``: the first ones). A closed season's from its kept table (no
    query), the current one's from its games (two queries)."""
    scope = ruleset_scope(ruleset)
    if season.final_table is not None:
        counts = {key: len(rows) for key, rows in season.final_table.items()}
        rows = list(season.final_table.get(scope, []))
    else:
        games = _games(season.league_id, ALL_GAMES, season_span(season))
        rows = _rows(games, scope, _names(games))
        players: dict[str, set[int]] = {}
        for game in games:
            for key in (ALL_GAMES, game.scope or game.ruleset):
                players.setdefault(key, set()).update(e.player for e in game.entries)
        counts = {key: len(ids) for key, ids in players.items()}
    return scope_tabs(counts), rows[:limit] if limit is not None else rows


def champion(season: Season) -> dict[str, Any] | None:
    """The first row of a closed season's final table over all games (None: open, or no
    finished game)."""
    if season.final_table is None:
        return None
    rows = season.final_table.get(ALL_GAMES) or []
    return rows[0] if rows else None


__all__ = [
    "ALL_TIME",
    "Span",
    "champion",
    "current_season",
    "day_start",
    "final_table",
    "league_seasons",
    "season_param",
    "season_span",
    "season_standings",
    "season_view",
    "span_standings",
    "today",
]
