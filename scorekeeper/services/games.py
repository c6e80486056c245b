"""Writes to score sheets. The API and the pages both call these, so they cannot disagree.

Every write locks the game row first (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite takes
its write lock at ``BEGIN IMMEDIATE``), so two phones posting to one game at once are
serialised: no hand is lost or duplicated and hand numbers stay consecutive.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.db.models import Max, prefetch_related_objects
from django.utils import timezone

from games import GameConfig, GameState, HandOutcome, RuleError, Ruleset, get_ruleset
from games.base import hand_context
from scorekeeper.errors import ConflictError, IdempotencyKeyReused, StaleHandError
from scorekeeper.live import notify as live
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
from scorekeeper.selectors.game_rows import last_hand, locked_game_seats
from scorekeeper.selectors.games import (
    can_change_game,
    can_change_league,
    derived_of,
    game_config,
    seat_results,
    stored_outcome,
)
from scorekeeper.selectors.invites import guest_may_change
from scorekeeper.services import stats
from scorekeeper.services.players import check_players_usable
from scorekeeper.validation import MAX_HANDS as MAX_HANDS  # (re-exported)
from scorekeeper.validation import MAX_ID as MAX_ID  # (re-exported: callers import it here)
from scorekeeper.validation import parse_id


@dataclass(frozen=True)
class HandWritten:
    """The outcome of a hand write: the stored hand (None after an undo), the game's new
    state, the engine's outcome of that hand, and the API representation of it.

    ``state`` is the game's state after the write, but its ``hands`` hold only the hands
    the write needed (the last ones): a write never reads the whole game. The number of
    hands is ``state.hands[-1].number`` (0 with no hands); ``game_state`` reads them all."""

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
    start_token: str = "",
) -> Game:
    """Start a score sheet. Seated players join the league if they were not members.
    A ``start_token`` the owner already started a game with is refused by the database
    (``IntegrityError``): the caller opens that game instead."""
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
        start_token=start_token,
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
    seats = list(Seat.objects.filter(game=game))
    _sync_derived(game, get_ruleset(game.ruleset).resume(config, []), seats, was_finished=False)
    return game


def _refetch(game: Game, *, lock: bool = False) -> Game:
    qs = Game.objects.select_for_update() if lock else Game.objects.all()
    fresh = qs.get(pk=game.pk)
    prefetch_related_objects([fresh], "seats__player", "hands")
    return fresh


@dataclass(frozen=True)
class _Locked:
    """A game locked for a write, with what every write needs and nothing that grows
    with the game's length: its seats, configuration and rules."""

    game: Game
    seats: list[Seat]
    config: GameConfig
    rules: Ruleset


def _lock(game: Game, user: User | None, guest: Guest | None = None) -> _Locked:
    """Lock the game row and read it with its seats, in one query (``FOR UPDATE OF``
    the game alone: a game always has seats)."""
    if not 1 <= int(game.pk) <= MAX_ID:
        raise Game.DoesNotExist(f"There is no game {game.pk}.")
    found = locked_game_seats(int(game.pk))
    if found is None:
        raise Game.DoesNotExist(f"There is no game {game.pk}.")
    locked, seats = found
    _check_may_change(user, locked, guest)
    return _Locked(locked, seats, game_config(locked, seats), get_ruleset(locked.ruleset))


def _outcomes_from(at: _Locked, first: int) -> list[HandOutcome]:
    """The stored outcomes of hands ``first`` onwards. Where a hand has none (a game
    imported from a file, or stored before outcomes were), the game is folded once and
    every hand's outcome stored, so later writes find them."""
    hands = list(Hand.objects.filter(game=at.game, number__gte=first).order_by("number"))
    outcomes = [stored_outcome(h) for h in hands]
    known = [o for o in outcomes if o is not None]
    if len(known) == len(hands):
        return known
    every = list(Hand.objects.filter(game=at.game).order_by("number"))
    state = at.rules.play(at.config, [h.input for h in every])
    for hand, outcome in zip(every, state.hands, strict=True):
        hand.derived = derived_of(outcome)
    Hand.objects.bulk_update(every, ["derived"], batch_size=500)
    return [o for o in state.hands if o.number >= first]


def _state_after(at: _Locked, number: int, *, closed: bool = False) -> GameState:
    """The game's state after hand ``number`` (0: before any hand), from that hand's
    stored outcome alone."""
    last = _outcomes_from(at, number)[:1] if number > 0 else []
    return at.rules.resume(at.config, last, closed=closed)


