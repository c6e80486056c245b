"""Reads about games: which a user may list, and a stored game's state from the engine
(who may do what with one game is ``selectors.access``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, Prefetch, Q, QuerySet, TextField, prefetch_related_objects
from django.db.models.functions import MD5, Cast, Concat

from games import GameConfig, GameState, HandOutcome, get_ruleset
from scorekeeper.models import Game, Hand, HandRevision, League, Membership, Player, Seat
from scorekeeper.selectors.league_roles import league_access


def leagues_visible_to(user: User | AnonymousUser) -> QuerySet[League]:
    """Leagues a user owns or belongs to (through the player linked to their account)."""
    if not user.is_authenticated:
        return League.objects.none()
    if getattr(user, "is_superuser", False):
        return League.objects.all()
    # A subquery, not a join: no DISTINCT, and it runs on every league request.
    member_of = Membership.objects.filter(player__user_id=user.pk).values("league_id")
    return League.objects.filter(Q(owner_id=user.pk) | Q(pk__in=member_of))


def players_usable_by(user: User | AnonymousUser) -> QuerySet[Player]:
    """Players a user may seat in a game or add to a league, and that lists, pickers
    and searches offer: the player of their own account, the players they created,
    and the members of the leagues they may change (own or belong to)."""
    if not user.is_authenticated:
        return Player.objects.none()
    if getattr(user, "is_superuser", False):
        return Player.objects.all()
    # Subqueries, not joins: no duplicates, so no DISTINCT.
    league_ids = leagues_visible_to(user).values("id")
    members = Membership.objects.filter(league_id__in=league_ids).values("player_id")
    return Player.objects.filter(Q(user_id=user.pk) | Q(created_by_id=user.pk) | Q(pk__in=members))


def player_visible_to(user: User | AnonymousUser, player_id: int) -> Player | None:
    """A player whose page a user may open: one they may use, or one who sat at a game
    they can see (a sheet links every name at the table)."""
    player = players_usable_by(user).filter(pk=player_id).first()
    if player is not None or not user.is_authenticated:
        return player
    seated = Seat.objects.filter(player_id=player_id, game__in=games_visible_to(user).values("id"))
    return Player.objects.filter(pk=player_id).filter(Exists(seated)).first()


def games_visible_to(user: User | AnonymousUser) -> QuerySet[Game]:
    """Games a user may see: their own, their leagues', and those they sat at."""
    if not user.is_authenticated:
        return Game.objects.none()
    if getattr(user, "is_superuser", False):
        return Game.objects.all()
    league_ids = leagues_visible_to(user).values("id")
    return Game.objects.filter(
        Q(owner_id=user.pk) | Q(league_id__in=league_ids) | Q(seats__player__user_id=user.pk)
    ).distinct()


def can_change_league(user: User | AnonymousUser, league: League) -> bool:
    """Whether ``user`` may start games in ``league`` (its owner, admins and recorders:
    ``selectors.access``)."""
    return league_access(user, league).may_record


def version_key(game: Game) -> str:
    """The game as it is at one version, for what is kept in a cache per version: its id,
    its version and the moment it was saved (which tells it apart from an earlier game
    that had its id). Every write to its hands or its players makes a new version."""
    return f"{game.pk}:{game.version}:{game.updated_at.timestamp()}"


def game_config(game: Game, seats: Sequence[Seat] | None = None) -> GameConfig:
    """The engine's configuration of a stored game (its prefetched seats, or ``seats``)."""
    seats = sorted(game.seats.all() if seats is None else seats, key=lambda s: s.position)
    teams = game.teams or None
    return GameConfig(
        ruleset=game.ruleset,
        players=tuple(s.player_id for s in seats),
        variant=game.variant or None,
        options=dict(game.options),
        teams=tuple(tuple(t) for t in teams) if teams else None,
        first_dealer=game.first_dealer_id,
    )


@dataclass(frozen=True)
class SeatResult:
    """A seat's derived columns, as the engine's state gives them."""

    score: int
    place: int | None
    won: bool


def seat_results(state: GameState) -> dict[int, SeatResult]:
    """Each player's score, final place (only once the game is over) and whether they
    won: what ``Seat`` stores so league queries need not replay games."""
    place_of = {pid: row.rank for row in state.standings for pid in row.players}
    winners = set(state.winners)
    return {
        pid: SeatResult(
            score=int(state.scores.get(pid, 0)),
            place=place_of.get(pid) if state.finished else None,
            won=pid in winners,
        )
        for pid in state.config.players
    }


def game_hand_inputs(game: Game) -> list[dict[str, Any]]:
    return [h.input for h in sorted(game.hands.all(), key=lambda h: h.number)]


#: The keys of a stored outcome that are not the ruleset's own facts (``extras``).
_OUTCOME_KEYS = frozenset(
    {"number", "dealer", "winner", "points", "totals", "team_points", "carry"}
)


