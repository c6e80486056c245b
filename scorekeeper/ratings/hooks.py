"""What the game services call, inside their transaction, when a league game changes.

A game that finishes after every other rated game of its league (or nearly) is rated
there, in a handful of queries; a correction, undo or deletion of an older game leaves a
mark for the background task (:mod:`scorekeeper.ratings.backlog`), which replays the
later games in short chunks while the standings say they are updating.
"""

from __future__ import annotations

from django.db.models import Min

from scorekeeper.models import ALL_GAMES, Game, RatingPoint, Seat
from scorekeeper.ratings.backlog import has_backlog, mark_backlog
from scorekeeper.ratings.replay import OrderKey, at_or_after, lock_league, replay_league_ratings
from scorekeeper.tasks import rerate_soon

#: A change with at most this many rating points after it (about 100 games, 30 ms) is
#: replayed on the request; a longer replay is left to a background task.
INLINE_POINTS = 400


def game_changed(game: Game, *, was_finished: bool, is_finished: bool) -> None:
    """A game's hands (or its end by hand) changed; keep its league's statistics right.

    Nothing to do while a game is in progress, or when a correction of a finished game
    leaves its ranking as it was."""
    if game.league_id is None or not (was_finished or is_finished):
        return
    lock_league(game.league_id)
    now = (
        {
            (s["player_id"], s["place"], s["won"])
            for s in Seat.objects.filter(game_id=game.pk).values("player_id", "place", "won")
        }
        if is_finished
        else set()
    )
    points = list(
        RatingPoint.objects.filter(
            league_id=game.league_id, ruleset__in=(game.scope, ALL_GAMES), game_id=game.pk
        ).values_list("ruleset", "player_id", "place", "won", "played_at")
    )
    # From the game, or from where it was rated if that was earlier (its start edited).
    since: OrderKey = min([(game.created_at, game.pk), *((p[4], game.pk) for p in points)])
    # Each scope on its own: a replay under way may have rated the game in one scope
    # and not yet in the other.
    for scope in (game.scope, ALL_GAMES):
        if now != {(pid, place, won) for s, pid, place, won, _ in points if s == scope}:
            rerate(game.league_id, scope, since, game_id=game.pk)


def game_deleted(*, game_id: int | None, league_id: int | None, was_finished: bool) -> None:
    """A game was deleted. Its rating points lost their game (``SET_NULL``) but kept
    their place in the order: replay each scope from there."""
    if league_id is None or not was_finished:
        return
    lock_league(league_id)
    starts = (
        RatingPoint.objects.filter(league_id=league_id, game__isnull=True)
        .values("ruleset")
        .annotate(since=Min("played_at"))
        .values_list("ruleset", "since")
    )
    for scope, since in list(starts):
        rerate(league_id, scope, (since, 0), game_id=None)


def rerate(league_id: int, scope: str, since: OrderKey, *, game_id: int | None) -> None:
    """Replay the scope from ``since`` now when that is cheap (the game is the league's
    latest, or nearly), else leave it to the background task. While a replay is pending,
    every change joins it: the ratings after its mark are not to be built on. The
    caller holds the league lock (:func:`~scorekeeper.ratings.replay.lock_league`)."""
    if not has_backlog(league_id, scope):
        later = RatingPoint.objects.filter(at_or_after(since), league_id=league_id, ruleset=scope)
        later = later.exclude(game_id=game_id) if game_id else later.exclude(game=None)
        if len(later.values_list("pk", flat=True)[: INLINE_POINTS + 1]) <= INLINE_POINTS:
            replay_league_ratings(league_id, scope, since=since)
            return
    mark_backlog(league_id, scope, since)
    # Even when the mark did not move: the task that was to reach this game may be gone.
    rerate_soon(league_id)
