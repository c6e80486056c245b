"""The backlog: league ratings marked out of date, re-rated a short chunk at a time.

A correction, undo or deletion of an older league game would have to replay every later
game of the league (0.3 ms a game: seconds at 10,000 games) under the league lock, and
every game finishing meanwhile would wait. Instead the hooks
(:mod:`scorekeeper.ratings.hooks`) leave a :class:`~scorekeeper.models.RatingBacklog`
mark — the earliest game whose ratings are out of date, per league and scope — and
see that :func:`scorekeeper.tasks.rerate_league` is queued. The task calls
:func:`process_backlog`, which replays from the mark ``chunk_games`` games per
transaction, holding the league lock for one chunk only, and moves the mark forward
after each.

The invariant that makes each chunk stand alone: **every rating point before the mark is
right**. A chunk takes each player's state from their latest point before the mark, so a
worker can stop anywhere (crash, restart, a database error) and a new change anywhere
only moves the mark earlier (the hooks keep the earliest). Games finishing later in the
league while a mark exists are not rated by their request: the replay reaches them. When
the replay reaches the end, the standings are recomputed from each player's latest point
and the mark goes. The marks are the truth: a task that died or failed is queued again by
the next change and by the worker's sweep (:func:`scorekeeper.tasks.resume_rerates`), and
resumes from the mark.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from scorekeeper.models import (
    ALL_GAMES,
    Game,
    GameStatus,
    PlayerStanding,
    RatingBacklog,
    RatingPoint,
)
from scorekeeper.ratings.model import Line
from scorekeeper.ratings.replay import (
    OrderKey,
    at_or_after,
    before,
    finished_games,
    lock_league,
    rate_games,
    standing_of,
    store_standings,
)
from scorekeeper.retry import once_more_on_deadlock

#: Games replayed in the first chunk; later chunks size themselves to hold the league
#: lock about CHUNK_SECONDS, so a game finishing meanwhile waits well under 100 ms.
CHUNK_GAMES = 50
CHUNK_SECONDS = 0.04
MIN_CHUNK_GAMES = 5


def mark_backlog(league_id: int, scope: str, since: OrderKey) -> None:
    """Note that the league's ratings in ``scope`` need replaying from ``since`` on
    (kept if an earlier mark exists: the replay reaches this game too). The caller
    holds the league lock (as every writer of the marks does)."""
    at, game_id = since
    row = RatingBacklog.objects.filter(league_id=league_id, ruleset=scope).first()
    if row is None:
        RatingBacklog.objects.create(
            league_id=league_id, ruleset=scope, since_created_at=at, since_game_id=game_id
        )
    elif since < (row.since_created_at, row.since_game_id):
        row.since_created_at, row.since_game_id = at, game_id
        row.save(update_fields=["since_created_at", "since_game_id"])


def has_backlog(league_id: int, scope: str | None = None) -> bool:
    marks = RatingBacklog.objects.filter(league_id=league_id)
    if scope is not None:
        marks = marks.filter(ruleset=scope)
    return marks.exists()


@dataclass
class _Run:
    """What a worker carries from one chunk to the next: the players' states at the
    mark it left (valid while the mark is still there), and the games per chunk."""

    at: tuple[str, OrderKey] | None = None
    lines: dict[int, Line] = field(default_factory=dict)
    with_standing: set[int] = field(default_factory=set)
    chunk_games: int = CHUNK_GAMES


def process_backlog(
    league_id: int,
    *,
    chunk_games: int | None = None,
    on_chunk: Callable[[float, int], Any] | None = None,
) -> int:
    """Replay the league's marked scopes to the end, one chunk per transaction.
    Returns the games rated. ``on_chunk(seconds_locked, games)`` is told of each chunk
    (the benchmark prints them).

    Without ``chunk_games`` the chunks size themselves to hold the league lock about
    :data:`CHUNK_SECONDS`. Each chunk starts by taking the league lock, as the hooks
    do, so two workers on one league take turns; a chunk that finds the mark moved (by
    a new change, or by the other worker) starts over from the new mark. A chunk
    aborted by a deadlock is run once more; another error ends the task, the mark
    staying where the last chunk left it."""
    run = _Run(chunk_games=chunk_games or CHUNK_GAMES)
    rated = 0
    while True:
        done = _chunk(league_id, run)
        if done is None:
            return rated
        games, held = done
        rated += games
        if chunk_games is None and games:
            # Aim at CHUNK_SECONDS per chunk, changing by at most half or double.
            run.chunk_games = max(
                MIN_CHUNK_GAMES,
                min(run.chunk_games * 2, int(run.chunk_games * CHUNK_SECONDS / held) or 1),
                run.chunk_games // 2,
            )
        if on_chunk is not None:
            on_chunk(held, games)


@once_more_on_deadlock
def _chunk(league_id: int, run: _Run) -> tuple[int, float] | None:
    """One chunk in its own transaction: the games rated and the seconds the league lock
    was held (None: no mark is left)."""
    try:
        with transaction.atomic():
            lock_league(league_id)
            locked = time.perf_counter()
            row = RatingBacklog.objects.filter(league_id=league_id).order_by("ruleset").first()
            if row is None:
                return None
            games = _replay_chunk(row, run)
        return games, time.perf_counter() - locked
    except BaseException:
        run.at = None  # the states it carried were not stored
        raise


def _replay_chunk(row: RatingBacklog, run: _Run) -> int:
    league_id, scope = int(row.league_id), row.ruleset
    since: OrderKey = (row.since_created_at, int(row.since_game_id))
    if run.at != (scope, since):
        run.lines, run.with_standing = {}, set()  # the mark moved: start from it
    keys = Game.objects.filter(league_id=league_id, status=GameStatus.FINISHED)
    if scope != ALL_GAMES:
        keys = keys.filter(ruleset=scope)
    next_keys = list(
        keys.filter(at_or_after(since, "created_at", "id"))
        .order_by("created_at", "id")
        .values_list("created_at", "id")[run.chunk_games : run.chunk_games + 1]
    )
    until: OrderKey | None = next_keys[0] if next_keys else None
    games = finished_games(league_id, scope, since, until=until)
    points = RatingPoint.objects.filter(league_id=league_id, ruleset=scope)
    window = points.filter(at_or_after(since))
    if until is not None:
        window = window.filter(before(until))
    window.delete()

    seated = {e.player for g in games for e in g.entries}
    run.lines.update(_lines_before(league_id, scope, seated - run.lines.keys(), since))
    rated = rate_games(league_id, scope, games, run.lines)
    _ensure_standings(league_id, scope, run.lines, seated - run.with_standing)
    run.with_standing |= seated

    if until is not None:
        row.since_created_at, row.since_game_id = until
        row.save(update_fields=["since_created_at", "since_game_id"])
        run.at = (scope, until)
        return rated
    run.at = None
    orphaned = (
        points.filter(game__isnull=True)
        .order_by("played_at")
        .values_list("played_at", flat=True)
        .first()
    )
    if orphaned is not None:
        # A game deleted behind the services' back (in the admin, say), before the
        # mark: go back to it.
        row.since_created_at, row.since_game_id = orphaned, 0
        row.save(update_fields=["since_created_at", "since_game_id"])
        return rated
    _settle_standings(league_id, scope, run.lines)
    row.delete()
    return rated


def _latest_point(league_id: int, scope: str, until: OrderKey | None = None) -> Any:
    """A subquery: the id of the player's (``OuterRef('player_id')``) latest point
    (before ``until``)."""
    points = RatingPoint.objects.filter(
        league_id=league_id, ruleset=scope, player_id=OuterRef("player_id")
    )
    if until is not None:
        points = points.filter(before(until))
    return Subquery(
        # The (player, league, ruleset, played_at, game) index read backwards. No
        # point of a deleted game is left when these run.
        points.order_by("-played_at", "-game_id").values("pk")[:1]
    )


def _lines_before(
    league_id: int, scope: str, players: set[int], since: OrderKey | None
) -> dict[int, Line]:
    """Each player's state just before ``since`` (``None``: now): their latest point
    before it."""
    lines = {pid: Line() for pid in players}
    if not players:
        return lines
    last = (
        PlayerStanding.objects.filter(league_id=league_id, ruleset=scope, player_id__in=players)
        .annotate(last=_latest_point(league_id, scope, since))
        .exclude(last=None)
        .values_list("last", flat=True)
    )
    for pid, mu, sigma, games, wins, place_sum in RatingPoint.objects.filter(
        pk__in=Subquery(last)
    ).values_list("player_id", "mu", "sigma", "games", "wins", "place_sum"):
        lines[pid] = Line(mu=mu, sigma=sigma, games=games, wins=wins, place_sum=place_sum)
    return lines


def _ensure_standings(
    league_id: int, scope: str, lines: dict[int, Line], players: Iterable[int]
) -> None:
    """A standing row for every player rated (filled in properly at the end): the
    lookups of :func:`_lines_before` and :func:`_settle_standings` start from them."""
    now = timezone.now()
    PlayerStanding.objects.bulk_create(
        [standing_of(league_id, scope, pid, lines[pid], now) for pid in players],
        ignore_conflicts=True,
    )


def _settle_standings(league_id: int, scope: str, known: dict[int, Line]) -> None:
    """Every standing of the scope as of the player's latest rating point: ``known``
    (the players this worker rated, as it left them), the others' from their points
    (a player whose only games went has none: their standing goes)."""
    standings = {
        pid: (games, wins, place_sum, mu, sigma)
        for pid, games, wins, place_sum, mu, sigma in PlayerStanding.objects.filter(
            league_id=league_id, ruleset=scope
        ).values_list("player_id", "games", "wins", "place_sum", "mu", "sigma")
    }
    rest = standings.keys() - known.keys()
    lines = {**_lines_before(league_id, scope, rest, None), **known}
    store_standings(
        league_id,
        scope,
        lines,
        [
            pid
            for pid, line in lines.items()
            if standings.get(pid) != (line.games, line.wins, line.place_sum, line.mu, line.sigma)
        ],
    )
