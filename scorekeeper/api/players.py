"""Players: the people at the table (most never sign in). Players belong to someone:
the list shows your own players (yours, those you created) and your leagues' members,
the ones you may seat; one player is also there when they sat at a game you can see.

The players you may manage (``services.player_admin``) can be renamed, given a colour,
hidden from the pickers (``PATCH``) and merged into another (``POST …/merge/``)."""

from __future__ import annotations

from django.db.models import QuerySet
from django.db.models.functions import Lower
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    OpenApiTypes,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.exceptions import PermissionDenied as ApiPermissionDenied
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.api.auth import signed_in_user
from scorekeeper.api.fields import IdField, OutputSerializer
from scorekeeper.models import PLAYER_COLOURS, Player
from scorekeeper.selectors.games import player_visible_to, players_usable_by
from scorekeeper.selectors.player_colours import colour_of
from scorekeeper.services.player_admin import (
    Merged,
    NoSuchPlayer,
    NotManageable,
    player_merge,
    player_update,
)
from scorekeeper.services.players import MAX_NAME, player_create


class PlayerOutputSerializer(OutputSerializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    colour = serializers.SerializerMethodField(
        help_text=f"The player's marker colour: a slot of the palette, 1 to {PLAYER_COLOURS} "
        "(chosen, or picked from the id when `colour_chosen` is false)."
    )
    colour_chosen = serializers.SerializerMethodField(help_text="Whether the colour was chosen.")
    hidden = serializers.BooleanField(
        help_text="Left out of the pickers and of this list (unless asked for)."
    )

    @extend_schema_field(serializers.IntegerField(min_value=1, max_value=PLAYER_COLOURS))
    def get_colour(self, player: Player) -> int:
        return colour_of(player)

    def get_colour_chosen(self, player: Player) -> bool:
        return player.colour is not None


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
        hidden = serializers.ChoiceField(
            choices=["exclude", "include", "only"],
            required=False,
            default="exclude",
            help_text="Hidden players: left out (the default), listed too, or only them.",
        )

    @extend_schema(
        operation_id="players_list",
        summary="List players",
        description="The players you may seat, by name: your own, those you created and "
        "your leagues' members. `q` keeps those whose name holds every word; hidden "
        "players are left out unless `hidden` says otherwise.",
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
        hidden = filters.validated_data.get("hidden", "exclude")
        if hidden == "exclude":
            players = players.filter(hidden=False)
        elif hidden == "only":
            players = players.filter(hidden=True)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(players, request, view=self)
        assert page is not None
        return paginator.get_paginated_response(PlayerOutputSerializer(page, many=True).data)

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
        return Response(PlayerOutputSerializer(player).data, status=status.HTTP_201_CREATED)


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
            raise NotFound(_("No such player."))
        return Response(PlayerOutputSerializer(player).data)

    class PlayerUpdateSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=MAX_NAME, required=False)
        colour = serializers.IntegerField(
            min_value=1,
            max_value=PLAYER_COLOURS,
            required=False,
            allow_null=True,
            help_text=f"A slot of the palette, 1 to {PLAYER_COLOURS}; null: picked from the id.",
        )
        hidden = serializers.BooleanField(
            required=False, help_text="Hide from the pickers (true) or show again (false)."
        )

    @extend_schema(
        operation_id="players_partial_update",
        summary="Rename, colour or hide a player",
        description="Change any of `name`, `colour` and `hidden` of a player you may "
        "manage: one you created, your own, or a member without an account of a league "
        "you own. Past games show the new name. A hidden player is left out of the "
        "pickers and the list, but stays in past games and standings.",
        request=PlayerUpdateSerializer,
        responses={
            200: PlayerOutputSerializer,
            403: OpenApiResponse(description="You may see the player but not manage it."),
        },
        tags=["players"],
    )
    def patch(self, request: Request, player_id: int) -> Response:
        data = self.PlayerUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        try:
            player = player_update(
                user=signed_in_user(request),
                player=player_id,
                name=values.get("name"),
                colour=values.get("colour", ...),
                hidden=values.get("hidden"),
            )
        except NoSuchPlayer:
            raise NotFound(_("No such player.")) from None
        except NotManageable as exc:
            raise ApiPermissionDenied(str(exc)) from None
        return Response(PlayerOutputSerializer(player).data)


class PlayerMergeApi(APIView):
    class MergeInputSerializer(serializers.Serializer):
        into = IdField(help_text="The player who stays: the other's games become theirs.")

    class MergeOutputSerializer(OutputSerializer):
        player = PlayerOutputSerializer(source="into", help_text="The player who stayed.")
        merged = serializers.IntegerField(
            source="merge.from_player_id", help_text="The id of the player merged (now gone)."
        )
        merged_name = serializers.CharField(source="merge.from_name")
        games = serializers.IntegerField(help_text="Games moved over.")
        ratings_updating = serializers.SerializerMethodField(
            help_text="Some league ratings are being recomputed in the background."
        )

        def get_ratings_updating(self, merged: Merged) -> bool:
            return merged.deferred > 0

    @extend_schema(
        operation_id="players_merge",
        summary="Merge a player into another",
        description="The player's games, seats, hands, league memberships, standings and "
        "ratings become `into`'s, the merge is recorded (the player's page and the "
        "league say so) and the player goes. Both must be players you may manage, never "
        "at the same game, and not both with an account; otherwise nothing changes and "
        "the answer is a 400 on `into`.",
        request=MergeInputSerializer,
        responses={
            200: MergeOutputSerializer,
            403: OpenApiResponse(description="You may see the player but not manage it."),
        },
        tags=["players"],
    )
    def post(self, request: Request, player_id: int) -> Response:
        data = self.MergeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            merged = player_merge(
                user=signed_in_user(request), source=player_id, into=data.validated_data["into"]
            )
        except NoSuchPlayer:
            raise NotFound(_("No such player.")) from None
        except NotManageable as exc:
            raise ApiPermissionDenied(str(exc)) from None
        return Response(self.MergeOutputSerializer(merged).data)


urlpatterns = [
    path("players/", PlayersApi.as_view(), name="api-player-list"),
    path("players/<int:player_id>/", PlayerDetailApi.as_view(), name="api-player-detail"),
    path("players/<int:player_id>/merge/", PlayerMergeApi.as_view(), name="api-player-merge"),
]
