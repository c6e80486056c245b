"""Writes to score sheets. The API and the pages both call these, so they cannot disagree.

Every write locks the game row first (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite takes
its write lock at ``BEGIN IMMEDIATE``), so two phones posting to one game at once are
serialised: no hand is lost or duplicated and hand numbers stay consecutive.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max, prefetch_related_objects
from django.utils import timezone

from games import GameState, HandOutcome, RuleError, get_ruleset
from scorekeeper.errors import ConflictError, StaleHandError
from scorekeeper.models import (
    Game,
    GameStatus,
    Hand,
    HandAction,
    HandRevision,
    IdempotencyRecord,
    League,
    Membership,
    Player,
    Seat,
)
from scorekeeper.selectors.games import (
    can_change_game,
    can_change_league,
    game_config,
    game_state,
    seat_results,
)
from scorekeeper.services import stats

#: The largest id the (64-bit) id columns hold.
MAX_ID = 2**63 - 1


@dataclass(frozen=True)
class HandWritten:
    """The outcome of a hand write: the stored hand (None after an undo), the game's new
    state, the engine's outcome of that hand, and the API representation of it."""

    game: Game
    state: GameState
    hand: Hand | None
    outcome: HandOutcome | None
    response: dict[str, Any]
    replayed: bool = False
    status_code: int = 201


def _as_id(value: object, field: str, what: str) -> int:
    if isinstance(value, Player | League):
        return int(value.pk)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise RuleError(f"{value!r} is not a {what} id", field)
    try:
        number = int(value)
    except ValueError:
        raise RuleError(f"{value!r} is not a {what} id", field) from None
    # Ids live in 64-bit columns: a bigger number would overflow SQLite, not just miss.
    if not 1 <= number <= MAX_ID:
        raise RuleError(f"{what} {number} does not exist", field)
    return number


@transaction.atomic
def game_create(
    *,
    owner: User,
    ruleset: str,
    players: Sequence[int | Player],
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    teams: Sequence[Sequence[int]] | None = None,
    first_dealer: int | Player | None = None,
    league: int | League | None = None,
    start_token: str = "",
) -> Game:
    """Start a score sheet. Seated players join the league if they were not members.
    A ``start_token`` the owner already started a game with is refused by the database
    (``IntegrityError``): the caller opens that game instead."""
    rules = get_ruleset(ruleset)
    if isinstance(players, str | bytes) or not isinstance(players, Sequence):
        raise RuleError("players must be a list of player ids in seating order", "players")
    ids = [_as_id(p, "players", "player") for p in players]
    known = Player.objects.in_bulk(ids)
    missing = [i for i in ids if i not in known]
    if missing:
        raise RuleError(f"player {missing[0]} does not exist", "players")
    dealer_id = None if first_dealer is None else _as_id(first_dealer, "first_dealer", "player")
    config = rules.configure(
        players=ids, variant=variant, options=options, teams=teams, first_dealer=dealer_id
    )
    league_obj: League | None = None
    if league is not None:
        league_id = _as_id(league, "league", "league")
        league_obj = League.objects.filter(pk=league_id).first()
        if league_obj is None or not can_change_league(owner, league_obj):
            raise RuleError(f"league {league_id} does not exist or you are not in it", "league")
    assert config.first_dealer is not None
    game = Game.objects.create(
        ruleset=rules.slug,
        variant=config.variant or "",
        options=dict(config.options),
        teams=[list(t) for t in config.teams] if config.teams else None,
        first_dealer_id=config.first_dealer,
        league=league_obj,
        owner=owner,
        start_token=start_token,
    )
    Seat.objects.bulk_create(
        Seat(game=game, player_id=pid, position=i, team=config.team_of(pid))
        for i, pid in enumerate(config.players)
    )
    if league_obj is not None:
        existing = set(league_obj.memberships.values_list("player_id", flat=True))
        Membership.objects.bulk_create(
            Membership(league=league_obj, player_id=pid)
            for pid in config.players
            if pid not in existing
        )
    _sync_derived(game, game_state(_refetch(game)), was_finished=False)
    return game


def _refetch(game: Game, *, lock: bool = False) -> Game:
    qs = Game.objects.select_for_update() if lock else Game.objects.all()
    fresh = qs.get(pk=game.pk)
    prefetch_related_objects([fresh], "seats__player", "hands")
    return fresh