def _current_state(at: _Locked) -> GameState:
    """The game's state now, from its last hand's stored outcome alone."""
    last = last_hand(at.game)
    if last is None:
        return at.rules.resume(at.config, [], closed=at.game.closed)
    outcome = stored_outcome(last)
    kept = [outcome] if outcome is not None else _outcomes_from(at, last.number)
    return at.rules.resume(at.config, kept, closed=at.game.closed)


def _check_may_change(user: User | None, game: Game, guest: Guest | None = None) -> None:
    if guest is not None:
        # Read under the game's lock: a link revoked a moment ago already refuses.
        if not guest_may_change(guest, game):
            raise PermissionDenied("This link no longer lets you change the game.")
        return
    if user is not None and not can_change_game(user, game):
        raise PermissionDenied("Only the game's owner and members of its league may change it.")


def _sync_derived(
    game: Game,
    state: GameState,
    seats: Sequence[Seat] | None = None,
    *,
    was_finished: bool,
    first_changed: int | None = None,
) -> None:
    """Store what league queries need from the engine's state, bump the version and tell
    the phones watching (on commit). ``seats`` are the game's seats when the caller has
    them already; ``first_changed`` the first hand whose row on the sheet changed (none:
    no row did, as when a game is closed or reopened)."""
    game.status = GameStatus.FINISHED if state.finished else GameStatus.IN_PROGRESS
    if state.finished and game.finished_at is None:
        game.finished_at = timezone.now()
    elif not state.finished:
        game.finished_at = None
    game.hand_count = state.hands[-1].number if state.hands else 0
    game.version += 1
    game.save(
        update_fields=["status", "finished_at", "hand_count", "version", "updated_at", "closed"]
    )
    live.game_changed(
        game.pk, game.version, first_changed if first_changed else game.hand_count + 1
    )
    results = seat_results(state)
    changed = []
    for seat in Seat.objects.filter(game=game) if seats is None else seats:
        result = results[seat.player_id]
        if (seat.score, seat.place, seat.won) != (result.score, result.place, result.won):
            seat.score, seat.place, seat.won = result.score, result.place, result.won
            changed.append(seat)
    _save_seat_results(changed)
    stats.game_changed(game, was_finished=was_finished, is_finished=state.finished)


def _save_seat_results(seats: Sequence[Seat]) -> None:
    """Write the seats' derived columns in one statement. On PostgreSQL an
    ``UPDATE … FROM (VALUES …)``: ``bulk_update`` builds a CASE per column and seat,
    which costs a hand POST more CPU than the rest of its queries."""
    if not seats:
        return
    if connection.vendor != "postgresql":
        Seat.objects.bulk_update(seats, ["score", "place", "won"])
        return
    table = connection.ops.quote_name(Seat._meta.db_table)
    rows = ", ".join(["(%s::bigint, %s::integer, %s::integer, %s::boolean)"] * len(seats))
    params: list[Any] = []
    for seat in seats:
        params += [seat.pk, seat.score, seat.place, seat.won]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} AS s SET score = v.score, place = v.place, won = v.won "
            f"FROM (VALUES {rows}) AS v(id, score, place, won) WHERE s.id = v.id",
            params,
        )


def hand_response(outcome: HandOutcome, *, revision: int = 1) -> dict[str, Any]:
    """The API's HAND object: the engine's outcome of the hand, plus the stored input and
    its revision (1 until the hand is corrected)."""
    data = outcome.as_dict()
    data["input"] = dict(outcome.input)
    data["revision"] = revision
    return data


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
    before_write: Callable[[Game, HandOutcome], None] | None = None,
) -> HandWritten:
    """Record the next hand of a game, in one transaction.

    With an ``idempotency_key`` already used on this game, nothing is recorded and the
    first response is returned (``replayed``). With ``expected_number`` (the hand number
    the table entered the hand as), a hand another phone recorded first is not doubled:
    :class:`StaleHandError`. A ``guest`` (who joined by a score link) writes instead of
    a ``user``, and the hand's history names them; so in the two functions below.

    Only the game row, its seats and its last hand are read: the engine continues from
    the last hand's stored outcome, whatever the game's length. ``before_write`` sees the
    scored hand before anything is written and may refuse it by raising (the score sheet
    asks to confirm an unlikely hand so; a replayed key never gets there)."""
    with transaction.atomic():
        at = _lock(game, user, guest)
        locked = at.game
        body_hash = _body_hash(hand_input) if idempotency_key else ""
        if idempotency_key:
            seen = IdempotencyRecord.objects.filter(game=locked, key=idempotency_key).first()
            if seen is not None:
                _check_replayable(seen, body_hash)
                return HandWritten(
                    game=locked,
                    state=_current_state(at),
                    hand=None,
                    outcome=None,
                    response=seen.response,
                    replayed=True,
                    status_code=seen.status_code,
                )
        before = _current_state(at)
        played = before.hands[-1].number if before.hands else 0
        if expected_number is not None and expected_number != played + 1:
            raise StaleHandError(
                f"Hand {expected_number} was already recorded; the next hand is {played + 1}."
            )
        if played >= MAX_HANDS:
            raise ConflictError(
                f"A game holds at most {MAX_HANDS:,} hands: start a new game to play on."
            )
        if before.finished:
            raise ConflictError("This game is over: no more hands can be recorded.")
        if not isinstance(hand_input, Mapping):
            raise RuleError("a hand must be a JSON object")
        state = at.rules.play(at.config, [dict(hand_input)], state=before)
        outcome = state.hands[-1]
        if before_write is not None:
            before_write(locked, outcome)
        hand = _insert_hand(locked, outcome, user, guest)
        _sync_derived(locked, state, at.seats, was_finished=False, first_changed=outcome.number)
        response = hand_response(outcome, revision=hand.revision)
        if idempotency_key:
            IdempotencyRecord.objects.create(
                game=locked, key=idempotency_key, body_hash=body_hash, response=response
            )
        return HandWritten(game=locked, state=state, hand=hand, outcome=outcome, response=response)


