"""Keeps league statistics (standings, ratings) in step with the games they come from.

Every finished league game ranks its seats (teams in Partner Dirt), ties sharing a place
(scoring.md section 6); the game services store that ranking in ``Seat.place``/``won``.
From those rankings this module derives, per league and per scope (one ruleset, or
``ALL_GAMES``):

* :class:`~scorekeeper.models.RatingPoint` — each player's openskill Plackett–Luce
  rating after each game, applied in game order ``(created_at, id)``;
* :class:`~scorekeeper.models.PlayerStanding` — the running totals and latest rating.

The game services call :func:`game_changed` / :func:`game_deleted` inside their
transaction. A game that finishes after every other rated game of its league (or nearly)
is rated there, in a handful of queries; a correction, undo or deletion of an older game
leaves a mark for :mod:`scorekeeper.services.rating_backlog`, whose background task
replays the later games in short chunks, and the standings say they are updating until
it is done. :func:`rebuild_derived` recreates everything from the stored hands (and
clears the marks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Min, Q
from django.utils import timezone
from openskill.models import PlackettLuce

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
from scorekeeper.selectors.games import derived_of, game_state, seat_results

#: A rating is shown as provisional until the player has this many games in its scope.
PROVISIONAL_GAMES = 5

#: openskill's defaults: mu 25, sigma 25/3, so a new player's conservative rating is 0.
MODEL = PlackettLuce()
INITIAL_MU: float = MODEL.mu
INITIAL_SIGMA: float = MODEL.sigma

_BATCH = 2000

#: Where a game sits in a league's rating order.
OrderKey = tuple[datetime, int]


def conservative_rating(mu: float, sigma: float) -> float:
    """The rating shown: 99.7% sure the player is at least this good."""
    return mu - 3 * sigma


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


@dataclass
class _Line:
    """A player's running state in one scope while a replay walks the games."""

    mu: float = INITIAL_MU
    sigma: float = INITIAL_SIGMA
    games: int = 0
    wins: int = 0
    place_sum: int = 0


@dataclass
class _Entry:
    """One seat of a finished game as the ratings see it."""

    player: int
    team: int | None
    place: int | None
    won: bool


@dataclass
class _GameRow:
    id: int
    created_at: datetime
    ruleset: str
    entries: list[_Entry] = field(default_factory=list)


# -- hooks called by the game services ------------------------------------------------


def game_changed(game: Game, *, was_finished: bool, is_finished: bool) -> None:
    """A game's hands (or its end by hand) changed; keep its league's statistics right.

    Nothing to do while a game is in progress, or when a correction of a finished game
    leaves its ranking as it was."""
    if game.league_id is None or not (was_finished or is_finished):
        return
    _lock_league(game.league_id)
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
            league_id=game.league_id, ruleset=game.ruleset, game_id=game.pk
        ).values_list("player_id", "place", "won", "played_at")
    )
    if now == {(pid, place, won) for pid, place, won, _ in points}:
        return
    since: OrderKey = (game.created_at, game.pk)
    if points and (points[0][3], game.pk) < since:
        # The game was rated at another time (its start was edited): replay from there.
        since = (points[0][3], game.pk)
    for scope in (game.ruleset, ALL_GAMES):
        _rerate(game.league_id, scope, since, game_id=game.pk)


def game_deleted(*, game_id: int | None, league_id: int | None, was_finished: bool) -> None:
    """A game was deleted. Its rating points lost their game (``SET_NULL``) but kept
    their place in the order: replay each scope from there."""
    if league_id is None or not was_finished:
        return
    _lock_league(league_id)
    starts = (
        RatingPoint.objects.filter(league_id=league_id, game__isnull=True)
        .values("ruleset")
        .annotate(since=Min("played_at"))
        .values_list("ruleset", "since")
    )
    for scope, since in list(starts):
        _rerate(league_id, scope, (since, 0), game_id=None)


#: A change with at most this many rating points after it (about 100 games, 30 ms) is
#: replayed on the request; a longer replay is left to a background task.
INLINE_POINTS = 400


def _rerate(league_id: int, scope: str, since: OrderKey, *, game_id: int | None) -> None:
    """Replay the scope from ``since`` now when that is cheap (the game is the league's
    latest, or nearly), else leave it to the background task. While a replay is pending,
    every change joins it: the ratings after its mark are not to be built on."""
    from scorekeeper.services.rating_backlog import has_backlog, mark_backlog

    if not has_backlog(league_id, scope):
        later = RatingPoint.objects.filter(league_id=league_id, ruleset=scope).filter(
            _from(since, "played_at", "game_id")
        )
        later = later.exclude(game_id=game_id) if game_id else later.exclude(game=None)
        if len(later.values_list("pk", flat=True)[: INLINE_POINTS + 1]) <= INLINE_POINTS:
            replay_league_ratings(league_id, scope, since=since)
            return
    mark_backlog(league_id, scope, since)


def _lock_league(league_id: int) -> None:
    # Two games of one league finishing at once must not both build on the same old
    # standings: league statistics are written one game at a time (the background
    # replay takes this lock for one short chunk at a time).
    list(League.objects.select_for_update().filter(pk=league_id).values_list("pk"))


# -- the replay -----------------------------------------------------------------------


