"""The table's shared tools over the API (``games/<id>/table/``): the negotiation timer,
the draw penalty, the direction of play and who leads, as the sheet's phones share them
(``services.table``). GET reads them with the server's clock; POST changes them (the
game's owner and league members: accounts that may change the game). A tool the game
does not have is a 400 naming ``action``."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.api.auth import signed_in_user
from scorekeeper.api.fields import OutputSerializer
from scorekeeper.api.game_serializers import CHANGE_ERRORS, ERRORS
from scorekeeper.models import Game
from scorekeeper.selectors.access import GameAccess, find_game_access
from scorekeeper.selectors.rows import rows_by_version
from scorekeeper.selectors.table import game_table, hand_in_play
from scorekeeper.services.table import ACTIONS, parse_action, table_act


class TimerSerializer(OutputSerializer):
    seconds = serializers.IntegerField(help_text="The timer's full length.")
    running = serializers.BooleanField()
    remaining = serializers.FloatField(help_text="Seconds left at `server_now`.")
    ends_at = serializers.IntegerField(
        allow_null=True, help_text="When a running timer reaches zero (ms since the epoch)."
    )
    state = serializers.ChoiceField(choices=["idle", "running", "paused", "done"])


class TableSerializer(OutputSerializer):
    revision = serializers.IntegerField(help_text="One more at every change.")
    server_now = serializers.IntegerField(help_text="The server's clock (ms since the epoch).")
    hand = serializers.IntegerField(help_text="The hand in play (0: the game is over).")
    timer = TimerSerializer(allow_null=True, help_text="None: the game has no timer.")
    penalty = serializers.IntegerField(help_text="Cards the next player draws.")
    clockwise = serializers.BooleanField(help_text="The direction of play.")
    leader = serializers.IntegerField(allow_null=True, help_text="Who leads (player id).")
    leader_name = serializers.CharField(allow_null=True)
    finished = serializers.BooleanField()
    actions = serializers.ListField(
        child=serializers.CharField(),
        help_text="The actions this game takes (of `action`'s choices: the tools its rules "
        "call for); any other is a 400 naming `action`.",
    )


class TableActionSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=list(ACTIONS))
    amount = serializers.IntegerField(required=False, help_text="For `penalty-add`: 1–100.")
    player = serializers.IntegerField(
        required=False, allow_null=True, help_text="For `leader`: a player's id, or null."
    )


def _access(request: Request, game_id: int) -> GameAccess:
    access = find_game_access(game_id, request.user, rows=False)
    if access is None:
        raise NotFound(_("There is no game %(game)s that you can see.") % {"game": game_id})
    return access


class GameTableApi(APIView):
    @extend_schema(
        operation_id="games_table_read",
        summary="The table's shared tools",
        responses={200: TableSerializer, 404: ERRORS[404]},
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = _access(request, game_id).game
        rows = rows_by_version(game)
        return Response(game_table(game, rows.state, rows.names))

    @extend_schema(
        operation_id="games_table_act",
        summary="Start, pause or reset the timer; add to or clear the penalty; reverse "
        "the direction; say who leads",
        request=TableActionSerializer,
        responses={200: TableSerializer, **CHANGE_ERRORS},
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        access = _access(request, game_id)
        if not access.may_change:
            raise PermissionDenied(_("Only the game's owner and members of its league may."))
        body = request.data if isinstance(request.data, dict) else {}
        act = parse_action(body)
        rows = rows_by_version(access.game)
        try:
            table_act(
                game=access.game,
                user=signed_in_user(request),
                guest=None,
                act=act,
                hand=hand_in_play(rows.state),
            )
        except Game.DoesNotExist:
            raise NotFound(
                _("There is no game %(game)s that you can see.") % {"game": game_id}
            ) from None
        return Response(game_table(access.game, rows.state, rows.names))


urlpatterns = [
    path("games/<int:game_id>/table/", GameTableApi.as_view(), name="api-game-table"),
]
