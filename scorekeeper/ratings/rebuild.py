"""Recompute everything derived from the stored hands: each game's derived columns
through the engine, then each league's standings and rating history from scratch
(``manage.py rebuild_derived``; a league import rebuilds its league's statistics)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from games import RuleError
from scorekeeper.models import (
    ALL_GAMES,
    Game,
    GameStatus,
    Hand,
    League,
    PlayerStanding,
    RatingBacklog,
    RatingPoint,
    Seat,
)
from scorekeeper.ratings.replay import lock_league, replay_league_ratings
from scorekeeper.selectors.games import derived_of, game_state, last_hand_of, seat_results


@dataclass(frozen=True)
class LeagueRebuilt:
    league_id: int
    scopes: int
    games: int
    players: int


@transaction.atomic
def league_stats_rebuild(league: League | int) -> LeagueRebuilt:
    """Throw away a league's standings and rating points and recompute them from its
    finished games' stored rankings (``Seat.place``/``won``)."""
    league_id = league if isinstance(league, int) else int(league.pk)
    lock_league(league_id)
    RatingBacklog.objects.filter(league_id=league_id).delete()
    RatingPoint.objects.filter(league_id=league_id).delete()
    PlayerStanding.objects.filter(league_id=league_id).delete()
    rulesets = sorted(
        {
            scope or slug
            for scope, slug in Game.objects.filter(league_id=league_id, status=GameStatus.FINISHED)
            .order_by()
            .values_list("league_scope", "ruleset")
            .distinct()
        }
    )
    games = replay_league_ratings(league_id, ALL_GAMES, since=None)
    for slug in rulesets:
        replay_league_ratings(league_id, slug, since=None)
    players = PlayerStanding.objects.filter(league_id=league_id, ruleset=ALL_GAMES).count()
    return LeagueRebuilt(
        league_id=league_id, scopes=1 + len(rulesets), games=games, players=players
    )


@dataclass(frozen=True)
class GameRebuilt:
    changed: bool
    error: str = ""


def game_derived_rebuild(game: Game) -> GameRebuilt:
    """Recompute a game's derived columns (status, finished_at, hand_count, each seat's
    score/place/won, each hand's stored outcome) from its stored hands through the
    engine. ``game`` must have its seats and hands prefetched. A ``finished_at``
    already set is kept; a game found finished without one gets its last hand's time.
    Does not touch league statistics (rebuild those afterwards with
    :func:`league_stats_rebuild`)."""
    hands = sorted(game.hands.all(), key=lambda h: h.number)
    try:
        # A fresh fold of every hand: the stored outcomes are what is being checked.
        state = game_state(game, [h.input for h in hands])
    except RuleError as exc:
        return GameRebuilt(changed=False, error=exc.message)
    stale_hands: list[Hand] = []
    for hand, outcome in zip(hands, state.hands, strict=True):
        derived = derived_of(outcome)
        if hand.derived != derived:
            hand.derived = derived
            stale_hands.append(hand)
    if stale_hands:
        Hand.objects.bulk_update(stale_hands, ["derived"], batch_size=500)
    status = GameStatus.FINISHED if state.finished else GameStatus.IN_PROGRESS
    finished_at = game.finished_at
    if not state.finished:
        finished_at = None
    elif finished_at is None:
        finished_at = max((h.created_at for h in hands), default=game.updated_at)
    last_hand = last_hand_of(state.hands[-1] if state.hands else None)
    changed_game = (
        game.last_hand != last_hand
        or game.status != status
        or game.finished_at != finished_at
        or game.hand_count != len(state.hands)
    )
    results = seat_results(state)
    changed_seats: list[Seat] = []
    for seat in game.seats.all():
        result = results[seat.player_id]
        if (seat.score, seat.place, seat.won) != (result.score, result.place, result.won):
            seat.score, seat.place, seat.won = result.score, result.place, result.won
            changed_seats.append(seat)
    if changed_seats:
        Seat.objects.bulk_update(changed_seats, ["score", "place", "won"])
    if changed_game or changed_seats or stale_hands:
        # Only the derived columns: a sheet open on a phone sees the new version.
        Game.objects.filter(pk=game.pk).update(
            status=status,
            finished_at=finished_at,
            hand_count=len(state.hands),
            last_hand=last_hand,
            version=game.version + 1,
        )
        return GameRebuilt(changed=True)
    return GameRebuilt(changed=False)


@dataclass
class DerivedRebuilt:
    games: int = 0
    games_changed: int = 0
    errors: list[tuple[int, str]] = field(default_factory=list)
    leagues: list[LeagueRebuilt] = field(default_factory=list)


def rebuild_derived(
    *,
    games: Iterable[int] | None = None,
    leagues: Iterable[int] | None = None,
    progress: Callable[[str], Any] | None = None,
    chunk_size: int = 500,
) -> DerivedRebuilt:
    """Recompute every game's derived columns from its hands, then every league's
    standings and ratings (or just the given games and leagues). Each chunk of games and
    each league is its own transaction, so a long rebuild does not hold one lock."""
    report = DerivedRebuilt()
    say = progress or (lambda _message: None)
    game_qs = Game.objects.order_by("id")
    if games is not None:
        game_qs = game_qs.filter(pk__in=list(games))
    ids = list(game_qs.values_list("id", flat=True))
    for start in range(0, len(ids), chunk_size):
        chunk = ids[start : start + chunk_size]
        with transaction.atomic():
            for game in (
                Game.objects.filter(pk__in=chunk)
                .select_for_update(of=("self",), no_key=True)
                .prefetch_related("seats", "hands")
                .order_by("id")
            ):
                report.games += 1
                result = game_derived_rebuild(game)
                if result.error:
                    report.errors.append((int(game.pk), result.error))
                elif result.changed:
                    report.games_changed += 1
        say(f"games: {min(start + chunk_size, len(ids))}/{len(ids)} checked")
    league_ids = (
        list(leagues)
        if leagues is not None
        else list(League.objects.order_by("id").values_list("id", flat=True))
    )
    for league_id in league_ids:
        rebuilt = league_stats_rebuild(league_id)
        report.leagues.append(rebuilt)
        say(f"league {league_id}: {rebuilt.games} games rated, {rebuilt.players} players")
    return report
