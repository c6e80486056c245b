"""Reads about leagues: members, standings, head-to-head records, game history and a
player's rating over time.

Everything here reads the derived tables the stats service keeps (``PlayerStanding``,
``RatingPoint``, ``Seat.place``/``won``), never the engine, and each function runs a
fixed number of SQL queries whatever the size of the league.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from django.contrib.auth.models import AnonymousUser, User
from django.db import connection
from django.db.models import (
    Count,
    Exists,
    F,
    FilteredRelation,
    Lookup,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.functions import Coalesce

from games import RULESETS, RuleError, get_ruleset
from scorekeeper.models import (
    ALL_GAMES,
    Game,
    GameStatus,
    League,
    Membership,
    Player,
    PlayerStanding,
    RatingBacklog,
    RatingPoint,
    Seat,
)
from scorekeeper.selectors.games import leagues_visible_to, players_usable_by
from scorekeeper.services.stats import PROVISIONAL_GAMES, conservative_rating

Viewer = User | AnonymousUser


def ruleset_scope(ruleset: str | None) -> str:
    """The statistics scope of a ``?ruleset=`` value: a game's slug, or ``ALL_GAMES`` for
    none. An unknown slug is a :class:`RuleError` on ``ruleset``."""
    if ruleset is None or ruleset == "":
        return ALL_GAMES
    return get_ruleset(ruleset).slug


def ruleset_name(slug: str) -> str:
    return RULESETS[slug].name if slug in RULESETS else "All games"


def league_visible(user: Viewer, league_id: int) -> League:
    """A league the user may see; ``League.DoesNotExist`` (a 404) otherwise, whether it
    exists or not."""
    return leagues_visible_to(user).get(pk=league_id)


class Member(NamedTuple):
    """A league member as lists show one (lighter than a model instance: a league can
    have a thousand)."""

    pk: int
    name: str


def league_members(league: League) -> list[Member]:
    """The league's players, by name. One query."""
    return [
        Member(pk, name)
        for pk, name in Player.objects.filter(memberships__league=league)
        .order_by("name", "id")
        .values_list("id", "name")
    ]


def is_member(league: League, player_id: int) -> bool:
    return Membership.objects.filter(league=league, player_id=player_id).exists()


def players_addable(user: Viewer, league: League) -> QuerySet[Player]:
    """Players a league's add-member form offers: the players the user may use (their
    own, those they created, their leagues' members) who are not members yet."""
    members = Membership.objects.filter(league=league).values("player_id")
    return players_usable_by(user).exclude(pk__in=members).order_by("name", "id")


# -- standings ------------------------------------------------------------------------


def _standing_row(
    rank: int,
    player_id: int,
    name: str,
    games: int,
    wins: int,
    place_sum: int,
    mu: float,
    sigma: float,
    rating: float,
) -> dict[str, Any]:
    return {
        "rank": rank,
        "player": player_id,
        "name": name,
        "games": games,
        "wins": wins,
        "win_rate": round(wins / games, 4) if games else 0.0,
        "avg_place": round(place_sum / games, 2) if games else None,
        "rating": round(rating, 2),
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
        "provisional": games < PROVISIONAL_GAMES,
    }


def with_ratings_updating(leagues: QuerySet[League]) -> QuerySet[League]:
    """The leagues, each knowing (``ratings_updating``) whether a correction to an
    earlier game is still being carried through its ratings, in the same query."""
    return leagues.annotate(
        ratings_updating=Exists(RatingBacklog.objects.filter(league_id=OuterRef("pk")))
    )


def ratings_updating(league: League | int) -> bool:
    """Whether a correction to an earlier game is still being replayed through the
    league's ratings (by the background task): its standings are a little behind."""
    known = getattr(league, "ratings_updating", None)
    if known is not None:
        return bool(known)
    league_id = league if isinstance(league, int) else league.pk
    return RatingBacklog.objects.filter(league_id=league_id).exists()


def standings_for_league(
    league: League, ruleset: str | None = None, *, limit: int | None = None
) -> list[dict[str, Any]]:
    """The league's standings, best rating first, for one game (``ruleset``) or over
    all games: rows ``{"rank", "player", "name", "games", "wins", "win_rate",
    "avg_place", "rating", "mu", "sigma", "provisional"}``. Only players with a finished
    game in that scope appear; ``limit`` keeps the first rows. One query."""
    scope = ruleset_scope(ruleset)
    rows = (
        PlayerStanding.objects.filter(league=league, ruleset=scope)
        .order_by("-rating", "-games", "player__name", "player_id")
        .values_list(
            "player_id", "player__name", "games", "wins", "place_sum", "mu", "sigma", "rating"
        )
    )
    if limit is not None:
        rows = rows[:limit]
    return [_standing_row(i, *row) for i, row in enumerate(rows, start=1)]


