"""Players: the people at the table (most never sign in). Every signed-in user sees all
of them, so a table can seat anyone already known."""

from __future__ import annotations

from django.db.models import QuerySet
from django.db.models.functions import Lower
from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.utils import OpenApiParameter, OpenApiTypes, extend_schema
from rest_framework import serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.api.auth import signed_in_user
from scorekeeper.models import Player
from scorekeeper.services.players import MAX_NAME, player_create


class PlayerOutputSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name"]


def player_payload(player: Player) -> dict[str, object]:
    return {"id": player.pk, "name": player.name}


def players_matching(q: str) -> QuerySet[Player]:
    players = Player.objects.order_by(Lower("name"), "id")
    for word in q.split():
        players = players.filter(name__icontains=word)
    return players


class PlayersApi(APIView):
    pagination_class = PageNumberPagination

    class PlayerInputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=MAX_NAME)

    @extend_schema(
        operation_id="players_list",
        summary="List players",
        description="Every player, by name; `q` keeps those whose name holds every word.",
        parameters=[
            OpenApiParameter("q", OpenApiTypes.STR, description="Words of the name."),
            OpenApiParameter("page", OpenApiTypes.INT, description="Page number (from 1)."),
        ],
        responses=PlayerOutputSerializer(many=True),
        tags=["players"],
    )
    def get(self, request: Request) -> Response:
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(
            players_matching(request.query_params.get("q", "")), request, view=self
        )
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
        responses=PlayerOutputSerializer,
        tags=["players"],
    )
    def get(self, request: Request, player_id: int) -> Response:
        return Response(player_payload(get_object_or_404(Player, pk=player_id)))


urlpatterns = [
    path("players/", PlayersApi.as_view(), name="api-player-list"),
    path("players/<int:player_id>/", PlayerDetailApi.as_view(), name="api-player-detail"),
]
