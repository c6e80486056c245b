"""The player page's reads, in plain SQL where the ORM cost more than the database.

At the bench size (a player with ~500 games in a league of 1,000 players) the page's
queries take a few milliseconds in PostgreSQL, but building and compiling them with the
ORM (nested subqueries, annotations) took about as long again in Python. These return
exactly what the ORM versions in :mod:`scorekeeper.selectors.leagues` returned
(tests/scorekeeper/test_player_page_reads.py compares them); the SQL is plain enough for
SQLite and PostgreSQL alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import connection

from scorekeeper.models import League, Membership, Player, PlayerStanding, RatingPoint

Viewer = User | AnonymousUser

_STANDING = PlayerStanding._meta.db_table
_LEAGUE = League._meta.db_table
_POINT = RatingPoint._meta.db_table


def standing_rows(
    player_id: int, league_ids: Sequence[int] | None
) -> list[tuple[int, str, str, int, int, int, float, float, float, int, int]]:
    """A player's standings lines (in the given leagues, or all): ``(league_id,
    league_name, ruleset, games, wins, place_sum, mu, sigma, rating, ahead, of)`` where
    ``ahead`` is how many in that scope rate higher and ``of`` how many are in it. One
    query."""
    if league_ids is not None and not league_ids:
        return []
    # One pass over each scope counts both (the player's own line is in it: never
    # empty). LATERAL is PostgreSQL's; a correlated subquery per column elsewhere.
    if connection.vendor == "postgresql":
        counts = (
            f" FROM {_STANDING} s INNER JOIN {_LEAGUE} l ON l.id = s.league_id,"
            f" LATERAL (SELECT COUNT(*) FILTER (WHERE e.rating > s.rating) AS ahead,"
            f"  COUNT(*) AS everyone FROM {_STANDING} e"
            f"  WHERE e.league_id = s.league_id AND e.ruleset = s.ruleset) c"
        )
        columns = "c.ahead, c.everyone"
    else:
        counts = f" FROM {_STANDING} s INNER JOIN {_LEAGUE} l ON l.id = s.league_id"
        columns = (
            f"(SELECT COUNT(*) FROM {_STANDING} a WHERE a.league_id = s.league_id"
            f" AND a.ruleset = s.ruleset AND a.rating > s.rating),"
            f" (SELECT COUNT(*) FROM {_STANDING} e WHERE e.league_id = s.league_id"
            f" AND e.ruleset = s.ruleset)"
        )
    sql = (
        "SELECT s.league_id, l.name, s.ruleset, s.games, s.wins, s.place_sum, s.mu,"
        f" s.sigma, s.rating, {columns}{counts} WHERE s.player_id = %s"
    )
    params: list[Any] = [player_id]
    if league_ids is not None:
        sql += f" AND s.league_id IN ({', '.join(['%s'] * len(league_ids))})"
        params.extend(league_ids)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def series_rows(
    player_id: int, league_id: int, scope: str
) -> list[tuple[float, bool, int, float, float]]:
    """A player's rating points in one league and scope, oldest first: ``(rating, won,
    games, prior_mu, prior_sigma)``. One query."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT rating, won, games, prior_mu, prior_sigma FROM {_POINT}"
            " WHERE player_id = %s AND league_id = %s AND ruleset = %s"
            " AND game_id IS NOT NULL ORDER BY played_at, game_id",
            [player_id, league_id, scope],
        )
        return [
            (rating, bool(won), games, mu, sigma)
            for rating, won, games, mu, sigma in cursor.fetchall()
        ]


def page_player(viewer: Viewer, player_id: int, visible_ids: Sequence[int]) -> Player | None:
    """:func:`~scorekeeper.selectors.games.player_visible_to` for a viewer whose visible
    leagues' ids are read already: the player alone by primary key, then (rarely) a
    membership check, instead of one query of nested subqueries."""
    from scorekeeper.selectors.games import player_visible_to

    if not viewer.is_authenticated or getattr(viewer, "is_superuser", False):
        return player_visible_to(viewer, player_id)
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        return None
    if player.user_id == viewer.pk or player.created_by_id == viewer.pk:
        return player
    if Membership.objects.filter(player_id=player_id, league_id__in=visible_ids).exists():
        return player
    # Seated at a game the viewer can see (a sheet links every name at the table).
    return player_visible_to(viewer, player_id)