def league_scopes(league: League) -> list[dict[str, Any]]:
    """The tabs of a league's standings: all games, then each game played in it (with
    its number of rated players). One query."""
    counts = dict(
        PlayerStanding.objects.filter(league=league)
        .order_by()
        .values("ruleset")
        .annotate(n=Count("*"))
        .values_list("ruleset", "n")
    )
    tabs = [{"slug": ALL_GAMES, "name": "All games", "players": counts.get(ALL_GAMES, 0)}]
    tabs += [
        {"slug": slug, "name": r.name, "players": counts[slug]}
        for slug, r in RULESETS.items()
        if slug in counts
    ]
    return tabs


# -- head to head ---------------------------------------------------------------------


def head_to_head(league: League, a: Player | int, b: Player | int) -> dict[str, Any]:
    """How two players fared in the league's finished games they both played:
    ``games``, ``a_ahead``/``b_ahead`` (finished ahead of the other), ``ties`` (shared a
    place as opponents), ``partners`` (same team in partner play), ``a_wins``/``b_wins``
    (games won, shared wins included), overall and ``by_ruleset``. One query."""
    a_id = a.pk if isinstance(a, Player) else a
    b_id = b.pk if isinstance(b, Player) else b
    partners = Q(pa__team__isnull=False, pa__team=F("pb__team"))
    rows = (
        Game.objects.filter(league=league, status=GameStatus.FINISHED)
        .annotate(
            pa=FilteredRelation("seats", condition=Q(seats__player_id=a_id)),
            pb=FilteredRelation("seats", condition=Q(seats__player_id=b_id)),
        )
        .filter(pa__place__isnull=False, pb__place__isnull=False)
        .order_by()
        .values("ruleset")
        .annotate(
            games=Count("id"),
            a_ahead=Count("id", filter=Q(pa__place__lt=F("pb__place"))),
            b_ahead=Count("id", filter=Q(pb__place__lt=F("pa__place"))),
            ties=Count("id", filter=Q(pa__place=F("pb__place")) & ~partners),
            partners=Count("id", filter=partners),
            a_wins=Count("id", filter=Q(pa__won=True)),
            b_wins=Count("id", filter=Q(pb__won=True)),
        )
    )
    keys = ("games", "a_ahead", "b_ahead", "ties", "partners", "a_wins", "b_wins")
    by_ruleset = sorted(
        (
            {"ruleset": r["ruleset"], "name": ruleset_name(r["ruleset"])} | {k: r[k] for k in keys}
            for r in rows
        ),
        key=lambda r: (-r["games"], r["name"]),
    )
    total: dict[str, Any] = {k: sum(r[k] for r in by_ruleset) for k in keys}
    return {"a": a_id, "b": b_id, **total, "by_ruleset": by_ruleset}


# -- game history ---------------------------------------------------------------------


#: Newest first; ties (games started in the same instant) by id.
GAME_ORDER = ("-created_at", "-id")


class SeatLine(NamedTuple):
    """A seat as a list of games shows it: lighter than a ``Seat`` with its ``Player``
    (a page of 25 games has ~125 seats)."""

    pk: int
    player_id: int
    name: str
    position: int
    team: int | None
    score: int
    place: int | None
    won: bool


def seats_of(games: Sequence[Game]) -> dict[int, list[SeatLine]]:
    """The seats of ``games`` with their players' names, in seating order, by game id.
    One query (none without games)."""
    seats: dict[int, list[SeatLine]] = {g.pk: [] for g in games}
    if seats:
        rows = (
            Seat.objects.filter(game_id__in=list(seats))
            .order_by("game_id", "position")
            .values_list(
                "game_id", "pk", "player_id", "player__name", "position", "team", "score",
                "place", "won",
            )
        )  # fmt: skip
        for game_id, pk, player_id, name, position, team, score, place, won in rows:
            seats[game_id].append(SeatLine(pk, player_id, name, position, team, score, place, won))
    return seats


