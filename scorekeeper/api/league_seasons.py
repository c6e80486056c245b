"""A league's seasons over the API: the list, and a new season started by the owner or
an admin.

``GET /api/v1/leagues/{id}/seasons/`` lists them, the latest first, each closed one with
its champion; ``POST`` ``{"name", "start" (optional, YYYY-MM-DD, default today)}`` starts
a new one (the league's owner and admins: 403 for anyone else), closing the current
season on the day before with its final table kept. A season's standings are
``GET /api/v1/leagues/{id}/standings/?season=ID``.
"""

from __future__ import annotations

from typing import Any

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.api.auth import signed_in_user
from scorekeeper.models import League, Season
from scorekeeper.selectors.games import leagues_visible_to
from scorekeeper.selectors.league_seasons import champion, league_seasons
from scorekeeper.services.seasons import MAX_SEASON_NAME, season_start


class ChampionSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField(help_text="The name as it was when the season closed.")
    rating = serializers.FloatField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()


class SeasonOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    start = serializers.DateField(help_text="Its first day (the site's time zone).")
    end = serializers.DateField(
        allow_null=True, help_text="Its last day; null while it is the current season."
    )
    current = serializers.BooleanField(help_text="Whether it is the season being played.")
    champion = ChampionSerializer(
        allow_null=True,
        help_text="First of the kept final table over all games; null while current, or "
        "when no game was finished in it.",
    )


class SeasonInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=MAX_SEASON_NAME)
    start = serializers.DateField(
        required=False, help_text="The first day (YYYY-MM-DD); today if left out."
    )


def season_payload(season: Season) -> dict[str, Any]:
    return dict(
        SeasonOutputSerializer(
            {
                "pk": season.pk,
                "name": season.name,
                "start": season.start,
                "end": season.end,
                "current": season.end is None,
                "champion": champion(season),
            }
        ).data
    )


class LeagueSeasonsApi(APIView):
    InputSerializer = SeasonInputSerializer

    @extend_schema(
        operation_id="leagues_seasons_list",
        summary="A league's seasons",
        description="The latest first. A game belongs to the season its start falls in; "
        "each season's ratings start level.",
        responses=SeasonOutputSerializer(many=True),
        tags=["leagues"],
    )
    def get(self, request: Request, league_id: int) -> Response:
        league = _league(request, league_id)
        return Response([season_payload(s) for s in league_seasons(league)])

    @extend_schema(
        operation_id="leagues_seasons_create",
        summary="Start a new season",
        description="The league's owner and admins only. Closes the current season on the "
        "day before `start`, keeping its final table; the first season of a league with "
        "games also closes the games before it as a season of their own. `start` may not be after "
        "today, nor on or before the latest season's first (or, closed, last) day.",
        request=InputSerializer,
        responses={
            201: SeasonOutputSerializer,
            403: OpenApiResponse(description="Only the owner and admins start seasons."),
        },
        tags=["leagues"],
    )
    def post(self, request: Request, league_id: int) -> Response:
        league = _league(request, league_id)
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        season = season_start(
            league=league,
            user=signed_in_user(request),
            name=data.validated_data["name"],
            start=data.validated_data.get("start"),
        )
        return Response(season_payload(season), status=status.HTTP_201_CREATED)


def _league(request: Request, league_id: int) -> League:
    league = leagues_visible_to(signed_in_user(request)).filter(pk=league_id).first()
    if league is None:
        raise NotFound(_("No such league."))
    return league


urlpatterns = [
    path(
        "leagues/<int:league_id>/seasons/",
        LeagueSeasonsApi.as_view(),
        name="api-league-seasons",
    ),
]