def _check_may_change(user: User | None, game: Game) -> None:
    if user is not None and not can_change_game(user, game):
        raise PermissionDenied("Only the game's owner and members of its league may change it.")


def _sync_derived(game: Game, state: GameState, *, was_finished: bool) -> None:
    """Store what league queries need from the engine's state, and bump the version."""
    game.status = GameStatus.FINISHED if state.finished else GameStatus.IN_PROGRESS
    if state.finished and game.finished_at is None:
        game.finished_at = timezone.now()
    elif not state.finished:
        game.finished_at = None
    game.hand_count = len(state.hands)
    game.version += 1
    game.save(
        update_fields=["status", "finished_at", "hand_count", "version", "updated_at", "closed"]
    )
    results = seat_results(state)
    seats = list(Seat.objects.filter(game=game))
    for seat in seats:
        result = results[seat.player_id]
        seat.score, seat.place, seat.won = result.score, result.place, result.won
    Seat.objects.bulk_update(seats, ["score", "place", "won"])
    stats.game_changed(game, was_finished=was_finished, is_finished=state.finished)


def hand_response(outcome: HandOutcome, *, revision: int = 1) -> dict[str, Any]:
    """The API's HAND object: the engine's outcome of the hand, plus the stored input and
    its revision (1 until the hand is corrected)."""
    data = outcome.as_dict()
    data["input"] = dict(outcome.input)
    data["revision"] = revision
    return data


def _check_correction_keeps_later_hands(
    game: Game, inputs: list[dict[str, Any]], number: int
) -> None:
    """A correction that makes the game end before hands recorded after it clashes with
    the sheet (409), rather than being bad input: those hands must be undone first."""
    rules = get_ruleset(game.ruleset)
    config = game_config(game)
    for played in range(number, len(inputs)):
        try:
            prefix = rules.play(config, inputs[:played], closed=False)
        except RuleError:
            return
        if prefix.finished:
            later = len(inputs) - played
            raise ConflictError(
                f"With this correction the game ends after hand {played}, but {later} "
                f"more hand{'s' if later != 1 else ''} follow{'s' if later == 1 else ''}: "
                "undo them first."
            )


def hand_record(
    *,
    game: Game,
    user: User | None,
    hand_input: Mapping[str, Any],
    idempotency_key: str | None = None,
    expected_number: int | None = None,
) -> HandWritten:
    """Record the next hand of a game, in one transaction.

    With an ``idempotency_key`` already used on this game, nothing is recorded and the
    first response is returned (``replayed``). With ``expected_number`` (the hand number
    the table entered the hand as), a hand another phone recorded first is not doubled:
    :class:`StaleHandError`."""
    with transaction.atomic():
        locked = _refetch(game, lock=True)
        _check_may_change(user, locked)
        if idempotency_key:
            seen = IdempotencyRecord.objects.filter(game=locked, key=idempotency_key).first()
            if seen is not None:
                return HandWritten(
                    game=locked,
                    state=game_state(locked),
                    hand=None,
                    outcome=None,
                    response=seen.response,
                    replayed=True,
                    status_code=seen.status_code,
                )
        inputs = [h.input for h in locked.hands.all()]
        if expected_number is not None and expected_number != len(inputs) + 1:
            raise StaleHandError(
                f"Hand {expected_number} was already recorded; the next hand is {len(inputs) + 1}."
            )
        before = game_state(locked, inputs)
        if before.finished:
            raise ConflictError("This game is over: no more hands can be recorded.")
        if not isinstance(hand_input, Mapping):
            raise RuleError("a hand must be a JSON object")
        state = game_state(locked, [*inputs, dict(hand_input)])
        outcome = state.hands[-1]
        # A hand number that was undone and is recorded again continues its history.
        previous = (
            HandRevision.objects.filter(game=locked, number=outcome.number).aggregate(
                last=Max("revision")
            )["last"]
            or 0
        )
        hand = Hand.objects.create(
            game=locked,
            number=outcome.number,
            input=dict(outcome.input),
            created_by=user,
            revision=previous + 1,
        )
        HandRevision.objects.create(
            game=locked,
            number=hand.number,
            revision=hand.revision,
            action=HandAction.RECORDED,
            input=hand.input,
            user=user,
        )
        _sync_derived(locked, state, was_finished=False)
        response = hand_response(outcome, revision=hand.revision)
        if idempotency_key:
            IdempotencyRecord.objects.create(game=locked, key=idempotency_key, response=response)
        return HandWritten(game=locked, state=state, hand=hand, outcome=outcome, response=response)


