"""Reads about leagues: members, standings, head-to-head records, game history and a
player's rating over time.

Everything here reads the derived tables :mod:`scorekeeper.ratings` keeps
(``PlayerStanding``, ``RatingPoint``, ``Seat.place``/``won``), never the engine, and each
function runs a fixed number of SQL queries whatever the size of the league.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from django.contrib.auth.models import AnonymousUser, User
from django.contrib.postgres.expressions import ArraySubquery
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
)
from django.utils.translation import gettext

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
    Seat,
)
from scorekeeper.models.games import SCOPE_LENGTH
from scorekeeper.ratings.model import PROVISIONAL_GAMES
from scorekeeper.ratings.replay import in_scope
from scorekeeper.selectors.games import leagues_visible_to, players_usable_by

Viewer = User | AnonymousUser


def ruleset_scope(ruleset: str | None) -> str:
    """The statistics scope of a ``?ruleset=`` value: a game's slug, a game the table
    named (``<slug>/<title>``, ``Ruleset.league_scope``), or ``ALL_GAMES`` for none. An
    unknown slug is a :class:`RuleError` on ``ruleset``."""
    if ruleset is None or ruleset == "":
        return ALL_GAMES
    slug, titled, title = str(ruleset).partition("/")
    rules = get_ruleset(slug)
    if not titled:
        return rules.slug
    if not title.strip() or len(ruleset) > SCOPE_LENGTH:
        raise RuleError(
            gettext("'%(ruleset)s' is not a game's name here") % {"ruleset": ruleset}, "ruleset"
        )
    return f"{rules.slug}/{title}"


def ruleset_name(scope: str) -> str:
    """A scope's name: the game's, the title the table gave it, or "All games"."""
    slug, titled, title = scope.partition("/")
    if slug not in RULESETS:
        return gettext("All games")
    return title if titled else gettext(RULESETS[slug].name)


def scope_order(scope: str) -> tuple[int, str]:
    """Scopes in the registry's order of their games, a game's titles by name."""
    slug, _, title = scope.partition("/")
    order = list(RULESETS)
    return (order.index(slug) if slug in order else len(order), title.casefold())


def scope_tabs(counts: dict[str, int]) -> list[dict[str, Any]]:
    """The tabs of a league's (or a season's) standings, from the players rated in each
    scope: all games, then each game played, its titles apart."""
    tabs = [{"slug": ALL_GAMES, "name": gettext("All games"), "players": counts.get(ALL_GAMES, 0)}]
    tabs += [
        {"slug": scope, "name": ruleset_name(scope), "players": counts[scope]}
        for scope in sorted((s for s in counts if s != ALL_GAMES), key=scope_order)
        if scope.partition("/")[0] in RULESETS
    ]
    return tabs


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
    return (
        players_usable_by(user).exclude(pk__in=members).filter(hidden=False).order_by("name", "id")
    )


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
    return scope_tabs(counts)


# -- head to head ---------------------------------------------------------------------


def head_to_head(
    league: League,
    a: Player | int,
    b: Player | int,
    *,
    since: datetime | None = None,
    until: datetime | None = None,
) -> dict[str, Any]:
    """How two players fared in the league's finished games they both played:
    ``games``, ``a_ahead``/``b_ahead`` (finished ahead of the other), ``ties`` (shared a
    place as opponents), ``partners`` (same team in partner play), ``a_wins``/``b_wins``
    (games won, shared wins included), overall and ``by_ruleset``. ``since``/``until``:
    only the games started from ``since`` and before ``until`` (a season). One query."""
    a_id = a.pk if isinstance(a, Player) else a
    b_id = b.pk if isinstance(b, Player) else b
    partners = Q(pa__team__isnull=False, pa__team=F("pb__team"))
    games = Game.objects.filter(league=league, status=GameStatus.FINISHED)
    if since is not None:
        games = games.filter(created_at__gte=since)
    if until is not None:
        games = games.filter(created_at__lt=until)
    rows = (
        games.annotate(
            pa=FilteredRelation("seats", condition=Q(seats__player_id=a_id)),
            pb=FilteredRelation("seats", condition=Q(seats__player_id=b_id)),
        )
        .filter(pa__place__isnull=False, pb__place__isnull=False)
        .order_by()
        .values("league_scope", "ruleset")
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
            {"ruleset": scope, "name": ruleset_name(scope)} | {k: r[k] for k in keys}
            for r in rows
            for scope in [r["league_scope"] or r["ruleset"]]
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
    if "/" in scope:
        games = games.filter(in_scope(scope))
    elif scope != ALL_GAMES:
        games = games.filter(ruleset=scope)
    if status:
        if status not in GameStatus.values:
            raise RuleError(
                gettext("'%(status)s' is not a status (choose in_progress or finished)")
                % {"status": status},
                "status",
            )
        games = games.filter(status=status)
    wanted = list(players)
    if player is not None:
        wanted.append(player.pk if isinstance(player, Player) else player)
    for pid in dict.fromkeys(wanted):
        games = games.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), player_id=pid)))
    return games.order_by(*GAME_ORDER)


def page_of_games(
    games: QuerySet[Game], start: int, stop: int, *, total: int | None = None
) -> list[Game]:
    """``games[start:stop]`` of a :func:`league_games` queryset, read as a *deferred
    join*: the page's ids are picked first (for the whole league, from the
    ``game_league_created`` index alone), then only those rows are read. One query, as
    slicing (the ids are picked in a subquery).

    With ``total`` (how many games ``games`` has, e.g.
    :func:`scorekeeper.selectors.league_counts.league_game_count`), a
    page nearer the oldest end is picked from that end, oldest first: an ``OFFSET``
    walks every game it skips (the last page of a 100,000-game league walked all of
    them, ~100 ms), and from the nearer end it never walks more than half."""
    if stop <= start:
        return []
    if total is not None and total - start < start:
        if start >= total:
            return []
        low = max(0, total - stop)
        page = games.reverse().values("pk")[low : total - start]
    else:
        page = games.values("pk")[start:stop]
    return list(Game.objects.filter(pk__in=page).order_by(*GAME_ORDER))


class _AnyOf(Lookup):
    """``column = ANY(array)`` (PostgreSQL)."""

    lookup_name = "any_of"

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"{lhs} = ANY({rhs})", [*lhs_params, *rhs_params]


def _games_at(player_id: int) -> Q | _AnyOf:
    """A filter on the games a player sat at.

    On PostgreSQL it is ``id = ANY(ARRAY(their seats' game ids))``: the ids are
    gathered once from the seat index and the games read by primary key, whatever the
    page. As ``id IN (subquery)``, PostgreSQL would rather walk every game of the site
    newest first testing each one, which at 100,000 games costs up to ~100 ms; as a
    list of ids read first, it costs a query and ~2 ms to send 500 ids back."""
    seats = Seat.objects.filter(player_id=player_id).order_by().values("game_id")
    if connection.vendor == "postgresql":
        return _AnyOf(F("pk"), ArraySubquery(seats))
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
    # Some games' standings score is not what ranks them (an unfinished rubber's points).
    show_score = not game.teams and game.ruleset_obj.ranking_shows_score
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