def league_games(
    league: League,
    ruleset: str | None = None,
    player: Player | int | None = None,
    *,
    players: Iterable[int] = (),
    status: str | None = None,
) -> QuerySet[Game]:
    """The league's games, newest first, optionally only one game (``ruleset``), those
    ``player`` sat at (every one of ``players``), or one ``status``. Paginating it costs a
    count and a page, and :func:`seats_of` the page one more query. Read a page far
    from the newest with :func:`page_of_games`."""
    games = Game.objects.filter(league=league)
    scope = ruleset_scope(ruleset)
    if scope != ALL_GAMES:
        games = games.filter(ruleset=scope)
    if status:
        if status not in GameStatus.values:
            raise RuleError(
                f"'{status}' is not a status (choose in_progress or finished)", "status"
            )
        games = games.filter(status=status)
    wanted = list(players)
    if player is not None:
        wanted.append(player.pk if isinstance(player, Player) else player)
    for pid in dict.fromkeys(wanted):
        games = games.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), player_id=pid)))
    return games.order_by(*GAME_ORDER)


def page_of_games(games: QuerySet[Game], start: int, stop: int) -> list[Game]:
    """``games[start:stop]`` of a :func:`league_games` queryset, read as a *deferred
    join*: the page's ids are picked first (for the whole league, from the
    ``game_league_created`` index alone), then only those rows are read. A plain
    ``OFFSET`` reads every game it skips, which on the last page of a 100,000-game
    league costs ~80 ms instead of ~10. One query, as slicing (the ids are picked in a
    subquery)."""
    if stop <= start:
        return []
    page = games.values("pk")[start:stop]
    return list(Game.objects.filter(pk__in=page).order_by(*GAME_ORDER))


class _AnyOf(Lookup):
    """``column = ANY(array)`` (PostgreSQL)."""

    lookup_name = "any_of"

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"{lhs} = ANY({rhs})", [*lhs_params, *rhs_params]


class _ArrayOf(Subquery):
    """``ARRAY(subquery)`` (PostgreSQL)."""

    template = "ARRAY(%(subquery)s)"


def _games_at(player_id: int) -> Q | _AnyOf:
    """A filter on the games a player sat at.

    On PostgreSQL it is ``id = ANY(ARRAY(their seats' game ids))``: the ids are
    gathered once from the seat index and the games read by primary key, whatever the
    page. As ``id IN (subquery)``, PostgreSQL would rather walk every game of the site
    newest first testing each one, which at 100,000 games costs up to ~100 ms; as a
    list of ids read first, it costs a query and ~2 ms to send 500 ids back."""
    seats = Seat.objects.filter(player_id=player_id).order_by().values("game_id")
    if connection.vendor == "postgresql":
        return _AnyOf(F("pk"), _ArrayOf(seats))
    return Q(pk__in=seats)


def games_of_player(
    player: Player | int,
    viewer: Viewer | None = None,
    *,
    visible_leagues: Sequence[int] | None = None,
) -> QuerySet[Game]:
    """Every game a player sat at (in a league or not) that ``viewer`` may see, newest
    first, with its league (``viewer=None``: all of them). ``visible_leagues``: the ids
    of the leagues the viewer may see, when the caller has read them already. Reading a
    page costs a query (and :func:`seats_of` it one more)."""
    pid = player.pk if isinstance(player, Player) else player
    games = Game.objects.filter(_games_at(pid))
    if viewer is not None and not getattr(viewer, "is_superuser", False):
        if not viewer.is_authenticated:
            return Game.objects.none()
        leagues = (
            visible_leagues
            if visible_leagues is not None
            else leagues_visible_to(viewer).values("id")
        )
        games = games.filter(
            Q(owner_id=viewer.pk)
            | Q(league_id__in=leagues)
            | Q(pk__in=Seat.objects.filter(player__user_id=viewer.pk).values("game_id"))
        )
    return games.select_related("league").order_by(*GAME_ORDER)


def game_ranking(game: Game, seats: Sequence[SeatLine]) -> list[dict[str, Any]]:
    """A game's final ranking from its seats (:func:`seats_of`), best first: rows
    ``{"place", "players": [{"id", "name"}], "won", "score"}`` — one per team in partner
    play (no score: a team's total is not a sum of its players'), else one per seat. A
    game in progress lists its seats in seating order with their scores so far,
    ``place`` None."""
    groups: dict[object, list[SeatLine]] = {}
    for seat in sorted(seats, key=lambda s: ((s.place or 0), s.position)):
        key: object = ("team", seat.team) if seat.team is not None else ("seat", seat.pk)
        groups.setdefault(key, []).append(seat)
    # Dirty Deals' score is the unfinished rubber's points; its ranking is by rubbers.
    show_score = not game.teams and game.ruleset != "dirty-deals"
    return [
        {
            "place": members[0].place,
            "players": [{"id": s.player_id, "name": s.name} for s in members],
            "won": any(s.won for s in members),
            "score": members[0].score if show_score else None,
        }
        for members in groups.values()
    ]


