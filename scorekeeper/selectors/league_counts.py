"""Counts of a league's games that the database keeps (:class:`LeagueGameCount`, by
triggers on the game table), read instead of counting 100,000 rows."""

from __future__ import annotations

from django.db.models import Sum
from django.db.models.functions import Coalesce

from scorekeeper.models import ALL_GAMES, League, LeagueGameCount
from scorekeeper.selectors.leagues import league_games, ruleset_scope


def league_game_count(league: League | int, ruleset: str | None = None) -> int:
    """How many games the league has (of one game, ``ruleset``), in progress or
    finished: what ``league_games(league, ruleset).count()`` gives, read from the counts
    the database keeps (:class:`LeagueGameCount`) instead of counting. One query."""
    scope = ruleset_scope(ruleset)
    if "/" in scope:
        # A game the table named: counted among its ruleset's, so counted here.
        league_id = league.pk if isinstance(league, League) else league
        return league_games(League(pk=league_id), scope).count()
    counts = LeagueGameCount.objects.filter(
        league_id=league.pk if isinstance(league, League) else league
    )
    if scope != ALL_GAMES:
        counts = counts.filter(ruleset=scope)
    return int(counts.aggregate(n=Coalesce(Sum("games"), 0))["n"])