def stored_outcome(hand: Hand) -> HandOutcome | None:
    """The engine's outcome of a stored hand, from ``Hand.derived`` (None when it was
    never computed, e.g. a hand imported from a file)."""
    data = hand.derived
    if not data or data.get("number") != hand.number or "carry" not in data:
        return None
    team_points = data.get("team_points")
    return HandOutcome(
        hand.number,
        data["dealer"],
        data["winner"],
        hand.input,
        {row["player"]: row["points"] for row in data["points"]},
        {row["player"]: row["score"] for row in data["totals"]},
        tuple(row["points"] for row in team_points) if team_points is not None else None,
        {k: v for k, v in data.items() if k not in _OUTCOME_KEYS},
        data["carry"],
    )


def last_hand_of(outcome: HandOutcome | None) -> dict[str, Any] | None:
    """What ``Game.last_hand`` keeps of the game's last hand: the engine's own JSON of
    its outcome (``HandOutcome.to_json``)."""
    return outcome.to_json() if outcome is not None else None


def last_outcome(game: Game) -> HandOutcome | None:
    """The outcome of the game's last hand as the game row keeps it (None when it keeps
    none, or one that is not its last hand's: then read the hand)."""
    data = game.last_hand
    if not isinstance(data, dict) or data.get("number") != game.hand_count:
        return None
    return HandOutcome.from_json(data)


def derived_of(outcome: HandOutcome) -> dict[str, Any]:
    """What ``Hand.derived`` stores of an outcome: the API's hand object without the
    input and revision (so the database can serve it as it is), and the fold's running
    state after the hand."""
    data = outcome.as_dict()
    data["carry"] = outcome.carry
    return data


def last_hand_state(game: Game) -> GameState:
    """A stored game's state from its last hand's stored outcome alone (one query, and
    ``hands`` holds that hand only): for reads that take the hands from elsewhere."""
    rules = get_ruleset(game.ruleset)
    config = game_config(game)
    last = Hand.objects.filter(game=game).order_by("-number").first()
    if last is None:
        return rules.resume(config, [], closed=game.closed)
    outcome = stored_outcome(last)
    if outcome is None:
        every = sorted(Hand.objects.filter(game=game), key=lambda h: h.number)
        return rules.play(config, [h.input for h in every], closed=game.closed)
    return rules.resume(config, [outcome], closed=game.closed)


def recent_state(game: Game, recent: int) -> GameState:
    """A stored game's state whose ``hands`` are its last ``recent`` hands' stored
    outcomes (``played`` still counts every hand; prefetch its seats first): one query of
    at most ``recent`` rows however long the game, the standings and what comes next
    resumed from the last hand's running state. A game with a hand whose outcome is not
    stored (imported, say) is read and folded whole."""
    rows = list(
        Hand.objects.filter(game_id=game.pk)
        .order_by("-number")
        .only("number", "input", "derived")[:recent]
    )
    outcomes = [stored_outcome(h) for h in reversed(rows)]
    known = [o for o in outcomes if o is not None]
    if len(known) == len(outcomes):
        return get_ruleset(game.ruleset).resume(game_config(game), known, closed=game.closed)
    return game_state(with_rows(game))


@dataclass(frozen=True)
class StoredHand:
    """A hand as stored: its input, its outcome (``Hand.derived``, without the running
    state) and its revision."""

    number: int
    input: dict[str, Any]
    outcome: dict[str, Any]
    revision: int


def hand_rows(game: Game) -> QuerySet[Hand, tuple[int, Any, Any, int]]:
    """A game's hands as :func:`stored_of` reads them, oldest first: only the columns
    an answer needs, to be sliced in SQL."""
    return (
        Hand.objects.filter(game_id=game.pk)
        .order_by("number")
        .values_list("number", "input", "derived", "revision")
    )


def stored_of(rows: Iterable[tuple[int, Any, Any, int]]) -> list[StoredHand] | None:
    """The hands of :func:`hand_rows` (sliced or not); None when one has no stored
    outcome (the engine must fold it)."""
    hands: list[StoredHand] = []
    for number, hand_input, derived, revision in rows:
        if not derived or derived.get("number") != number or "carry" not in derived:
            return None
        outcome = {k: v for k, v in derived.items() if k != "carry"}
        hands.append(StoredHand(number, hand_input, outcome, revision))
    return hands


def _digest() -> MD5:
    """A hand row's stored input and outcome, digested by the database."""
    return MD5(Concat(Cast("input", TextField()), Cast("derived", TextField())))


def hand_digests(game: Game, *, last: int | None = None) -> list[tuple[int, int, str]]:
    """Each hand's number, revision and a digest of its stored input and outcome, oldest
    first (every hand, or the ``last``): computed by the database, so telling which
    hands changed since they were last read decodes no JSON."""
    rows = Hand.objects.filter(game_id=game.pk).values_list("number", "revision", _digest())
    if last is None:
        return list(rows.order_by("number"))
    return list(rows.order_by("-number")[:last])[::-1]