def winners_of(game: Game) -> list[int]:
    return [s.player_id for s in game.seats.all() if s.won]


# -- players --------------------------------------------------------------------------


#: The columns of a rating point as :func:`rating_history` reads them.
_POINT_COLUMNS = (
    "league_id",
    "game_id",
    "game_ruleset",
    "played_at",
    "place",
    "won",
    "games",
    "rating",
    "prior_mu",
    "prior_sigma",
    "mu",
    "sigma",
)


def _rating_point(
    league_id: int,
    game_id: int,
    game_ruleset: str,
    played_at: datetime,
    place: int,
    won: bool,
    games: int,
    rating: float,
    prior_mu: float,
    prior_sigma: float,
    mu: float,
    sigma: float,
) -> dict[str, Any]:
    return {
        "league": league_id,
        "game": game_id,
        "game_ruleset": game_ruleset,
        "played_at": played_at,
        "place": place,
        "won": won,
        "games": games,
        "rating": round(rating, 2),
        "change": round(rating - conservative_rating(prior_mu, prior_sigma), 2),
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
        "provisional": games < PROVISIONAL_GAMES,
    }


def _points(
    player: Player | int,
    leagues: League | int | Sequence[int] | QuerySet[League],
    scope: str,
) -> QuerySet[RatingPoint]:
    pid = player.pk if isinstance(player, Player) else player
    points = RatingPoint.objects.filter(player_id=pid, ruleset=scope, game_id__isnull=False)
    if isinstance(leagues, League | int):
        return points.filter(league_id=leagues.pk if isinstance(leagues, League) else leagues)
    return points.filter(league_id__in=leagues)


def rating_history(
    player: Player | int,
    leagues: League | int | Sequence[int] | QuerySet[League],
    ruleset: str | None = None,
) -> list[dict[str, Any]]:
    """A player's rating after each of their finished games in the given league(s) and
    scope, oldest first: ``{"league", "game", "game_ruleset", "played_at", "place",
    "won", "games", "rating", "change", "mu", "sigma", "provisional"}``. One query."""
    rows = (
        _points(player, leagues, ruleset_scope(ruleset))
        .order_by("league_id", "played_at", "game_id")
        .values_list(*_POINT_COLUMNS)
    )
    return [_rating_point(*row) for row in rows]


@dataclass(frozen=True)
class RatingSeries:
    """A player's rating over time in one league and scope, as a chart draws it.

    ``start``: the rating before their first game there; ``ratings`` and ``won``: the
    rating after each finished game and whether they won it, oldest first;
    ``provisional``: how many of those games left the rating provisional; ``recent``:
    the last :data:`RECENT_POINTS` points as :func:`rating_history` rows, newest
    first."""

    start: float
    ratings: list[float]
    won: list[bool]
    provisional: int
    recent: list[dict[str, Any]]


#: Points of a rating series given in full (the page's "latest games").
RECENT_POINTS = 5


def rating_series(
    player: Player | int, league: League | int, ruleset: str | None = None
) -> RatingSeries | None:
    """A player's :class:`RatingSeries` in one league and scope; ``None`` before their
    first finished game there. Two queries: the whole series in a few numeric columns,
    and the last few points in full (a player with 500 games would otherwise cost 500
    rows of twelve columns, timestamps included, turned into 500 dicts)."""
    points = _points(player, league, ruleset_scope(ruleset))
    series = list(
        points.order_by("played_at", "game_id").values_list(
            "rating", "won", "games", "prior_mu", "prior_sigma"
        )
    )
    if not series:
        return None
    recent = points.order_by("-played_at", "-game_id").values_list(*_POINT_COLUMNS)
    ratings, won, provisional = [], [], 0
    for rating, won_it, games, _, _ in series:
        ratings.append(round(rating, 2))
        won.append(won_it)
        provisional += games < PROVISIONAL_GAMES
    first_rating, _, _, prior_mu, prior_sigma = series[0]
    # As rating_history rounds them: the first game's rating less its change.
    change = round(first_rating - conservative_rating(prior_mu, prior_sigma), 2)
    return RatingSeries(
        start=round(ratings[0] - change, 2),
        ratings=ratings,
        won=won,
        provisional=provisional,
        recent=[_rating_point(*row) for row in recent[:RECENT_POINTS]],
    )


