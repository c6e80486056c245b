"""Writes to score sheets. The API and the pages both call these, so they cannot disagree.

Every write locks the game row first (:mod:`scorekeeper.services.locked_game`), so two
phones posting to one game at once are serialised: no hand is lost or duplicated and hand
numbers stay consecutive.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import GameState, HandOutcome, RuleError, get_ruleset
from games.base import hand_context
from games.impossible import check_possible
from scorekeeper.errors import ConflictError, StaleHandError
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
from scorekeeper.ratings.hooks import game_deleted
from scorekeeper.ratings.replay import lock_league
from scorekeeper.retry import once_more_on_deadlock
from scorekeeper.selectors.games import derived_of, version_key
from scorekeeper.services.hand_rows import insert_hand
from scorekeeper.services.idempotency import body_fingerprint, check_replayable
from scorekeeper.services.league_members import league_to_record_in
from scorekeeper.services.locked_game import (
    LockedGame,
    check_may,
    current_state,
    lock_game,
    outcomes_from,
    refetch,
    state_after,
    state_and_revision,
    sync_derived,
)
from scorekeeper.services.nights import night_moved_on, night_usable
from scorekeeper.services.players import check_players_usable
from scorekeeper.services.unlikely import check_likely
from scorekeeper.validation import MAX_HANDS as MAX_HANDS  # (re-exported)
from scorekeeper.validation import MAX_ID as MAX_ID  # (re-exported: callers import it here)
from scorekeeper.validation import parse_id


@dataclass(frozen=True)
class HandWritten:
    """The outcome of a hand write: the stored hand (None after an undo), the game's new
    state and the engine's outcome of that hand.

    ``state`` is the game's state after the write, but its ``hands`` hold only the hands
    the write folded or read (the last ones, up to the last hand): a write never reads
    the whole game. The number of hands is ``state.hands[-1].number`` (0 with no hands);
    ``selectors.games.with_earlier_hands`` adds the earlier ones a caller holds."""

    game: Game
    state: GameState
    hand: Hand | None
    outcome: HandOutcome | None
    #: The game's ``version`` when the write locked it: a caller that read the game at
    #: this version holds every hand before ``state.hands``, as they still are.
    base_version: int = 0
    #: The game's ``version_key`` when the write locked it: what is kept in a cache for
    #: the version before the write (the sheet's rows) is found by it.
    base_key: str = ""
    #: What the caller's ``answer`` made of the recorded hand (see :func:`hand_record`).
    answer: Mapping[str, Any] | None = None
    #: A retry of an Idempotency-Key: the first request's record, whose ``response`` is
    #: what was answered then. Nothing was written.
    replay: IdempotencyRecord | None = None

    @property
    def replayed(self) -> bool:
        return self.replay is not None


def _as_id(value: object, field: str, what: str) -> int:
    if isinstance(value, Player | League):
        return int(value.pk)
    return parse_id(value, field, what)


@once_more_on_deadlock
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
    night: int | None = None,
    start_token: str = "",
) -> Game:
    """Start a score sheet. Seated players join the league if they were not members.
    A ``start_token`` the owner already started a game with is refused by the database
    (``IntegrityError``): the caller opens that game instead."""
    rules = get_ruleset(ruleset)
    if isinstance(players, str | bytes) or not isinstance(players, Sequence):
        raise RuleError(_("players must be a list of player ids in seating order"), "players")
    ids = [_as_id(p, "players", "player") for p in players]
    # Players belong to someone: only the owner's players, or its leagues', sit here.
    check_players_usable(owner, ids, "players")
    dealer_id = None if first_dealer is None else _as_id(first_dealer, "first_dealer", "player")
    config = rules.configure(
        players=ids, variant=variant, options=options, teams=teams, first_dealer=dealer_id
    )
    league_obj: League | None = None
    if league is not None:
        league_obj = league_to_record_in(owner, _as_id(league, "league", "league"))
    night_obj = None if night is None else night_usable(owner, night)
    assert config.first_dealer is not None
    game = Game.objects.create(
        ruleset=rules.slug,
        league_scope=rules.league_scope(config.options),
        variant=config.variant or "",
        options=dict(config.options),
        teams=[list(t) for t in config.teams] if config.teams else None,
        first_dealer_id=config.first_dealer,
        league=league_obj,
        owner=owner,
        night=night_obj,
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
    sync_derived(game, get_ruleset(game.ruleset).resume(config, []), seats, was_finished=False)
    if night_obj is not None:
        night_moved_on(night_obj, game)
    return game


@once_more_on_deadlock
def hand_record(
    *,
    game: Game,
    user: User | None,
    hand_input: Mapping[str, Any],
    idempotency_key: str | None = None,
    expected_number: int | None = None,
    guest: Guest | None = None,
    confirm: str | None = None,
    answer: Callable[[HandOutcome, int], Mapping[str, Any]] | None = None,
) -> HandWritten:
    """Record the next hand of a game, in one transaction.

    ``answer(outcome, revision)`` is what the caller answers for the hand (the API's hand
    object): it is made here so that, with an ``idempotency_key``, it is kept with the
    key in the same transaction. A key already used on this game records nothing and
    gives back the first request's record (``replay``). With ``expected_number`` (the
    hand number the table entered the hand as), a hand another phone recorded first is
    not doubled: :class:`StaleHandError`. A ``guest`` (who joined by a score link)
    writes instead of a ``user``, and the hand's history names them; so in the two
    functions below.

    Only the game row, its seats and its last hand are read: the engine continues from
    the last hand's stored outcome, whatever the game's length. With ``confirm`` (what
    the table confirmed, see ``services.unlikely``) an unlikely hand is refused with
    :class:`UnlikelyHand` unless confirmed (a replayed key never gets there)."""
    with transaction.atomic():
        at = lock_game(game, user, guest)
        locked = at.game
        base, base_key = locked.version, version_key(locked)
        body_hash = body_fingerprint(hand_input) if idempotency_key else ""
        if idempotency_key:
            seen = IdempotencyRecord.objects.filter(game=locked, key=idempotency_key).first()
            if seen is not None:
                check_replayable(seen, body_hash)
                state = current_state(at)
                return HandWritten(
                    locked, state, None, None, base_version=base, base_key=base_key, replay=seen
                )
        before, redone = state_and_revision(at)
        played = before.hands[-1].number if before.hands else 0
        if expected_number is not None and expected_number != played + 1:
            raise StaleHandError(
                _("Hand %(hand)s was already recorded; the next hand is %(next)s.")
                % {"hand": expected_number, "next": played + 1}
            )
        if played >= MAX_HANDS:
            raise ConflictError(
                _("A game holds at most %(limit)s hands: start a new game to play on.")
                % {"limit": number_format(MAX_HANDS, force_grouping=True)}
            )
        if before.finished:
            raise ConflictError(_("This game is over: no more hands can be recorded."))
        if not isinstance(hand_input, Mapping):
            raise RuleError(_("a hand must be a JSON object"))
        state = at.rules.play(at.config, [dict(hand_input)], state=before)
        outcome = state.hands[-1]
        check_possible(at.config, outcome.input)
        at.rules.check_entry(at.config, outcome)
        check_likely(at, outcome, confirm)
        hand = insert_hand(locked, outcome, user, guest, last_revision=redone)
        sync_derived(locked, state, at.seats, was_finished=False, first_changed=outcome.number)
        answered = dict(answer(outcome, hand.revision)) if answer is not None else None
        if idempotency_key:
            # Without an answer (a page's form) the key keeps what a retry is checked by.
            kept = answered or {"number": outcome.number, "revision": hand.revision}
            IdempotencyRecord.objects.create(
                game=locked, key=idempotency_key, body_hash=body_hash, response=kept
            )
        return HandWritten(
            locked, state, hand, outcome, base_version=base, base_key=base_key, answer=answered
        )


def _refold(at: LockedGame, number: int, hand_input: Mapping[str, Any]) -> list[HandOutcome]:
    """Fold hand ``number`` with a new input and every hand after it again, once, from
    the stored outcome of the hand before. A correction that ends the game before the
    hands recorded after it clashes with the sheet (409), rather than being bad input:
    those hands must be undone first."""
    stored = outcomes_from(at, max(number - 1, 1))
    start = [stored.pop(0)] if number > 1 else []
    inputs = [dict(hand_input), *(o.input for o in stored[1:])]
    last = number + len(inputs) - 1
    state = at.rules.resume(at.config, start)
    folded: list[HandOutcome] = []
    for current, raw in enumerate(inputs, start=number):
        if state.finished:
            later = last - current + 1
            raise ConflictError(
                ngettext(
                    "With this correction the game ends after hand %(hand)s, but %(later)s "
                    "more hand follows: undo them first.",
                    "With this correction the game ends after hand %(hand)s, but %(later)s "
                    "more hands follow: undo them first.",
                    later,
                )
                % {"hand": current - 1, "later": later}
            )
        try:
            state = at.rules.play(at.config, [raw], state=state)
        except RuleError as exc:
            raise hand_context(current, exc, last) from None
        folded.append(state.hands[-1])
    return folded


@once_more_on_deadlock
def hand_replace(
    *,
    game: Game,
    number: int,
    user: User | None,
    hand_input: Mapping[str, Any],
    guest: Guest | None = None,
    confirm: str | None = None,
) -> HandWritten:
    """Correct a hand's input; every total after it is recomputed (the engine folds the
    hands from this one on, once). The earlier input is kept in the hand's revision
    history. ``confirm`` as for :func:`hand_record`; the state's ``hands`` are the
    folded ones (this hand onwards)."""
    with transaction.atomic():
        at = lock_game(game, user, guest, may="change")
        locked = at.game
        base, base_key = locked.version, version_key(locked)
        target = Hand.objects.filter(game=locked, number=number).first()
        if target is None:
            raise Hand.DoesNotExist(f"This game has no hand {number}.")
        if not isinstance(hand_input, Mapping):
            raise RuleError(_("a hand must be a JSON object"))
        was_finished = locked.status == GameStatus.FINISHED
        folded = _refold(at, number, hand_input)
        outcome = folded[0]
        if outcome.input != target.input:
            check_possible(at.config, outcome.input)
            at.rules.check_entry(at.config, outcome)
            check_likely(at, outcome, confirm)
        state = at.rules.resume(at.config, folded, closed=locked.closed)
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
            if number not in locked.corrected_hands:
                locked.corrected_hands = sorted([*locked.corrected_hands, number])
            sync_derived(locked, state, at.seats, was_finished=was_finished, first_changed=number)
        return HandWritten(locked, state, target, outcome, base_version=base, base_key=base_key)


@once_more_on_deadlock
def hand_undo(
    *, game: Game, number: int, user: User | None, guest: Guest | None = None
) -> HandWritten:
    """Remove the last hand (an earlier one cannot go: hand numbers fix dealers and dirt
    ranks). A game ended by hand opens again."""
    with transaction.atomic():
        at = lock_game(game, user, guest, may="change")
        locked = at.game
        base, base_key = locked.version, version_key(locked)
        target = Hand.objects.filter(game=locked, number=number).first()
        if target is None:
            raise Hand.DoesNotExist(f"This game has no hand {number}.")
        last = Hand.objects.filter(game=locked).order_by("-number").values_list("number")[0][0]
        if number != last:
            raise ConflictError(
                _("Only the last hand (%(last)s) can be undone; correct hand %(hand)s instead.")
                % {"last": last, "hand": number}
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
        state = state_after(at, number - 1)
        target.delete()
        locked.closed = False
        # A hand entered again under this number is a new one, not a correction.
        locked.corrected_hands = [n for n in locked.corrected_hands if n != number]
        if number > locked.undone_upto:
            locked.undone_upto = number
            Game.objects.filter(pk=locked.pk).update(undone_upto=number)
        sync_derived(locked, state, at.seats, was_finished=was_finished, first_changed=number)
        return HandWritten(locked, state, None, None, base_version=base, base_key=base_key)


@once_more_on_deadlock
def game_close(*, game: Game, user: User | None) -> GameState:
    """End a game by hand (open-ended Screw Your Neighbour, or a table that stops early):
    the standings become the final ranking. The state's ``hands`` hold the last one only."""
    with transaction.atomic():
        at = lock_game(game, user, may="manage")
        locked = at.game
        if locked.status == GameStatus.FINISHED:
            raise ConflictError(_("This game is already over."))
        locked.closed = True
        state = current_state(at)
        sync_derived(locked, state, at.seats, was_finished=False)
        return state


@once_more_on_deadlock
def game_reopen(*, game: Game, user: User | None) -> GameState:
    """Take back an end by hand: the game goes on. The state's ``hands`` hold the last
    one only."""
    with transaction.atomic():
        at = lock_game(game, user, may="manage")
        locked = at.game
        if not locked.closed:
            raise ConflictError(_("This game was not ended by hand, so it cannot be reopened."))
        locked.closed = False
        state = current_state(at)
        sync_derived(locked, state, at.seats, was_finished=locked.status == GameStatus.FINISHED)
        return state


@once_more_on_deadlock
def game_delete(*, game: Game, user: User | None) -> None:
    """Delete a score sheet and everything derived from it."""
    with transaction.atomic():
        locked = refetch(game, lock=True)
        check_may(locked, user, None, "manage")
        was_finished = locked.status == GameStatus.FINISHED
        league_id = locked.league_id
        if was_finished and league_id is not None:
            lock_league(league_id)  # before the row's key lock (the lock order: replay.py)
        locked.delete()
        live.game_changed(game.pk, None)
        game_deleted(game_id=game.pk, league_id=league_id, was_finished=was_finished)