def hands_numbered(game: Game, numbers: Iterable[int]) -> list[tuple[StoredHand, str]] | None:
    """Those hands of the game as stored, oldest first, each with its digest (as
    :func:`hand_digests`); None as :func:`stored_of`."""
    rows = list(
        Hand.objects.filter(game_id=game.pk, number__in=list(numbers))
        .order_by("number")
        .values_list("number", "input", "derived", "revision", _digest())
    )
    stored = stored_of(row[:4] for row in rows)
    if stored is None:
        return None
    return [(hand, row[4]) for hand, row in zip(stored, rows, strict=True)]


def stored_hands(game: Game, *, last: int | None = None) -> list[StoredHand] | None:
    """A game's hands as stored, oldest first, read in one query without the engine:
    every hand, or its ``last`` hands (sliced in SQL). None as :func:`stored_of`."""
    rows = hand_rows(game)
    if last is None:
        return stored_of(rows)
    return stored_of(list(rows.order_by("-number")[:last])[::-1])


#: A hand's running totals as :func:`running_totals` reads them: each player's score
#: after it, and in partner play what it gave each team.
RunningTotals = tuple[dict[int, int], tuple[int, ...] | None]


def running_totals(game: Game) -> list[RunningTotals] | None:
    """Every hand's running totals (what a chart draws), oldest first: only those two
    keys of each stored outcome, read by the database out of ``Hand.derived``. None when
    a hand's outcome is not stored."""
    rows = (
        Hand.objects.filter(game_id=game.pk)
        .order_by("number")
        .values_list("derived__totals", "derived__team_points")
    )
    found: list[RunningTotals] = []
    for totals, team_points in rows:
        if totals is None:
            return None
        teams = tuple(t["points"] for t in team_points) if team_points is not None else None
        found.append(({t["player"]: t["score"] for t in totals}, teams))
    return found


def game_state(game: Game, hand_inputs: Sequence[dict[str, Any]] | None = None) -> GameState:
    """A stored game's state (prefetch seats and hands first). The hands' stored outcomes
    are read back, not replayed: the engine only works out the standings and what comes
    next, and folds a hand only where no outcome is stored. With ``hand_inputs`` (other
    inputs than the stored ones: a preview) every hand is folded."""
    rules = get_ruleset(game.ruleset)
    config = game_config(game)
    if hand_inputs is not None:
        return rules.play(config, list(hand_inputs), closed=game.closed)
    hands = sorted(game.hands.all(), key=lambda h: h.number)
    outcomes: list[HandOutcome] = []
    for hand in hands:
        outcome = stored_outcome(hand)
        if outcome is None:
            break
        outcomes.append(outcome)
    if len(outcomes) == len(hands):
        return rules.resume(config, outcomes, closed=game.closed)
    rest = [h.input for h in hands[len(outcomes) :]]
    start = rules.resume(config, outcomes)
    return rules.play(config, rest, closed=game.closed, state=start)


def with_earlier_hands(game: Game, state: GameState) -> GameState | None:
    """The whole state after a write whose ``state`` holds only its last hands: the
    stored outcomes of the hands before them, of ``game`` as read before the write (its
    hands prefetched), then the write's. Nothing is read or folded again. None when a
    hand before them has no stored outcome."""
    first = state.hands[0].number if state.hands else 1
    hands = sorted((h for h in game.hands.all() if h.number < first), key=lambda h: h.number)
    earlier = [stored_outcome(h) for h in hands]
    known = [o for o in earlier if o is not None]
    if len(known) != first - 1:
        return None
    return replace(state, hands=(*known, *state.hands))


def _rows() -> tuple[Prefetch, str]:
    return Prefetch("seats", queryset=Seat.objects.select_related("player")), "hands"


def game_with_related(queryset: QuerySet[Game] | None = None) -> QuerySet[Game]:
    """Games with what ``game_state`` and the sheet need, in a fixed number of queries."""
    qs = queryset if queryset is not None else Game.objects.all()
    return qs.select_related("league", "owner").prefetch_related(*_rows())


def with_rows(game: Game) -> Game:
    """``game`` (read without them) with its seats, their players and its hands, as
    :func:`game_with_related` reads them."""
    prefetch_related_objects([game], *_rows())
    return game


def with_seats(game: Game) -> Game:
    """``game`` with its seats and their players (not its hands)."""
    prefetch_related_objects([game], _rows()[0])
    return game


def player_names(game: Game) -> dict[int, str]:
    return {s.player_id: s.player.name for s in game.seats.all()}


def hand_of(game: Game, number: int) -> Hand | None:
    return next((h for h in game.hands.all() if h.number == number), None)


def hand_history(game: Game, number: int) -> list[HandRevision]:
    """Every version of one hand, oldest first: who recorded, corrected or undid it, when,
    and the input as it was then."""
    return list(
        HandRevision.objects.filter(game=game, number=number)
        .select_related("user", "guest")
        .order_by("created_at", "id")
    )
