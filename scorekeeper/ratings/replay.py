"""The steps of a replay: a league's ratings and standings recomputed from a mark on.

Every finished league game ranks its seats (teams in Partner Dirt), ties sharing a place
(scoring.md section 6); the game services store that ranking in ``Seat.place``/``won``.
From those rankings a replay derives, per league and per scope (one ruleset, or
``ALL_GAMES``):

* :class:`~scorekeeper.models.RatingPoint` — each player's rating after each game,
  applied in game order ``(created_at, id)`` (an :data:`OrderKey`);
* :class:`~scorekeeper.models.PlayerStanding` — the running totals and latest rating.

Every writer of a league's statistics holds :func:`lock_league` first.
:func:`replay_league_ratings` replays a scope from a mark to the end in one go; the
background task (:mod:`scorekeeper.ratings.backlog`) chains the same steps a chunk at a
time.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import Min, Q
from django.utils import timezone

from scorekeeper.models import ALL_GAMES, GameStatus, League, PlayerStanding, RatingPoint, Seat
from scorekeeper.ratings.model import Entry, GameRow, Line, conservative_rating, rate

_BATCH = 2000

#: Where a game sits in a league's rating order.
OrderKey = tuple[datetime, int]


def lock_league(league_id: int) -> None:
    """Take the league's row lock until the transaction ends.

    Two games of one league finishing at once must not both build on the same old
    standings: league statistics are written one game at a time (the background replay
    takes this lock for one short chunk at a time).

    The lock order, for everything that touches a league's games and ratings: game (and
    player) rows first, then the league row, each ``FOR NO KEY UPDATE``. Rating points
    refer to games and players, so the transaction writing them takes ``FOR KEY SHARE``
    on those rows as it commits (Django checks foreign keys at commit), which no such
    lock blocks: a replay never waits for a writer holding a game while it waits for
    the league. A key lock on a game or player (deleting it) comes after the league
    lock."""
    list(League.objects.select_for_update(no_key=True).filter(pk=league_id).values_list("pk"))


def at_or_after(since: OrderKey, at: str = "played_at", game_id: str = "game_id") -> Q:
    """Rows (rating points, unless told other fields) at or after ``since`` in rating
    order; a rating point whose game was deleted (game NULL) counts from its
    ``played_at``."""
    moment, pk = since
    return (
        Q(**{f"{at}__gt": moment})
        | Q(**{at: moment, f"{game_id}__gte": pk})
        | Q(**{at: moment, f"{game_id}__isnull": True})
    )


def before(until: OrderKey, at: str = "played_at", game_id: str = "game_id") -> Q:
    """Rows (rating points, unless told other fields) before ``until`` in rating order."""
    moment, pk = until
    return Q(**{f"{at}__lt": moment}) | Q(**{at: moment, f"{game_id}__lt": pk})


def in_scope(scope: str, prefix: str = "") -> Q:
    """The games ranked in ``scope`` (not ``ALL_GAMES``): those whose ``league_scope``
    it is (a row made without one counts under its slug). ``prefix``: the path to the
    game ("game__")."""
    return Q(**{f"{prefix}league_scope": scope}) | Q(
        **{f"{prefix}league_scope": "", f"{prefix}ruleset": scope}
    )


def finished_games(
    league_id: int, scope: str, since: OrderKey | None, *, until: OrderKey | None = None
) -> list[GameRow]:
    """The league's finished games in the scope, in rating order, with their seats
    (from ``since``, before ``until``)."""
    seats = Seat.objects.filter(game__league_id=league_id, game__status=GameStatus.FINISHED)
    if scope != ALL_GAMES:
        seats = seats.filter(in_scope(scope, "game__"))
    if since is not None:
        seats = seats.filter(at_or_after(since, "game__created_at", "game_id"))
    if until is not None:
        seats = seats.filter(before(until, "game__created_at", "game_id"))
    rows: list[GameRow] = []
    for game_id, created_at, ruleset, kept, player_id, team, place, won in seats.order_by(
        "game__created_at", "game_id", "position"
    ).values_list(
        "game_id",
        "game__created_at",
        "game__ruleset",
        "game__league_scope",
        "player_id",
        "team",
        "place",
        "won",
    ):
        if not rows or rows[-1].id != game_id:
            rows.append(
                GameRow(id=game_id, created_at=created_at, ruleset=ruleset, scope=kept or ruleset)
            )
        rows[-1].entries.append(Entry(player_id, team, place, won))
    return rows


def replay_league_ratings(league_id: int, scope: str, *, since: OrderKey | None) -> int:
    """Recompute a league's ratings and standings in one scope from the game at
    ``since`` (``None``: from the first game) onward. Returns the games rated.

    The state before ``since`` comes from the first rating point of each player at or
    after it (its ``prior_*`` values), or from the player's standing when they have
    none there: the history before ``since`` is not read."""
    points = RatingPoint.objects.filter(league_id=league_id, ruleset=scope)
    orphaned = points.filter(game__isnull=True).aggregate(at=Min("played_at"))["at"]
    if orphaned is not None and (since is None or (orphaned, 0) < since):
        # A game deleted without the hook (in the admin, say): start from it too.
        since = (orphaned, 0)
    later = points if since is None else points.filter(at_or_after(since))

    lines: dict[int, Line] = {}
    touched: set[int] = set()
    if since is not None:
        for pid, mu, sigma, games, wins, place_sum, won, place in later.order_by(
            "played_at", "game_id"
        ).values_list(
            "player_id",
            "prior_mu",
            "prior_sigma",
            "games",
            "wins",
            "place_sum",
            "won",
            "place",
        ):
            touched.add(pid)
            if pid not in lines:
                lines[pid] = Line(
                    mu=mu,
                    sigma=sigma,
                    games=games - 1,
                    wins=wins - int(won),
                    place_sum=place_sum - place,
                )
    else:
        touched.update(
            PlayerStanding.objects.filter(league_id=league_id, ruleset=scope).values_list(
                "player_id", flat=True
            )
        )
    later.delete()

    to_rate = finished_games(league_id, scope, since)
    seated = {e.player for g in to_rate for e in g.entries}
    missing = seated - lines.keys()
    if missing and since is not None:
        standings = PlayerStanding.objects.filter(league_id=league_id, ruleset=scope)
        if len(missing) <= 500:
            standings = standings.filter(player_id__in=missing)
        for pid, mu, sigma, n, wins, place_sum in standings.values_list(
            "player_id", "mu", "sigma", "games", "wins", "place_sum"
        ):
            if pid in missing:
                lines[pid] = Line(mu=mu, sigma=sigma, games=n, wins=wins, place_sum=place_sum)
    for pid in missing:
        lines.setdefault(pid, Line())

    rated_games = rate_games(league_id, scope, to_rate, lines)

    store_standings(league_id, scope, lines, touched | seated)
    return rated_games


def rate_games(league_id: int, scope: str, to_rate: list[GameRow], lines: dict[int, Line]) -> int:
    """Rate the games in order from the players' states in ``lines`` (updated as it
    goes) and write their rating points. Returns the games rated."""
    new_points: list[tuple[Any, ...]] = []
    rated_games = 0
    for game in to_rate:
        if any(e.place is None for e in game.entries) or len(game.entries) < 2:
            continue  # not rankable (derived columns out of date: rebuild_derived)
        rated_games += 1
        after = rate(game, lines)
        for entry in game.entries:
            line = lines[entry.player]
            place = int(entry.place or 0)
            mu, sigma = after[entry.player]
            prior_mu, prior_sigma = line.mu, line.sigma
            line.mu, line.sigma = mu, sigma
            line.games += 1
            line.wins += int(entry.won)
            line.place_sum += place
            new_points.append((
                league_id, scope, entry.player, game.id, game.created_at, game.ruleset,
                place, entry.won, prior_mu, prior_sigma, mu, sigma,
                conservative_rating(mu, sigma), line.games, line.wins, line.place_sum,
            ))  # fmt: skip
            if len(new_points) >= _BATCH:
                _insert_points(new_points)
                new_points = []
    _insert_points(new_points)
    return rated_games


#: RatingPoint columns in the order :func:`rate_games` builds its rows.
_POINT_COLUMNS = (
    "league_id", "ruleset", "player_id", "game_id", "played_at", "game_ruleset", "place",
    "won", "prior_mu", "prior_sigma", "mu", "sigma", "rating", "games", "wins", "place_sum",
)  # fmt: skip


def _insert_points(rows: list[tuple[Any, ...]]) -> None:
    """Write rating points. On PostgreSQL through ``COPY``: a replay writes tens of
    thousands of them, and building model instances for ``bulk_create`` would cost
    more than rating the games. The ORM has no ``COPY``, so this one statement is
    written by hand, through psycopg's own copy API on Django's connection."""
    if not rows:
        return
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(RatingPoint._meta.db_table)
        columns = ", ".join(connection.ops.quote_name(c) for c in _POINT_COLUMNS)
        with connection.cursor() as cursor:
            raw = cursor.cursor  # the psycopg cursor under Django's wrapper
            with raw.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        return
    RatingPoint.objects.bulk_create(
        [RatingPoint(**dict(zip(_POINT_COLUMNS, row, strict=True))) for row in rows]
    )


def store_standings(
    league_id: int, scope: str, lines: dict[int, Line], players: Iterable[int]
) -> None:
    """Write the standings of ``players`` as ``lines`` has them; a player without a
    game in the scope (no line, or none left) loses theirs."""
    now = timezone.now()
    keep: list[PlayerStanding] = []
    drop: list[int] = []
    for pid in players:
        line = lines.get(pid)
        if line is None or line.games == 0:
            drop.append(pid)
            continue
        keep.append(standing_of(league_id, scope, pid, line, now))
    if drop:
        PlayerStanding.objects.filter(
            league_id=league_id, ruleset=scope, player_id__in=drop
        ).delete()
    for start in range(0, len(keep), _BATCH):
        PlayerStanding.objects.bulk_create(
            keep[start : start + _BATCH],
            update_conflicts=True,
            unique_fields=["league", "ruleset", "player"],
            update_fields=["games", "wins", "place_sum", "mu", "sigma", "rating", "updated_at"],
        )


def standing_of(
    league_id: int, scope: str, player_id: int, line: Line, now: datetime
) -> PlayerStanding:
    """The standing row (unsaved) of a player whose state is ``line``."""
    return PlayerStanding(
        league_id=league_id,
        ruleset=scope,
        player_id=player_id,
        games=line.games,
        wins=line.wins,
        place_sum=line.place_sum,
        mu=line.mu,
        sigma=line.sigma,
        rating=conservative_rating(line.mu, line.sigma),
        updated_at=now,
    )