def _from(since: OrderKey, at: str, game_id: str) -> Q:
    """Rows at or after ``since`` in (created_at, id) order; a rating point whose game
    was deleted (game NULL) counts from its ``played_at``."""
    moment, pk = since
    return (
        Q(**{f"{at}__gt": moment})
        | Q(**{at: moment, f"{game_id}__gte": pk})
        | Q(**{at: moment, f"{game_id}__isnull": True})
    )


def _finished_games(
    league_id: int, scope: str, since: OrderKey | None, *, until: OrderKey | None = None
) -> list[_GameRow]:
    """The league's finished games in the scope, in rating order, with their seats
    (from ``since``, before ``until``)."""
    seats = Seat.objects.filter(game__league_id=league_id, game__status=GameStatus.FINISHED)
    if scope != ALL_GAMES:
        seats = seats.filter(game__ruleset=scope)
    if since is not None:
        seats = seats.filter(_from(since, "game__created_at", "game_id"))
    if until is not None:
        at, pk = until
        seats = seats.filter(Q(game__created_at__lt=at) | Q(game__created_at=at, game_id__lt=pk))
    rows: list[_GameRow] = []
    for game_id, created_at, ruleset, player_id, team, place, won in seats.order_by(
        "game__created_at", "game_id", "position"
    ).values_list(
        "game_id", "game__created_at", "game__ruleset", "player_id", "team", "place", "won"
    ):
        if not rows or rows[-1].id != game_id:
            rows.append(_GameRow(id=game_id, created_at=created_at, ruleset=ruleset))
        rows[-1].entries.append(_Entry(player_id, team, place, won))
    return rows


def _rate(game: _GameRow, lines: dict[int, _Line]) -> dict[int, tuple[float, float]]:
    """New (mu, sigma) of every player of a game. Partner play: each team is one entry
    of the match, with its members; ties share a rank."""
    groups: dict[object, list[_Entry]] = {}
    for entry in game.entries:
        key: object = ("team", entry.team) if entry.team is not None else ("seat", entry.player)
        groups.setdefault(key, []).append(entry)
    teams = list(groups.values())
    match = [
        [MODEL.rating(mu=lines[e.player].mu, sigma=lines[e.player].sigma) for e in team]
        for team in teams
    ]
    ranks = [float(min(e.place or 0 for e in team)) for team in teams]
    rated = MODEL.rate(match, ranks=ranks)
    return {
        entry.player: (float(new.mu), float(new.sigma))
        for team, new_team in zip(teams, rated, strict=True)
        for entry, new in zip(team, new_team, strict=True)
    }


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
    later = points if since is None else points.filter(_from(since, "played_at", "game_id"))

    lines: dict[int, _Line] = {}
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
                lines[pid] = _Line(
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

    to_rate = _finished_games(league_id, scope, since)
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
                lines[pid] = _Line(mu=mu, sigma=sigma, games=n, wins=wins, place_sum=place_sum)
    for pid in missing:
        lines.setdefault(pid, _Line())

    rated_games = _rate_games(league_id, scope, to_rate, lines)

    _store_standings(league_id, scope, lines, touched | seated)
    return rated_games


def _rate_games(
    league_id: int, scope: str, to_rate: list[_GameRow], lines: dict[int, _Line]
) -> int:
    """Rate the games in order from the players' states in ``lines`` (updated as it
    goes) and write their rating points. Returns the games rated."""
    new_points: list[tuple[Any, ...]] = []
    rated_games = 0
    for game in to_rate:
        if any(e.place is None for e in game.entries) or len(game.entries) < 2:
            continue  # not rankable (derived columns out of date: rebuild_derived)
        rated_games += 1
        after = _rate(game, lines)
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


#: RatingPoint columns in the order :func:`replay_league_ratings` builds its rows.
_POINT_COLUMNS = (
    "league_id", "ruleset", "player_id", "game_id", "played_at", "game_ruleset", "place",
    "won", "prior_mu", "prior_sigma", "mu", "sigma", "rating", "games", "wins", "place_sum",
)  # fmt: skip


def _insert_points(rows: list[tuple[Any, ...]]) -> None:
    """Write rating points. On PostgreSQL through ``COPY``: a replay writes tens of
    thousands of them, and building model instances for ``bulk_create`` would cost
    more than rating the games."""
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


def _store_standings(
    league_id: int, scope: str, lines: dict[int, _Line], players: Iterable[int]
) -> None:
    now = timezone.now()
    keep: list[PlayerStanding] = []
    drop: list[int] = []
    for pid in players:
        line = lines.get(pid)
        if line is None or line.games == 0:
            drop.append(pid)
            continue
        keep.append(
            PlayerStanding(
                league_id=league_id,
                ruleset=scope,
                player_id=pid,
                games=line.games,
                wins=line.wins,
                place_sum=line.place_sum,
                mu=line.mu,
                sigma=line.sigma,
                rating=conservative_rating(line.mu, line.sigma),
                updated_at=now,
            )
        )
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


# -- rebuilding -----------------------------------------------------------------------


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
    _lock_league(league_id)
    RatingBacklog.objects.filter(league_id=league_id).delete()
    RatingPoint.objects.filter(league_id=league_id).delete()
    PlayerStanding.objects.filter(league_id=league_id).delete()
    rulesets = sorted(
        Game.objects.filter(league_id=league_id, status=GameStatus.FINISHED)
        .order_by()
        .values_list("ruleset", flat=True)
        .distinct()
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
    changed_game = (
        game.status != status
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
                .select_for_update(of=("self",))
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