def hand_replace(
    *, game: Game, number: int, user: User | None, hand_input: Mapping[str, Any]
) -> HandWritten:
    """Correct a hand's input; every total after it is recomputed. The earlier input is
    kept in the hand's revision history."""
    with transaction.atomic():
        locked = _refetch(game, lock=True)
        _check_may_change(user, locked)
        hands = list(locked.hands.all())
        target = next((h for h in hands if h.number == number), None)
        if target is None:
            raise Hand.DoesNotExist(f"This game has no hand {number}.")
        if not isinstance(hand_input, Mapping):
            raise RuleError("a hand must be a JSON object")
        was_finished = locked.status == GameStatus.FINISHED
        inputs = [dict(hand_input) if h.number == number else h.input for h in hands]
        try:
            state = game_state(locked, inputs)
        except RuleError:
            _check_correction_keeps_later_hands(locked, inputs, number)
            raise
        outcome = state.hands[number - 1]
        if outcome.input != target.input:
            target.input = dict(outcome.input)
            target.revision += 1
            target.save(update_fields=["input", "revision", "updated_at"])
            HandRevision.objects.create(
                game=locked,
                number=number,
                revision=target.revision,
                action=HandAction.CORRECTED,
                input=target.input,
                user=user,
            )
            _sync_derived(locked, state, was_finished=was_finished)
        return HandWritten(
            game=locked,
            state=state,
            hand=target,
            outcome=outcome,
            response=hand_response(outcome, revision=target.revision),
            status_code=200,
        )


def hand_undo(*, game: Game, number: int, user: User | None) -> HandWritten:
    """Remove the last hand (an earlier one cannot go: hand numbers fix dealers and dirt
    ranks). A game ended by hand opens again."""
    with transaction.atomic():
        locked = _refetch(game, lock=True)
        _check_may_change(user, locked)
        hands = list(locked.hands.all())
        target = next((h for h in hands if h.number == number), None)
        if target is None:
            raise Hand.DoesNotExist(f"This game has no hand {number}.")
        if number != hands[-1].number:
            raise ConflictError(
                f"Only the last hand ({hands[-1].number}) can be undone; correct hand "
                f"{number} instead."
            )
        was_finished = locked.status == GameStatus.FINISHED
        HandRevision.objects.create(
            game=locked,
            number=number,
            revision=target.revision + 1,
            action=HandAction.UNDONE,
            input=target.input,
            user=user,
        )
        target.delete()
        locked.closed = False
        state = game_state(locked, [h.input for h in hands[:-1]])
        _sync_derived(locked, state, was_finished=was_finished)
        return HandWritten(
            game=locked, state=state, hand=None, outcome=None, response={}, status_code=204
        )


def game_close(*, game: Game, user: User | None) -> GameState:
    """End a game by hand (open-ended Screw Your Neighbour, or a table that stops early):
    the standings become the final ranking."""
    with transaction.atomic():
        locked = _refetch(game, lock=True)
        _check_may_change(user, locked)
        if locked.status == GameStatus.FINISHED:
            raise ConflictError("This game is already over.")
        locked.closed = True
        state = game_state(locked)
        _sync_derived(locked, state, was_finished=False)
        return state


def game_reopen(*, game: Game, user: User | None) -> GameState:
    """Take back an end by hand: the game goes on."""
    with transaction.atomic():
        locked = _refetch(game, lock=True)
        _check_may_change(user, locked)
        if not locked.closed:
            raise ConflictError("This game was not ended by hand, so it cannot be reopened.")
        locked.closed = False
        state = game_state(locked)
        _sync_derived(locked, state, was_finished=locked.status == GameStatus.FINISHED)
        return state


def game_delete(*, game: Game, user: User | None) -> None:
    """Delete a score sheet and everything derived from it."""
    with transaction.atomic():
        locked = _refetch(game, lock=True)
        _check_may_change(user, locked)
        was_finished = locked.status == GameStatus.FINISHED
        league_id = locked.league_id
        locked.delete()
        stats.game_deleted(game_id=game.pk, league_id=league_id, was_finished=was_finished)


def config_of(game: Game) -> dict[str, Any]:
    return game_config(game).as_dict()
