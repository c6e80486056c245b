"""Invites over the API: links that let the other phones at the table into one game.

``POST …/invites/`` makes a ``score`` or ``watch`` link, ``GET`` lists the live ones,
``DELETE …/invites/{id}/`` revokes one. Only whoever may change the game (its owner, its
league's members) may do any of it: a game you cannot see is a 404, one you may only
see a 403, as everywhere in the API.
"""

from __future__ import annotations

from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.api.auth import signed_in_user
from scorekeeper.api.fields import OutputSerializer
from scorekeeper.models import Game, InviteRole
from scorekeeper.selectors.access import find_game_access
from scorekeeper.selectors.invites import live_invites
from scorekeeper.services.invites import invite_create, invite_revoke
from scorekeeper.validation import MAX_ID

ROLE_ERROR = gettext_lazy("'{input}' is not a role (choose score or watch)")


class InviteSerializer(OutputSerializer):
    """An invite, made with the request in its context (its links are absolute)."""

    id = serializers.IntegerField()
    role = serializers.ChoiceField(choices=InviteRole.values)
    url = serializers.HyperlinkedIdentityField(
        view_name="join",
        lookup_field="token",
        help_text="The absolute join link, `/join/<token>/`: whoever opens it joins the game.",
    )
    qr_svg = serializers.HyperlinkedIdentityField(
        view_name="join_qr",
        lookup_field="token",
        help_text="The join link as an SVG QR code (image/svg+xml).",
    )


class InviteInputSerializer(serializers.Serializer):
    role = serializers.ChoiceField(
        choices=InviteRole.values,
        help_text="`score`: record, correct and undo hands; `watch`: follow the sheet.",
        error_messages={"invalid_choice": ROLE_ERROR},
    )


def shareable_game(request: Request, game_id: int) -> Game:
    access = find_game_access(game_id, request.user, rows=False)
    if access is None:
        raise NotFound(_("There is no game %(game)s that you can see.") % {"game": game_id})
    if not access.may_manage:
        raise PermissionDenied(
            _("Only the game's owner and its league's owner and admins may share it.")
        )
    return access.game


NOT_FOUND = OpenApiResponse(description="No such game that you can see.")
FORBIDDEN = OpenApiResponse(
    description="You may see this game but not share it: only its owner and members of "
    "its league may."
)
UNAUTHENTICATED = OpenApiResponse(description="Not signed in.")


class GameInvitesApi(APIView):
    @extend_schema(
        operation_id="games_invites_list",
        summary="A game's live invite links",
        description="Newest first; revoked links are not listed.",
        responses={
            200: InviteSerializer(many=True),
            401: UNAUTHENTICATED,
            403: FORBIDDEN,
            404: NOT_FOUND,
        },
        tags=["invites"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = shareable_game(request, game_id)
        invites = InviteSerializer(live_invites(game), many=True, context={"request": request})
        return Response(invites.data)

    @extend_schema(
        operation_id="games_invites_create",
        summary="Invite a phone at the table",
        description=(
            "A new join link. Whoever opens it needs no account: with `watch` they "
            "follow the sheet live, read-only; with `score` they give a name once and "
            "may then record, correct and undo hands of this one game (the hand's "
            "history names them as a guest). Nothing else is reachable with it."
        ),
        request=InviteInputSerializer,
        responses={
            201: InviteSerializer,
            400: OpenApiResponse(description="Bad role: `{role: [message]}`."),
            401: UNAUTHENTICATED,
            403: FORBIDDEN,
            404: NOT_FOUND,
        },
        examples=[OpenApiExample("score", request_only=True, value={"role": "score"})],
        tags=["invites"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = shareable_game(request, game_id)
        sent = InviteInputSerializer(data=request.data)
        sent.is_valid(raise_exception=True)
        invite = invite_create(
            game=game, user=signed_in_user(request), role=sent.validated_data["role"]
        )
        answer = InviteSerializer(invite, context={"request": request})
        return Response(answer.data, status=status.HTTP_201_CREATED)


class GameInviteApi(APIView):
    @extend_schema(
        operation_id="games_invites_destroy",
        summary="Revoke an invite link",
        description="The link answers 404 from now on, and the phones that joined with it "
        "lose the game at their next request. The hands they recorded stay, and "
        "still name them.",
        responses={
            204: None,
            401: UNAUTHENTICATED,
            403: FORBIDDEN,
            404: OpenApiResponse(
                description="No such game that you can see, or no live link with this id."
            ),
        },
        tags=["invites"],
    )
    def delete(self, request: Request, game_id: int, invite_id: int) -> Response:
        game = shareable_game(request, game_id)
        invite = live_invites(game).filter(pk=invite_id).first() if invite_id <= MAX_ID else None
        if invite is None:
            raise NotFound(
                _("Game %(game)s has no live invite %(invite)s.")
                % {"game": game_id, "invite": invite_id}
            )
        invite_revoke(invite=invite, user=signed_in_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [
    path("games/<int:game_id>/invites/", GameInvitesApi.as_view(), name="api-game-invites"),
    path(
        "games/<int:game_id>/invites/<int:invite_id>/",
        GameInviteApi.as_view(),
        name="api-game-invite",
    ),
]