@dataclass(frozen=True)
class PlayerSummary:
    """What a player page shows.

    ``games``: their games the viewer may see, newest first (paginate it);
    ``standings``: their lines in the visible leagues' standings, each scope, with
    ``rank`` and ``of`` (players in that scope); ``leagues``: those leagues;
    ``league``/``ruleset``/``rating``: the rating over time shown (``None`` without a
    league or before a finished game in it)."""

    player: Player
    games: QuerySet[Game]
    standings: list[dict[str, Any]]
    leagues: list[League]
    league: League | None
    ruleset: str
    rating: RatingSeries | None


def player_standings(
    player: Player | int, leagues: QuerySet[League] | Sequence[int] | None = None
) -> list[dict[str, Any]]:
    """A player's standings lines in every league (or those given, as a queryset or
    ids), all games first, each with their rank in that scope. One query."""
    pid = player.pk if isinstance(player, Player) else player
    rows = PlayerStanding.objects.filter(player_id=pid)
    if isinstance(leagues, QuerySet):
        rows = rows.filter(league_id__in=leagues.values("id"))
    elif leagues is not None:
        rows = rows.filter(league_id__in=leagues)
    ahead = (
        PlayerStanding.objects.filter(
            league_id=OuterRef("league_id"),
            ruleset=OuterRef("ruleset"),
            rating__gt=OuterRef("rating"),
        )
        .order_by()
        .values("league_id")
        .annotate(n=Count("*"))
        .values("n")
    )
    everyone = (
        PlayerStanding.objects.filter(league_id=OuterRef("league_id"), ruleset=OuterRef("ruleset"))
        .order_by()
        .values("league_id")
        .annotate(n=Count("*"))
        .values("n")
    )
    lines = rows.annotate(ahead=Coalesce(Subquery(ahead), 0), of=Subquery(everyone)).values_list(
        "league_id",
        "league__name",
        "ruleset",
        "games",
        "wins",
        "place_sum",
        "mu",
        "sigma",
        "rating",
        "ahead",
        "of",
    )
    result = []
    for (
        league_id,
        league_name,
        scope,
        games,
        wins,
        place_sum,
        mu,
        sigma,
        rating,
        ahead_n,
        of,
    ) in lines:
        row = _standing_row(ahead_n + 1, pid, "", games, wins, place_sum, mu, sigma, rating)
        row.update(
            {
                "league": league_id,
                "league_name": league_name,
                "ruleset": scope,
                "ruleset_name": ruleset_name(scope),
                "of": of,
            }
        )
        result.append(row)
    order = {slug: i for i, slug in enumerate(RULESETS, start=1)}
    result.sort(key=lambda r: (r["league_name"], r["league"], order.get(r["ruleset"], 0)))
    return result


def player_summary(
    player: Player,
    league: League | None = None,
    *,
    viewer: Viewer | None = None,
    ruleset: str | None = None,
) -> PlayerSummary:
    """Everything a player page needs, in a fixed number of queries: their leagues, their
    standings and their rating (two) here, then a page of ``games`` (and
    :func:`seats_of` it) when the caller reads it. Without ``league`` the rating shown
    is that in the visible league where the player has played most."""
    scope = ruleset_scope(ruleset)
    # Their leagues: where they are a member or have standings (played, then left).
    # The leagues the viewer may see are read once, rather than as a subquery in each
    # of the queries that need them.
    member = Exists(Membership.objects.filter(league=OuterRef("pk"), player=player))
    visible_ids: list[int] | None = None
    if viewer is None or getattr(viewer, "is_superuser", False):
        has_lines = Exists(PlayerStanding.objects.filter(league=OuterRef("pk"), player=player))
        leagues = list(League.objects.filter(member | has_lines).order_by("name", "id"))
        standings = player_standings(player)
    else:
        visible = list(leagues_visible_to(viewer).annotate(member=member).order_by("name", "id"))
        visible_ids = [lg.pk for lg in visible]
        standings = player_standings(player, visible_ids)
        with_lines = {r["league"] for r in standings}
        leagues = [lg for lg in visible if lg.member or lg.pk in with_lines]
    if league is None:
        played = [r for r in standings if r["ruleset"] == ALL_GAMES]
        if played:
            best = max(played, key=lambda r: (r["games"], -r["league"]))
            league = next((lg for lg in leagues if lg.pk == best["league"]), None)
    rating = rating_series(player, league, scope) if league is not None else None
    return PlayerSummary(
        player=player,
        games=games_of_player(player, viewer, visible_leagues=visible_ids),
        standings=standings,
        leagues=leagues,
        league=league,
        ruleset=scope,
        rating=rating,
    )
