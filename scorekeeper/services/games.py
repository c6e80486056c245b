"""Writes to score sheets. The API and the pages both call these, so they cannot disagree.

Every write locks the game row first (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite takes
its write lock at ``BEGIN IMMEDIATE``), so two phones posting to one game at once are
serialised: no hand is lost or duplicated and hand numbers stay consecutive.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max, prefetch_related_objects
from django.utils import timezone

from games import GameState, HandOutcome, RuleError, get_ruleset
from scorekeeper.errors import ConflictError, IdempotencyKeyReused, StaleHandError
from scorekeeper.models import (
    Game,
    GameStatus,
    Guest,
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
from scorekeeper.selectors.invites import guest_may_change
from scorekeeper.services import stats
from scorekeeper.services.players import check_players_usable
from scorekeeper.validation import MAX_ID as MAX_ID  # (re-exported: callers import it here)
from scorekeeper.validation import parse_id

#: The most hands a game holds: a longer sheet is abuse, not a game night (409 after).
MAX_HANDS = 1000


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
    return parse_id(value, field, what)


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
) -> Game:
    """Start a score sheet. Seated players join the league if they were not members."""
    rules = get_ruleset(ruleset)
    if isinstance(players, str | bytes) or not isinstance(players, Sequence):
        raise RuleError("players must be a list of player ids in seating order", "players")
    ids = [_as_id(p, "players", "player") for p in players]
    # Players belong to someone: only the owner's players, or its leagues', sit here.
    check_players_usable(owner, ids, "players")
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
    )
    Seat.objects.bulk_create(
        Seat(game=game, player_id=pid, position=i, team=config.team_of(pid))
        for i, pid in enumerate(config.players)
    )
    if league_obj is not None:
        # Another game of the league may seat the same new player at the same moment:
        # ON CONFLICT DO NOTHING keeps the one membership rather than failing.
        Membership.objects.bulk_create(
            (Membership(league=league_obj, player_id=pid) for pid in config.players),
            ignore_conflicts=True,
        )
    _sync_derived(game, game_state(_refetch(game)), was_finished=False)
    return game


def _refetch(game: Game, *, lock: bool = False) -> Game:
    qs = Game.objects.select_for_update() if lock else Game.objects.all()
    fresh = qs.get(pk=game.pk)
    prefetch_related_objects([fresh], "seats__player", "hands")
    return fresh


def _check_may_change(user: User | None, game: Game, guest: Guest | None = None) -> None:
    if guest is not None:
        # Read under the game's lock: a link revoked a moment ago already refuses.
        if not guest_may_change(guest, game):
            raise PermissionDenied("This link no longer lets you change the game.")
        return
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


def _body_hash(hand_input: object) -> str:
    """A fingerprint of a hand's body as sent: the same JSON (whatever its key order or
    spacing) gives the same hash."""
    try:
        text = json.dumps(hand_input, sort_keys=True, separators=(",", ":"), default=str)
    except (TypeError, ValueError):
        text = repr(hand_input)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _check_replayable(seen: IdempotencyRecord, body_hash: str) -> None:
    """A retry replays the first response only when it is the same request, and only
    while the hand it recorded is still there.

    Another body under a used key is a client bug (422: nothing is recorded). If the
    hand was undone since, replaying "201 hand N" would report a hand that no longer
    exists, and recording the body again would bring back a hand the table took back:
    409, and a new key records it again."""
    if seen.body_hash and seen.body_hash != body_hash:
        raise IdempotencyKeyReused(
            "This Idempotency-Key was already used on this game with a different body: "
            "use a new key for a new hand."
        )
    number, revision = seen.response.get("number"), seen.response.get("revision")
    undone = HandRevision.objects.filter(
        game_id=seen.game_id, number=number, action=HandAction.UNDONE, revision__gt=revision or 0
    )
    if isinstance(number, int) and undone.exists():
        raise ConflictError(
            f"The hand recorded with this Idempotency-Key (hand {number}) was undone since: "
            "nothing was recorded. To record it again, send it with a new key."
        )


def hand_record(
    *,
    game: Game,
    user: User | None,
    hand_input: Mapping[str, Any],
    idempotency_key: str | None = None,
    expected_number: int | None = None,
    guest: Guest | None = None,
) -> HandWritten:
    """Record the next hand of a game, in one transaction.

    With an ``idempotency_key`` already used on this game, nothing is recorded and the
    first response is returned (``replayed``). With ``expected_number`` (the hand number
    the table entered the hand as), a hand another phone recorded first is not doubled:
    :class:`StaleHandError`. A ``guest`` (who joined by a score link) writes instead of
    a ``user``, and the hand's history names them; so in the two functions below."""
    with transaction.atomic():
        locked = _refetch(game, lock=True)
        _check_may_change(user, locked, guest)
        body_hash = _body_hash(hand_input) if idempotency_key else ""
        if idempotency_key:
            seen = IdempotencyRecord.objects.filter(game=locked, key=idempotency_key).first()
            if seen is not None:
                _check_replayable(seen, body_hash)
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
        if len(inputs) >= MAX_HANDS:
            raise ConflictError(
                f"A game holds at most {MAX_HANDS:,} hands: start a new game to play on."
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
            guest=guest,
        )
        _sync_derived(locked, state, was_finished=False)
        response = hand_response(outcome, revision=hand.revision)
        if idempotency_key:
            IdempotencyRecord.objects.create(
                game=locked, key=idempotency_key, body_hash=body_hash, response=response
            )
        return HandWritten(game=locked, state=state, hand=hand, outcome=outcome, response=response)


def hand_replace(
    *,
    game: Game,
    number: int,
    user: User | None,
    hand_input: Mapping[str, Any],
    guest: Guest | None = None,
) -> HandWritten:
    """Correct a hand's input; every total after it is recomputed. The earlier input is
    kept in the hand's revision history."""
    with transaction.atomic():
        locked = _refetch(game, lock=True)
        _check_may_change(user, locked, guest)
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
                guest=guest,
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


def hand_undo(
    *, game: Game, number: int, user: User | None, guest: Guest | None = None
) -> HandWritten:
    """Remove the last hand (an earlier one cannot go: hand numbers fix dealers and dirt
    ranks). A game ended by hand opens again."""
    with transaction.atomic():
        locked = _refetch(game, lock=True)
        _check_may_change(user, locked, guest)
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
            guest=guest,
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
