"""Players: the people at the table (most never sign in). Players belong to someone:
the list shows your own players (yours, those you created) and your leagues' members,
the ones you may seat; one player is also there when they sat at a game you can see."""

from __future__ import annotations

from django.db.models import QuerySet
from django.db.models.functions import Lower
from django.urls import path
from drf_spectacular.utils import OpenApiParameter, OpenApiTypes, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.api.auth import signed_in_user
from scorekeeper.models import Player
from scorekeeper.selectors.games import player_visible_to, players_usable_by
from scorekeeper.services.players import MAX_NAME, player_create


class PlayerOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name"]


def player_payload(player: Player) -> dict[str, object]:
    return {"id": player.pk, "name": player.name}


def players_matching(players: QuerySet[Player], q: str) -> QuerySet[Player]:
    players = players.order_by(Lower("name"), "id")
    for word in q.split():
        players = players.filter(name__icontains=word)
    return players


class PlayersApi(APIView):
    pagination_class = PageNumberPagination

    class PlayerInputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=MAX_NAME)

    class PlayerFilterSerializer(serializers.Serializer):
        q = serializers.CharField(
            required=False, allow_blank=True, max_length=200, help_text="Words of the name."
        )

    @extend_schema(
        operation_id="players_list",
        summary="List players",
        description="The players you may seat, by name: your own, those you created and "
        "your leagues' members. `q` keeps those whose name holds every word.",
        parameters=[
            PlayerFilterSerializer,
            OpenApiParameter("page", OpenApiTypes.INT, description="Page number (from 1)."),
        ],
        responses=PlayerOutputSerializer(many=True),
        tags=["players"],
    )
    def get(self, request: Request) -> Response:
        filters = self.PlayerFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        players = players_matching(
            players_usable_by(request.user), filters.validated_data.get("q", "")
        )
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(players, request, view=self)
        assert page is not None
        return paginator.get_paginated_response([player_payload(p) for p in page])

    @extend_schema(
        operation_id="players_create",
        summary="Add a player",
        request=PlayerInputSerializer,
        responses={201: PlayerOutputSerializer},
        tags=["players"],
    )
    def post(self, request: Request) -> Response:
        data = self.PlayerInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = player_create(name=data.validated_data["name"], created_by=signed_in_user(request))
        return Response(player_payload(player), status=status.HTTP_201_CREATED)


class PlayerDetailApi(APIView):
    @extend_schema(
        operation_id="players_retrieve",
        summary="One player",
        description="One of your players, your leagues', or one who sat at a game you "
        "can see; 404 for anyone else.",
        responses=PlayerOutputSerializer,
        tags=["players"],
    )
    def get(self, request: Request, player_id: int) -> Response:
        player = player_visible_to(request.user, player_id)
        if player is None:
            raise NotFound("No such player.")
        return Response(player_payload(player))


urlpatterns = [
    path("players/", PlayersApi.as_view(), name="api-player-list"),
    path("players/<int:player_id>/", PlayerDetailApi.as_view(), name="api-player-detail"),
]
