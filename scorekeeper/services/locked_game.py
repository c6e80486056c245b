"""A game locked for a write, and its state from the stored outcomes of its last hands.

Every write locks the game row first (``SELECT … FOR NO KEY UPDATE`` on PostgreSQL, then
the league row if its ratings change: ``lock_league`` has the order; SQLite takes its
write lock at ``BEGIN IMMEDIATE``) and reads only what does not grow with the game's
length: the game, its seats and the last hand's stored outcome. After the write,
:func:`sync_derived` stores what league queries need and tells the watching phones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import Max, prefetch_related_objects
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import GameConfig, GameState, HandOutcome, Ruleset, get_ruleset
from scorekeeper.live import notify as live
from scorekeeper.models import Game, GameStatus, Guest, Hand, HandRevision, Seat
from scorekeeper.ratings.hooks import game_changed
from scorekeeper.selectors.access import GameAccess, GuestLink, game_access
from scorekeeper.selectors.games import (
    derived_of,
    game_config,
    last_hand_of,
    last_outcome,
    seat_results,
    stored_outcome,
)
from scorekeeper.validation import MAX_ID


def refetch(game: Game, *, lock: bool = False) -> Game:
    qs = Game.objects.select_for_update(no_key=True) if lock else Game.objects.all()
    fresh = qs.get(pk=game.pk)
    prefetch_related_objects([fresh], "seats__player", "hands")
    return fresh


@dataclass(frozen=True)
class LockedGame:
    """A game locked for a write, with what every write needs and nothing that grows
    with the game's length: its seats, configuration and rules."""

    game: Game
    seats: list[Seat]
    config: GameConfig
    rules: Ruleset


def lock_game(
    game: Game, user: User | None, guest: Guest | None = None, *, may: str = "record"
) -> LockedGame:
    """Lock the game row and read it with its seats, in one query (``FOR NO KEY UPDATE
    OF`` the game alone: a game always has seats), and check once more that the writer
    ``may`` do this (:func:`check_may`)."""
    if not 1 <= int(game.pk) <= MAX_ID:
        raise Game.DoesNotExist(f"There is no game {game.pk}.")
    seats = sorted(
        # Sorted here, not by the query: a few seats, and no ORDER BY to build.
        Seat.objects.select_related("game")
        .select_for_update(of=("game",), no_key=True)
        .filter(game_id=game.pk)
        .order_by(),
        key=lambda seat: seat.position,
    )
    if not seats:
        raise Game.DoesNotExist(f"There is no game {game.pk}.")
    locked = seats[0].game
    for seat in seats:
        seat.game = locked
    check_may(locked, user, guest, may)
    return LockedGame(locked, seats, game_config(locked, seats), get_ruleset(locked.ruleset))


def outcomes_from(at: LockedGame, first: int) -> list[HandOutcome]:
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


def state_after(at: LockedGame, number: int, *, closed: bool = False) -> GameState:
    """The game's state after hand ``number`` (0: before any hand), from that hand's
    stored outcome alone."""
    last = outcomes_from(at, number)[:1] if number > 0 else []
    return at.rules.resume(at.config, last, closed=closed)


def current_state(at: LockedGame) -> GameState:
    """The game's state now, from its last hand's stored outcome alone."""
    return state_and_revision(at)[0]


def state_and_revision(at: LockedGame) -> tuple[GameState, int]:
    """The game's state now, from its last hand's stored outcome alone, and the last
    revision the next hand's number already had (0: none; it was recorded and undone
    before when not 0). A number above the highest ever undone (the game row keeps it)
    has none. The last hand's outcome is the game row's (``Game.last_hand``); a game
    that keeps none (no hand yet, or imported) reads its last hand."""
    kept = last_outcome(at.game)
    if kept is not None:
        number = kept.number
    else:
        last = (
            Hand.objects.filter(game=at.game)
            .only("game_id", "number", "input", "derived")
            .order_by("-number")
            .first()
        )
        number = last.number if last is not None else 0
        if last is not None:
            kept = stored_outcome(last)
    redone = 0
    if number + 1 <= at.game.undone_upto:
        found = HandRevision.objects.filter(game=at.game, number=number + 1).aggregate(
            last=Max("revision")
        )["last"]
        redone = found or 0
    if number == 0:
        return at.rules.resume(at.config, [], closed=at.game.closed), redone
    outcomes = [kept] if kept is not None else outcomes_from(at, number)
    return at.rules.resume(at.config, outcomes, closed=at.game.closed), redone


#: What a writer must be allowed (``selectors.access.GameAccess``) for each kind of write.
MAY = {
    "record": (
        "may_record",
        gettext_noop(
            "Only the game's owner, its league's owner, admins and members who record, and "
            "guests with a score link may enter hands."
        ),
    ),
    "change": (
        "may_change",
        gettext_noop(
            "Only the game's owner and its league's owner and admins may change a finished game."
        ),
    ),
    "manage": (
        "may_manage",
        gettext_noop("Only the game's owner and its league's owner and admins may do this."),
    ),
}


def check_may(game: Game, user: User | None, guest: Guest | None, may: str) -> GameAccess | None:
    """The writer's access to the locked ``game``, decided again (a link revoked or a
    membership ended a moment ago already refuses): ``PermissionDenied`` unless it
    allows ``may`` (see :data:`MAY`). No writer at all is the site itself (demo data,
    imports, the admin): None, allowed."""
    if user is None and guest is None:
        return None
    link = GuestLink.of_guest(guest) if guest is not None else None
    access = game_access(game, user if guest is None else None, link)
    allowed, refusal = MAY[may]
    if getattr(access, allowed):
        return access
    if guest is not None and not access.may_record:
        refusal = gettext_noop("This link no longer lets you change the game.")
    raise PermissionDenied(_(refusal))


#: The game's columns every write saves (:func:`sync_derived`).
DERIVED_FIELDS = [
    *("status", "finished_at", "hand_count", "version", "updated_at", "closed"),
    "corrected_hands",
    "last_hand",
]


def sync_derived(
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
    game.last_hand = last_hand_of(state.hands[-1] if state.hands else None)
    game.version += 1
    game.updated_at = timezone.now()
    # update(), not save(): the same statement without the model's save machinery.
    Game.objects.filter(pk=game.pk).update(**{f: getattr(game, f) for f in DERIVED_FIELDS})
    live.game_changed(
        game.pk,
        game.version,
        first_changed if first_changed else game.hand_count + 1,
        f"{game.updated_at.timestamp()}",
    )
    results = seat_results(state)
    for seat in Seat.objects.filter(game=game) if seats is None else seats:
        result = results[seat.player_id]
        if (seat.score, seat.place, seat.won) != (result.score, result.place, result.won):
            seat.score, seat.place, seat.won = result.score, result.place, result.won
            # An UPDATE per changed seat: one UPDATE with a CASE per column and seat
            # (bulk_update's, or written out) cost a hand POST more CPU than these few
            # short statements (2026-11-27: API hand POST 0.34-0.36 against 0.38-0.40).
            Seat.objects.filter(pk=seat.pk).update(
                score=result.score, place=result.place, won=result.won
            )
    game_changed(game, was_finished=was_finished, is_finished=state.finished)
