"""Game nights: the games one table plays in an evening, held together with their own
standings (games won, then placings summed). The newest game is the night's current game."""

from __future__ import annotations

from typing import Any

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.api.auth import signed_in_user
from scorekeeper.api.fields import IdField, OutputSerializer
from scorekeeper.api.invites import InviteInputSerializer, InviteSerializer
from scorekeeper.models import Night
from scorekeeper.selectors.invites import live_night_invites
from scorekeeper.selectors.nights import (
    current_game,
    may_manage_night,
    night_games,
    night_standings,
    nights_visible_to,
)
from scorekeeper.services.invites import invite_revoke, night_invite_create
from scorekeeper.services.nights import MAX_NAME, night_create
from scorekeeper.validation import MAX_ID


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
            raise NotFound(_("No such night."))
        return Response(night_answer(night))


def shareable_night(request: Request, night_id: int) -> Night:
    night = nights_visible_to(request.user).filter(pk=night_id).first()
    if night is None:
        raise NotFound(_("There is no night %(night)s that you can see.") % {"night": night_id})
    if not may_manage_night(request.user, night):
        raise PermissionDenied(
            _("Only the night's owner and its league's owner and admins may share it.")
        )
    return night


NO_NIGHT = OpenApiResponse(description="No such night that you can see.")
NOT_SHARER = OpenApiResponse(
    description="You may see this night but not share it: only its owner and its "
    "league's owner and admins may."
)


class NightInvitesApi(APIView):
    @extend_schema(
        operation_id="nights_invites_list",
        summary="A night's live invite links",
        description="Newest first; revoked links are not listed.",
        responses={200: InviteSerializer(many=True), 403: NOT_SHARER, 404: NO_NIGHT},
        tags=["nights"],
    )
    def get(self, request: Request, night_id: int) -> Response:
        night = shareable_night(request, night_id)
        invites = live_night_invites(night)
        return Response(InviteSerializer(invites, many=True, context={"request": request}).data)

    @extend_schema(
        operation_id="nights_invites_create",
        summary="Invite a phone to the whole night",
        description=(
            "One join link for every game of the night. With `watch` the phone follows "
            "the night's current game live; with `score` it gives a name once and may "
            "record, correct and undo hands of every game of the night. When the next "
            "game of the night starts, the phones that joined by it move to it by "
            "themselves."
        ),
        request=InviteInputSerializer,
        responses={
            201: InviteSerializer,
            400: OpenApiResponse(description="Bad role: `{role: [message]}`."),
            403: NOT_SHARER,
            404: NO_NIGHT,
        },
        examples=[OpenApiExample("score", request_only=True, value={"role": "score"})],
        tags=["nights"],
    )
    def post(self, request: Request, night_id: int) -> Response:
        night = shareable_night(request, night_id)
        sent = InviteInputSerializer(data=request.data)
        sent.is_valid(raise_exception=True)
        invite = night_invite_create(
            night=night, user=signed_in_user(request), role=sent.validated_data["role"]
        )
        answer = InviteSerializer(invite, context={"request": request})
        return Response(answer.data, status=status.HTTP_201_CREATED)


class NightInviteApi(APIView):
    @extend_schema(
        operation_id="nights_invites_destroy",
        summary="Revoke a night's invite link",
        description="The link answers 404 from now on, and the phones that joined with it "
        "lose every game of the night at their next request.",
        responses={204: None, 403: NOT_SHARER, 404: NO_NIGHT},
        tags=["nights"],
    )
    def delete(self, request: Request, night_id: int, invite_id: int) -> Response:
        night = shareable_night(request, night_id)
        invite = (
            live_night_invites(night).select_related("night").filter(pk=invite_id).first()
            if invite_id <= MAX_ID
            else None
        )
        if invite is None:
            raise NotFound(
                _("Night %(night)s has no live invite %(invite)s.")
                % {"night": night_id, "invite": invite_id}
            )
        invite_revoke(invite=invite, user=signed_in_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [
    path("nights/", NightsApi.as_view(), name="api-night-list"),
    path("nights/<int:night_id>/", NightDetailApi.as_view(), name="api-night-detail"),
    path("nights/<int:night_id>/invites/", NightInvitesApi.as_view(), name="api-night-invites"),
    path(
        "nights/<int:night_id>/invites/<int:invite_id>/",
        NightInviteApi.as_view(),
        name="api-night-invite",
    ),
]
