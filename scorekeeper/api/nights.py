"""Game nights: the games one table plays in an evening, held together with their own
standings (games won, then placings summed). The newest game is the night's current game."""

from __future__ import annotations

from typing import Any

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.api.auth import signed_in_user
from scorekeeper.api.fields import IdField, OutputSerializer
from scorekeeper.models import Night
from scorekeeper.selectors.nights import (
    current_game,
    night_games,
    night_standings,
    nights_visible_to,
)
from scorekeeper.services.nights import MAX_NAME, night_create


class NightGameSerializer(OutputSerializer):
    id = serializers.IntegerField()
    ruleset = serializers.CharField()
    status = serializers.CharField()


class NightStandingSerializer(OutputSerializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    games = serializers.IntegerField(help_text="Finished games of the night played.")
    wins = serializers.IntegerField(help_text="Games won.")
    placings = serializers.IntegerField(help_text="Final places summed (lowest best).")
    rank = serializers.IntegerField(help_text="Players equal on wins and placings share it.")


class NightSerializer(OutputSerializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    league = serializers.IntegerField(source="league_id", allow_null=True)
    games = NightGameSerializer(many=True)
    current_game = serializers.IntegerField(
        allow_null=True, help_text="The id of the night's newest game (null: none yet)."
    )
    standings = NightStandingSerializer(many=True)


def night_answer(night: Night) -> dict[str, Any]:
    current = current_game(night)
    view = {
        "id": night.pk,
        "name": night.name,
        "league_id": night.league_id,
        "games": night_games(night),
        "current_game": None if current is None else current.pk,
        "standings": night_standings(night),
    }
    return dict(NightSerializer(view).data)


class NightsApi(APIView):
    class NightInputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=MAX_NAME)
        league = IdField(required=False, allow_null=True, help_text="A league you belong to.")

    @extend_schema(
        operation_id="nights_list",
        summary="List my game nights",
        description="Your nights and your leagues', newest first.",
        responses=NightSerializer(many=True),
        tags=["nights"],
    )
    def get(self, request: Request) -> Response:
        nights = nights_visible_to(request.user)[:100]
        return Response([night_answer(n) for n in nights])

    @extend_schema(
        operation_id="nights_create",
        summary="Start a game night",
        request=NightInputSerializer,
        responses={
            201: NightSerializer,
            400: OpenApiResponse(description="Bad input: `{field: [message]}`."),
        },
        tags=["nights"],
    )
    def post(self, request: Request) -> Response:
        data = self.NightInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        night = night_create(owner=signed_in_user(request), **data.validated_data)
        return Response(night_answer(night), status=status.HTTP_201_CREATED)


class NightDetailApi(APIView):
    @extend_schema(
        operation_id="nights_retrieve",
        summary="A game night",
        responses={
            200: NightSerializer,
            404: OpenApiResponse(description="No such night that you can see."),
        },
        tags=["nights"],
    )
    def get(self, request: Request, night_id: int) -> Response:
        night = nights_visible_to(request.user).filter(pk=night_id).first()
        if night is None:
            raise NotFound("No such night.")
        return Response(night_answer(night))


urlpatterns = [
    path("nights/", NightsApi.as_view(), name="api-night-list"),
    path("nights/<int:night_id>/", NightDetailApi.as_view(), name="api-night-detail"),
]