def _insert_hand(
    game: Game, outcome: HandOutcome, user: User | None, guest: Guest | None = None
) -> Hand:
    """Store a new hand and its "recorded" revision. A hand number that was undone and
    is recorded again continues its history. On PostgreSQL one statement does it all
    (the revision number, both inserts): the ORM's three queries cost a hand POST more
    CPU than everything else it does."""
    hand = Hand(
        game=game,
        number=outcome.number,
        input=dict(outcome.input),
        derived=derived_of(outcome),
        created_by=user,
        created_at=timezone.now(),
    )
    if connection.vendor != "postgresql":
        hand.revision = 1 + (
            HandRevision.objects.filter(game=game, number=hand.number).aggregate(
                last=Max("revision")
            )["last"]
            or 0
        )
        hand.save()
        HandRevision.objects.create(
            game=game,
            number=hand.number,
            revision=hand.revision,
            action=HandAction.RECORDED,
            input=hand.input,
            user=user,
            guest=guest,
            created_at=hand.created_at,
        )
        return hand
    hands = connection.ops.quote_name(Hand._meta.db_table)
    revisions = connection.ops.quote_name(HandRevision._meta.db_table)
    user_id = user.pk if user is not None else None
    with connection.cursor() as cursor:
        cursor.execute(
            f"""WITH rev AS (
                  SELECT coalesce(max(revision), 0) + 1 AS revision FROM {revisions}
                  WHERE game_id = %(game)s AND number = %(number)s),
                hand AS (
                  INSERT INTO {hands} (game_id, number, input, derived, revision,
                                       created_by_id, created_at, updated_at)
                  SELECT %(game)s, %(number)s, %(input)s::jsonb, %(derived)s::jsonb,
                         rev.revision, %(user)s, %(at)s, %(at)s FROM rev
                  RETURNING id, revision)
                INSERT INTO {revisions} (game_id, number, revision, action, input, user_id,
                                         guest_id, created_at)
                SELECT %(game)s, %(number)s, hand.revision, %(action)s, %(input)s::jsonb,
                       %(user)s, %(guest)s, %(at)s FROM hand
                RETURNING (SELECT id FROM hand), revision""",
            {
                "game": game.pk,
                "number": hand.number,
                "input": json.dumps(hand.input),
                "derived": json.dumps(hand.derived),
                "user": user_id,
                "guest": guest.pk if guest is not None else None,
                "at": hand.created_at,
                "action": HandAction.RECORDED.value,
            },
        )
        hand.pk, hand.revision = cursor.fetchone()
    hand.updated_at = hand.created_at
    hand._state.adding = False
    hand._state.db = connection.alias
    return hand


def _refold(at: _Locked, number: int, hand_input: Mapping[str, Any]) -> list[HandOutcome]:
    """Fold hand ``number`` with a new input and every hand after it again, once, from
    the stored outcome of the hand before. A correction that ends the game before the
    hands recorded after it clashes with the sheet (409), rather than being bad input:
    those hands must be undone first."""
    stored = _outcomes_from(at, max(number - 1, 1))
    start = [stored.pop(0)] if number > 1 else []
    inputs = [dict(hand_input), *(o.input for o in stored[1:])]
    last = number + len(inputs) - 1
    state = at.rules.resume(at.config, start)
    folded: list[HandOutcome] = []
    for current, raw in enumerate(inputs, start=number):
        if state.finished:
            later = last - current + 1
            raise ConflictError(
                f"With this correction the game ends after hand {current - 1}, but {later} "
                f"more hand{'s' if later != 1 else ''} follow{'s' if later == 1 else ''}: "
                "undo them first."
            )
        try:
            state = at.rules.play(at.config, [raw], state=state)
        except RuleError as exc:
            raise hand_context(current, exc, last) from None
        folded.append(state.hands[-1])
    return folded


