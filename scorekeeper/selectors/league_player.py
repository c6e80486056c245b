"""A player across their leagues: standings in each, rating over time, the leagues a
viewer may see them in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Exists, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

from games import RULESETS
from scorekeeper.models import (
    ALL_GAMES,
    Game,
    League,
    Membership,
    Player,
    PlayerStanding,
    RatingPoint,
)
from scorekeeper.ratings.model import PROVISIONAL_GAMES, conservative_rating
from scorekeeper.selectors.games import leagues_visible_to, player_visible_to
from scorekeeper.selectors.leagues import (
    Viewer,
    _standing_row,
    games_of_player,
    ruleset_name,
    ruleset_scope,
)

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
    ids), all games first, each with their rank in that scope (``rank``) and how many
    are in it (``of``). One query."""
    pid = player.pk if isinstance(player, Player) else player
    lines = PlayerStanding.objects.filter(player_id=pid).order_by()  # sorted below
    if leagues is not None:
        lines = lines.filter(league_id__in=leagues)
    # The lines of everyone in the same league and scope, counted by a subquery each.
    scope = (
        PlayerStanding.objects.filter(league_id=OuterRef("league_id"), ruleset=OuterRef("ruleset"))
        .order_by()
        .values("league_id")
    )
    ahead = scope.filter(rating__gt=OuterRef("rating")).annotate(n=Count("*")).values("n")
    rows = lines.annotate(
        ahead=Coalesce(Subquery(ahead), 0),  # nobody ahead: no group, no row
        of=Subquery(scope.annotate(n=Count("*")).values("n")),
    ).values_list(
        "league_id", "league__name", "ruleset", "ahead", "of",
        "games", "wins", "place_sum", "mu", "sigma", "rating",
    )  # fmt: skip
    result = [
        _standing_row(ahead + 1, pid, "", games, wins, place_sum, mu, sigma, rating)
        | {"league": league_id, "league_name": name, "ruleset": slug,
           "ruleset_name": ruleset_name(slug), "of": of}
        for league_id, name, slug, ahead, of, games, wins, place_sum, mu, sigma, rating
        in rows
    ]  # fmt: skip
    order = {slug: i for i, slug in enumerate(RULESETS, start=1)}
    result.sort(key=lambda r: (r["league_name"], r["league"], order.get(r["ruleset"], 0)))
    return result


def player_leagues_visible(viewer: Viewer, player_id: int) -> list[League]:
    """The leagues ``viewer`` may see, by name, each with ``member``: whether the player
    belongs to it. One query."""
    member = Exists(Membership.objects.filter(league=OuterRef("pk"), player_id=player_id))
    return list(leagues_visible_to(viewer).annotate(member=member).order_by("name", "id"))


def page_player(viewer: Viewer, player_id: int, visible_ids: Sequence[int]) -> Player | None:
    """:func:`~scorekeeper.selectors.games.player_visible_to` for a viewer whose visible
    leagues' ids are read already: the player alone by primary key, then (rarely) a
    membership check, instead of one query of nested subqueries."""
    if not viewer.is_authenticated or getattr(viewer, "is_superuser", False):
        return player_visible_to(viewer, player_id)
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        return None
    if player.user_id == viewer.pk or player.created_by_id == viewer.pk:
        return player
    if Membership.objects.filter(player_id=player_id, league_id__in=visible_ids).exists():
        return player
    # Seated at a game the viewer can see (a sheet links every name at the table).
    return player_visible_to(viewer, player_id)


def player_summary(
    player: Player,
    league: League | None = None,
    *,
    viewer: Viewer | None = None,
    ruleset: str | None = None,
    visible_leagues: list[League] | None = None,
) -> PlayerSummary:
    """Everything a player page needs, in a fixed number of queries: their leagues, their
    standings and their rating (two) here, then a page of ``games`` (and
    :func:`seats_of` it) when the caller reads it. Without ``league`` the rating shown
    is that in the visible league where the player has played most. ``visible_leagues``:
    the viewer's visible leagues as :func:`player_leagues_visible` reads them, when the
    caller has them already."""
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
        visible = (
            visible_leagues
            if visible_leagues is not None
            else player_leagues_visible(viewer, player.pk)
        )
        visible_ids = [lg.pk for lg in visible]
        standings = player_standings(player, visible_ids)
        with_lines = {r["league"] for r in standings}
        leagues = [lg for lg in visible if getattr(lg, "member", False) or lg.pk in with_lines]
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
