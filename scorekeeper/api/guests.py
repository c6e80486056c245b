"""A game's guests over the API: who joined by its score links, and removing one.

``GET …/guests/`` lists the guests of the game's live links whom nobody removed;
``DELETE …/guests/{id}/`` removes one: that phone is shut out at once (as revoking its
link would), while the link and its other guests work on, and the hands the guest
recorded still name them. Only whoever may share the game may do either.
"""

from __future__ import annotations

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.api.auth import signed_in_user
from scorekeeper.api.fields import OutputSerializer
from scorekeeper.api.invites import FORBIDDEN, NOT_FOUND, UNAUTHENTICATED, shareable_game
from scorekeeper.selectors.invites import present_guests
from scorekeeper.services.invites import guest_remove
from scorekeeper.validation import MAX_ID


class GuestSerializer(OutputSerializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="The name they gave; hands show “<name> (guest)”.")
    invite = serializers.IntegerField(source="invite_id", help_text="The link they joined by.")
    joined_at = serializers.DateTimeField(source="created_at")


class GameGuestsApi(APIView):
    @extend_schema(
        operation_id="games_guests_list",
        summary="Who joined a game by its score links",
        description="Oldest first; guests of revoked links and removed guests are not listed.",
        responses={
            200: GuestSerializer(many=True),
            401: UNAUTHENTICATED,
            403: FORBIDDEN,
            404: NOT_FOUND,
        },
        tags=["invites"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = shareable_game(request, game_id)
        return Response(GuestSerializer(present_guests(game), many=True).data)


class GameGuestApi(APIView):
    @extend_schema(
        operation_id="games_guests_destroy",
        summary="Remove one guest",
        description="That guest's phone may no longer enter hands or see the game, from "
        "its next request on (a live sheet is told at once); the link and its other "
        "guests work on. The hands they recorded stay, and still name them. It cannot "
        "be undone: let them in again with a new link.",
        responses={
            204: None,
            401: UNAUTHENTICATED,
            403: FORBIDDEN,
            404: OpenApiResponse(
                description="No such game that you can see, or no such guest of it."
            ),
        },
        tags=["invites"],
    )
    def delete(self, request: Request, game_id: int, guest_id: int) -> Response:
        game = shareable_game(request, game_id)
        guest = (
            present_guests(game).select_related("invite").filter(pk=guest_id).first()
            if guest_id <= MAX_ID
            else None
        )
        if guest is None:
            raise NotFound(
                _("Game %(game)s has no guest %(guest)s.") % {"game": game_id, "guest": guest_id}
            )
        guest_remove(guest=guest, user=signed_in_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [
    path("games/<int:game_id>/guests/", GameGuestsApi.as_view(), name="api-game-guests"),
    path(
        "games/<int:game_id>/guests/<int:guest_id>/",
        GameGuestApi.as_view(),
        name="api-game-guest",
    ),
]