def hand_replace(
    *,
    game: Game,
    number: int,
    user: User | None,
    hand_input: Mapping[str, Any],
    guest: Guest | None = None,
    before_write: Callable[[Game, HandOutcome], None] | None = None,
) -> HandWritten:
    """Correct a hand's input; every total after it is recomputed (the engine folds the
    hands from this one on, once). The earlier input is kept in the hand's revision
    history. ``before_write`` as for :func:`hand_record`."""
    with transaction.atomic():
        at = _lock(game, user, guest)
        locked = at.game
        target = Hand.objects.filter(game=locked, number=number).first()
        if target is None:
            raise Hand.DoesNotExist(f"This game has no hand {number}.")
        if not isinstance(hand_input, Mapping):
            raise RuleError("a hand must be a JSON object")
        was_finished = locked.status == GameStatus.FINISHED
        folded = _refold(at, number, hand_input)
        outcome = folded[0]
        if before_write is not None and outcome.input != target.input:
            before_write(locked, outcome)
        state = at.rules.resume(at.config, folded[-1:], closed=locked.closed)
        if outcome.input != target.input:
            target.input = dict(outcome.input)
            target.revision += 1
            target.derived = derived_of(outcome)
            target.save(update_fields=["input", "derived", "revision", "updated_at"])
            later = list(Hand.objects.filter(game=locked, number__gt=number).order_by("number"))
            for hand, after in zip(later, folded[1:], strict=True):
                hand.derived = derived_of(after)
            Hand.objects.bulk_update(later, ["derived"], batch_size=500)
            HandRevision.objects.create(
                game=locked,
                number=number,
                revision=target.revision,
                action=HandAction.CORRECTED,
                input=target.input,
                user=user,
                guest=guest,
            )
            _sync_derived(locked, state, at.seats, was_finished=was_finished, first_changed=number)
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
        at = _lock(game, user, guest)
        locked = at.game
        target = Hand.objects.filter(game=locked, number=number).first()
        if target is None:
            raise Hand.DoesNotExist(f"This game has no hand {number}.")
        last = Hand.objects.filter(game=locked).order_by("-number").values_list("number")[0][0]
        if number != last:
            raise ConflictError(
                f"Only the last hand ({last}) can be undone; correct hand {number} instead."
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
        state = _state_after(at, number - 1)
        target.delete()
        locked.closed = False
        _sync_derived(locked, state, at.seats, was_finished=was_finished, first_changed=number)
        return HandWritten(
            game=locked, state=state, hand=None, outcome=None, response={}, status_code=204
        )


def game_close(*, game: Game, user: User | None) -> GameState:
    """End a game by hand (open-ended Screw Your Neighbour, or a table that stops early):
    the standings become the final ranking. The state's ``hands`` hold the last one only."""
    with transaction.atomic():
        at = _lock(game, user)
        locked = at.game
        if locked.status == GameStatus.FINISHED:
            raise ConflictError("This game is already over.")
        locked.closed = True
        state = _current_state(at)
        _sync_derived(locked, state, at.seats, was_finished=False)
        return state


def game_reopen(*, game: Game, user: User | None) -> GameState:
    """Take back an end by hand: the game goes on. The state's ``hands`` hold the last
    one only."""
    with transaction.atomic():
        at = _lock(game, user)
        locked = at.game
        if not locked.closed:
            raise ConflictError("This game was not ended by hand, so it cannot be reopened.")
        locked.closed = False
        state = _current_state(at)
        _sync_derived(locked, state, at.seats, was_finished=locked.status == GameStatus.FINISHED)
        return state


def game_delete(*, game: Game, user: User | None) -> None:
    """Delete a score sheet and everything derived from it."""
    with transaction.atomic():
        locked = _refetch(game, lock=True)
        _check_may_change(user, locked)
        was_finished = locked.status == GameStatus.FINISHED
        league_id = locked.league_id
        locked.delete()
        live.game_changed(game.pk, None)
        stats.game_deleted(game_id=game.pk, league_id=league_id, was_finished=was_finished)


def config_of(game: Game) -> dict[str, Any]:
    return game_config(game).as_dict()
