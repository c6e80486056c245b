"""Leagues over the API: members, standings, head-to-head records, game history, and a
player's rating over time.

A league you cannot see answers 404 (as if it did not exist); a change you may not make
answers 403; a bad query parameter answers ``400 {param: [message]}``. Every read here
comes from the derived tables the stats service keeps, in a fixed number of queries.
The output serializers make the responses (``OutputSerializer(rows).data``), so the
OpenAPI schema and the answers cannot drift apart.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.core.paginator import Page
from django.core.paginator import Paginator as DjangoPaginator
from django.db.models import QuerySet
from django.urls import path, reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, OpenApiTypes, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import RULESETS, RuleError
from scorekeeper.api.auth import signed_in_user
from scorekeeper.api.fields import IdField
from scorekeeper.api.league_seasons import urlpatterns as season_urls
from scorekeeper.models import Game, League, Player
from scorekeeper.selectors.games import can_change_league, leagues_visible_to, player_visible_to
from scorekeeper.selectors.league_counts import league_game_count
from scorekeeper.selectors.league_player import rating_history
from scorekeeper.selectors.league_roles import member_recording_leagues
from scorekeeper.selectors.league_seasons import (
    league_seasons,
    season_param,
    season_span,
    season_standings,
)
from scorekeeper.selectors.leagues import (
    Member,
    SeatLine,
    game_ranking,
    head_to_head,
    is_member,
    league_games,
    league_members,
    page_of_games,
    ratings_updating,
    ruleset_scope,
    seats_of,
    standings_for_league,
    with_ratings_updating,
)
from scorekeeper.services.players import league_add_member, league_create
from scorekeeper.validation import parse_id

SEASON_PARAM = OpenApiParameter(
    "season", OpenApiTypes.STR,
    description="A season's id (its standings, everyone starting level; a closed season's "
    "as kept when it closed), or `all`; leave out for every game.",
)  # fmt: skip
RULESET_PARAM = OpenApiParameter(
    "ruleset", OpenApiTypes.STR,
    description="One game's slug (" + ", ".join(RULESETS) + "), or `<slug>/<name>` for a "
    "game the table named (its own standings and ratings); leave out for all games.",
)  # fmt: skip


def _int_param(request: Request, name: str, *, required: bool = False) -> int | None:
    raw = request.query_params.get(name, "").strip()
    if not raw:
        if required:
            raise RuleError(_("this parameter is required"), name)
        return None
    return parse_id(raw, name, "league" if name == "league" else "player")


def _league(request: Request, league_id: int) -> League:
    league = (
        with_ratings_updating(leagues_visible_to(signed_in_user(request)))
        .filter(pk=league_id)
        .first()
    )
    if league is None:
        raise NotFound(_("No such league."))
    return league


# -- payloads and their schema --------------------------------------------------------


class MemberOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()


class LeagueOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="league.pk")
    name = serializers.CharField(source="league.name")
    members = MemberOutputSerializer(many=True)
    owner = serializers.IntegerField(
        source="league.owner_id", help_text="Id of the owner's account."
    )
    created_at = serializers.DateTimeField(source="league.created_at")
    can_change = serializers.BooleanField(
        help_text="Whether you may start games in it (its owner, admins and members who "
        "record; adding members and setting roles is for its owner and admins)."
    )


def league_payload(
    league: League, members: Sequence[Player | Member], *, can_change: bool
) -> dict[str, Any]:
    """A league with its members and whether the viewer may change it."""
    row = {"league": league, "members": members, "can_change": can_change}
    return LeagueOutputSerializer(row).data


class StandingOutputSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Position in this list (1 = best rating).")
    player = serializers.IntegerField()
    name = serializers.CharField()
    games = serializers.IntegerField(help_text="Finished games played.")
    wins = serializers.IntegerField(help_text="Games won; a shared first place counts.")
    win_rate = serializers.FloatField(help_text="wins / games, 0 to 1.")
    avg_place = serializers.FloatField(help_text="Average finishing place (1 = first).")
    rating = serializers.FloatField(
        help_text="Conservative skill rating mu - 3 sigma (openskill Plackett-Luce; a new "
        "player starts at 0)."
    )
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    provisional = serializers.BooleanField(help_text="Fewer than 5 games: still settling.")


class RankingOutputSerializer(serializers.Serializer):
    place = serializers.IntegerField(allow_null=True)
    players = serializers.ListField(child=serializers.IntegerField())
    names = serializers.ListField(child=serializers.CharField())
    won = serializers.BooleanField()
    score = serializers.IntegerField(
        allow_null=True, help_text="The seat's score; null for a team or where the ranking "
        "is not by score (Dirty Deals ranks by rubbers)."
    )  # fmt: skip


class LeagueSeatOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    seat = serializers.IntegerField(source="position")
    team = serializers.IntegerField(allow_null=True)


class LeagueGameOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="game.pk")
    ruleset = serializers.CharField(source="game.ruleset")
    ruleset_name = serializers.CharField(source="game.get_ruleset_display")
    variant = serializers.CharField(allow_null=True)
    status = serializers.ChoiceField(choices=["in_progress", "finished"], source="game.status")
    players = LeagueSeatOutputSerializer(many=True)
    teams = serializers.ListField(child=serializers.ListField(), allow_null=True)
    ranking = RankingOutputSerializer(
        many=True, help_text="Best first; in seating order while in progress."
    )
    winners = serializers.ListField(child=serializers.IntegerField())
    hand_count = serializers.IntegerField(source="game.hand_count")
    league = serializers.IntegerField(source="game.league_id")
    created_at = serializers.DateTimeField(source="game.created_at")
    finished_at = serializers.DateTimeField(allow_null=True, source="game.finished_at")
    url = serializers.CharField(help_text="The game in the API.")
    sheet = serializers.CharField(help_text="The score sheet page.")


def league_game_row(game: Game, seats: Sequence[SeatLine]) -> dict[str, Any]:
    """What :class:`LeagueGameOutputSerializer` shows of a league's game: from its stored
    results and its seats (:func:`seats_of`), without the engine."""
    seats = sorted(seats, key=lambda s: s.position)
    ranking = [
        {**row, "players": [p["id"] for p in row["players"]],
         "names": [p["name"] for p in row["players"]]}
        for row in game_ranking(game, seats)
    ]  # fmt: skip
    return {
        "game": game,
        "variant": game.variant or None,
        "players": seats,
        "teams": game.teams or None,
        "ranking": ranking,
        "winners": [s.player_id for s in seats if s.won],
        "url": reverse("api-game-detail", args=[game.pk]),
        "sheet": reverse("game_sheet", args=[game.pk]),
    }


class HeadToHeadLineSerializer(serializers.Serializer):
    ruleset = serializers.CharField()
    name = serializers.CharField()
    games = serializers.IntegerField()
    a_ahead = serializers.IntegerField()
    b_ahead = serializers.IntegerField()
    ties = serializers.IntegerField()
    partners = serializers.IntegerField()
    a_wins = serializers.IntegerField()
    b_wins = serializers.IntegerField()


class HeadToHeadOutputSerializer(serializers.Serializer):
    a = MemberOutputSerializer()
    b = MemberOutputSerializer()
    games = serializers.IntegerField(help_text="Finished league games both played.")
    a_ahead = serializers.IntegerField(help_text="Games where a finished ahead of b.")
    b_ahead = serializers.IntegerField(help_text="Games where b finished ahead of a.")
    ties = serializers.IntegerField(help_text="Games where they shared a place as opponents.")
    partners = serializers.IntegerField(help_text="Games they played on the same team.")
    a_wins = serializers.IntegerField()
    b_wins = serializers.IntegerField()
    by_ruleset = HeadToHeadLineSerializer(many=True)


class RatingPointOutputSerializer(serializers.Serializer):
    league = serializers.IntegerField()
    game = serializers.IntegerField()
    game_ruleset = serializers.CharField()
    played_at = serializers.DateTimeField(help_text="When the game was started.")
    place = serializers.IntegerField()
    won = serializers.BooleanField()
    games = serializers.IntegerField(help_text="Games played so far, this one included.")
    rating = serializers.FloatField(help_text="Conservative rating after this game.")
    change = serializers.FloatField(help_text="How much this game moved the rating.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    provisional = serializers.BooleanField()


# -- views ----------------------------------------------------------------------------


class LeagueCreateInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80)


class LeagueMemberInputSerializer(serializers.Serializer):
    player = IdField(
        help_text="Id of the player to add (yours, or a member of one of your leagues)."
    )


class LeaguesApi(APIView):
    InputSerializer = LeagueCreateInputSerializer

    @extend_schema(
        operation_id="leagues_list",
        summary="My leagues",
        description="The leagues you own or play in (through your player), by name.",
        responses=LeagueOutputSerializer(many=True),
        tags=["leagues"],
    )
    def get(self, request: Request) -> Response:
        user = signed_in_user(request)
        leagues = list(leagues_visible_to(user).prefetch_related("members").order_by("name", "id"))
        mine = member_recording_leagues(user)
        return Response([
            league_payload(
                lg, sorted(lg.members.all(), key=lambda p: (p.name, p.pk)),
                can_change=lg.owner_id == user.pk or lg.pk in mine
                or bool(getattr(user, "is_superuser", False)),
            )
            for lg in leagues
        ])  # fmt: skip

    @extend_schema(
        operation_id="leagues_create",
        summary="Start a league",
        description="A new league owned by you, with no members yet: add them, or seat "
        "them at one of its games.",
        request=InputSerializer,
        responses={201: LeagueOutputSerializer},
        tags=["leagues"],
    )
    def post(self, request: Request) -> Response:
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        league = league_create(name=data.validated_data["name"], owner=signed_in_user(request))
        return Response(league_payload(league, [], can_change=True), status=status.HTTP_201_CREATED)


class LeagueDetailApi(APIView):
    @extend_schema(
        operation_id="leagues_retrieve",
        summary="One league",
        responses={200: LeagueOutputSerializer, 404: OpenApiResponse(description="Not yours.")},
        tags=["leagues"],
    )
    def get(self, request: Request, league_id: int) -> Response:
        league = _league(request, league_id)
        return Response(
            league_payload(
                league, league_members(league),
                can_change=can_change_league(signed_in_user(request), league),
            )
        )  # fmt: skip


class LeagueMembersApi(APIView):
    InputSerializer = LeagueMemberInputSerializer

    @extend_schema(
        operation_id="leagues_members_list",
        summary="A league's members",
        responses=MemberOutputSerializer(many=True),
        tags=["leagues"],
    )
    def get(self, request: Request, league_id: int) -> Response:
        league = _league(request, league_id)
        return Response(MemberOutputSerializer(league_members(league), many=True).data)

    @extend_schema(
        operation_id="leagues_members_create",
        summary="Add a member",
        description="Adds a player to the league (its owner and admins only), as a "
        "member who records games. Adding a "
        "member again changes nothing and answers 200 instead of 201.",
        request=InputSerializer,
        responses={
            201: MemberOutputSerializer,
            200: MemberOutputSerializer,
            403: OpenApiResponse(description="You may not change this league."),
        },
        tags=["leagues"],
    )
    def post(self, request: Request, league_id: int) -> Response:
        league = _league(request, league_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player_id = data.validated_data["player"]
        already = is_member(league, player_id)
        membership = league_add_member(
            league=league, player=player_id, user=signed_in_user(request)
        )
        return Response(
            MemberOutputSerializer(membership.player).data,
            status=status.HTTP_200_OK if already else status.HTTP_201_CREATED,
        )


class LeagueStandingsApi(APIView):
    @extend_schema(
        operation_id="leagues_standings",
        summary="Standings",
        description="Players with at least one finished game in the league (or in one of "
        "its games), best rating first. While a correction to an earlier game is still being "
        "carried through the later games' ratings (in the background), the response has the "
        "header `X-Ratings-Updating: 1` and the ratings may be a little behind.",
        parameters=[RULESET_PARAM, SEASON_PARAM],
        responses=StandingOutputSerializer(many=True),
        tags=["leagues"],
    )
    def get(self, request: Request, league_id: int) -> Response:
        league = _league(request, league_id)
        ruleset = request.query_params.get("ruleset")
        season = None
        if "season" in request.query_params:
            season = season_param(
                league_seasons(league), request.query_params["season"], default_current=False
            )
        if season is None:
            standings = standings_for_league(league, ruleset)
        else:
            standings = season_standings(season, ruleset)
        response = Response(StandingOutputSerializer(standings, many=True).data)
        if ratings_updating(league):
            # A correction to an earlier game is still being replayed: a little behind.
            response["X-Ratings-Updating"] = "1"
        return response


class _GamePaginator(DjangoPaginator):
    """Pages of a :func:`league_games` queryset read with a deferred join
    (:func:`page_of_games`): the last page of a 100,000-game league skips the games
    before it in the index alone instead of reading each one."""

    def __init__(self, *args: Any, total: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if total is not None:
            self.count = total  # known already (the league's stored count): no COUNT(*)

    def page(self, number: Any) -> Page:
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        top = bottom + self.per_page
        if top + self.orphans >= self.count:
            top = self.count
        games = self.object_list
        assert isinstance(games, QuerySet)
        # Knowing the count, a page in the older half is read from the oldest end.
        return Page(page_of_games(games, bottom, top, total=self.count), number, self)


class GamePagination(PageNumberPagination):
    django_paginator_class = _GamePaginator

    def __init__(self, total: int | None = None) -> None:
        super().__init__()
        #: The list's length when known without counting it.
        self.total = total
        self.django_paginator_class = functools.partial(_GamePaginator, total=total)  # type: ignore[assignment]


class LeagueGamesApi(APIView):
    pagination_class = GamePagination

    @extend_schema(
        operation_id="leagues_games",
        summary="Game history",
        description="The league's games, newest first, with each game's ranking.",
        parameters=[
            RULESET_PARAM,
            OpenApiParameter("player", OpenApiTypes.INT, description="Games this player sat at."),
            OpenApiParameter("status", OpenApiTypes.STR, enum=["in_progress", "finished"]),
            OpenApiParameter("page", OpenApiTypes.INT, description="Page number (from 1)."),
        ],
        responses=LeagueGameOutputSerializer(many=True),
        tags=["leagues"],
    )
    def get(self, request: Request, league_id: int) -> Response:
        league = _league(request, league_id)
        ruleset = request.query_params.get("ruleset")
        player = _int_param(request, "player")
        only = request.query_params.get("status") or None
        games = league_games(league, ruleset, player, status=only)
        # The whole league, or one of its games: counted already by the database.
        total = league_game_count(league, ruleset) if player is None and only is None else None
        paginator = self.pagination_class(total)
        page = paginator.paginate_queryset(games, request, view=self)
        assert page is not None
        seats = seats_of(page)
        rows = [league_game_row(g, seats[g.pk]) for g in page]
        return paginator.get_paginated_response(LeagueGameOutputSerializer(rows, many=True).data)


class LeagueHeadToHeadApi(APIView):
    @extend_schema(
        operation_id="leagues_head_to_head",
        summary="Head to head",
        description="How two members fared against each other in the league's finished "
        "games they both played.",
        parameters=[
            OpenApiParameter("a", OpenApiTypes.INT, required=True),
            OpenApiParameter("b", OpenApiTypes.INT, required=True),
            SEASON_PARAM,
        ],
        responses=HeadToHeadOutputSerializer,
        tags=["leagues"],
    )
    def get(self, request: Request, league_id: int) -> Response:
        league = _league(request, league_id)
        a = _int_param(request, "a", required=True)
        b = _int_param(request, "b", required=True)
        assert a is not None
        assert b is not None
        if a == b:
            raise RuleError(_("pick two different players"), "b")
        names = dict(
            Player.objects.filter(memberships__league=league, pk__in=[a, b]).values_list(
                "id", "name"
            )
        )
        for field, pid in (("a", a), ("b", b)):
            if pid not in names:
                raise RuleError(
                    _("player %(player)s is not a member of this league") % {"player": pid}, field
                )
        since = until = None
        if "season" in request.query_params:
            season = season_param(
                league_seasons(league), request.query_params["season"], default_current=False
            )
            if season is not None:
                span = season_span(season)
                since, until = span.since, span.until
        record = head_to_head(league, a, b, since=since, until=until) | {
            "a": {"pk": a, "name": names[a]},
            "b": {"pk": b, "name": names[b]},
        }
        return Response(HeadToHeadOutputSerializer(record).data)


class PlayerRatingsApi(APIView):
    @extend_schema(
        operation_id="players_ratings",
        summary="A player's rating over time",
        description="The player's rating after each of their finished league games, "
        "oldest first: in one league, or in every league you can see.",
        parameters=[
            OpenApiParameter("league", OpenApiTypes.INT, description="Only this league."),
            RULESET_PARAM,
        ],
        responses=RatingPointOutputSerializer(many=True),
        tags=["players"],
    )
    def get(self, request: Request, player_id: int) -> Response:
        player = player_visible_to(signed_in_user(request), player_id)
        if player is None:
            raise NotFound(_("No such player."))
        scope = ruleset_scope(request.query_params.get("ruleset"))
        league_id = _int_param(request, "league")
        if league_id is not None:
            points = rating_history(player, _league(request, league_id), scope)
        else:
            visible = list(leagues_visible_to(signed_in_user(request)).values_list("id", flat=True))
            points = rating_history(player, visible, scope)
        return Response(RatingPointOutputSerializer(points, many=True).data)


urlpatterns = [
    path("leagues/", LeaguesApi.as_view(), name="api-league-list"),
    path("leagues/<int:league_id>/", LeagueDetailApi.as_view(), name="api-league-detail"),
    path("leagues/<int:league_id>/members/", LeagueMembersApi.as_view(), name="api-league-members"),
    path(
        "leagues/<int:league_id>/standings/",
        LeagueStandingsApi.as_view(),
        name="api-league-standings",
    ),
    path("leagues/<int:league_id>/games/", LeagueGamesApi.as_view(), name="api-league-games"),
    path(
        "leagues/<int:league_id>/head-to-head/",
        LeagueHeadToHeadApi.as_view(),
        name="api-league-head-to-head",
    ),
    path("players/<int:player_id>/ratings/", PlayerRatingsApi.as_view(), name="api-player-ratings"),
    *season_urls,
]
