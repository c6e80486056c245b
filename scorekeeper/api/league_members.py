"""A league member's role, and leaving a league, in the API.

* ``GET /api/v1/leagues/{id}/members/{player}/`` → ``{"id", "name", "role"}``;
* ``PATCH`` the same with ``{"role": "admin" | "recorder" | "viewer"}`` (the league's
  owner and admins; the owner's own membership keeps every right: ``403``);
* ``POST /api/v1/leagues/{id}/leave/`` ``{"password"}`` → ``204``: the caller's player is
  no longer a member (the password asked again: it cannot be undone by them).

Who may is ``selectors.access.league_access``; the writes are
``services.league_members``.
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
from scorekeeper.models import League, MemberRole, Membership
from scorekeeper.security import rate_limit
from scorekeeper.selectors.games import leagues_visible_to
from scorekeeper.services.league_members import league_leave, member_set_role


class MemberRoleOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="player_id", help_text="The player's id.")
    name = serializers.CharField(source="player.name")
    role = serializers.ChoiceField(
        choices=MemberRole.values,
        help_text="admin: manages games and members; recorder: starts games and enters "
        "hands; viewer: only looks. The league's owner has every right whatever it says.",
    )


class MemberRoleInputSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=MemberRole.values)


class LeaveInputSerializer(serializers.Serializer):
    password = serializers.CharField(
        trim_whitespace=False, max_length=4096, help_text="Your password, asked again."
    )


def _league(request: Request, league_id: int) -> League:
    league = leagues_visible_to(signed_in_user(request)).filter(pk=league_id).first()
    if league is None:
        raise NotFound(_("No such league."))
    return league


def _membership(league: League, player_id: int) -> Membership:
    membership = (
        Membership.objects.select_related("player")
        .filter(league=league, player_id=player_id)
        .first()
    )
    if membership is None:
        raise NotFound(_("No such member of this league."))
    return membership


class LeagueMemberApi(APIView):
    @extend_schema(
        operation_id="leagues_member_retrieve",
        summary="A member and their role",
        responses={200: MemberRoleOutputSerializer, 404: OpenApiResponse(description="Not one.")},
        tags=["leagues"],
    )
    def get(self, request: Request, league_id: int, player_id: int) -> Response:
        membership = _membership(_league(request, league_id), player_id)
        return Response(MemberRoleOutputSerializer(membership).data)

    @extend_schema(
        operation_id="leagues_member_role",
        summary="Set a member's role",
        description="The league's owner and admins set what a member may do. The owner's "
        "own membership is not changed (403).",
        request=MemberRoleInputSerializer,
        responses={
            200: MemberRoleOutputSerializer,
            403: OpenApiResponse(description="You may not set roles here, or it is the owner."),
        },
        tags=["leagues"],
    )
    def patch(self, request: Request, league_id: int, player_id: int) -> Response:
        league = _league(request, league_id)
        data = MemberRoleInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        _membership(league, player_id)
        membership = member_set_role(
            league=league,
            player=player_id,
            role=data.validated_data["role"],
            user=signed_in_user(request),
        )
        return Response(MemberRoleOutputSerializer(membership).data)


class LeagueLeaveApi(APIView):
    @extend_schema(
        operation_id="leagues_leave",
        summary="Leave a league",
        description="Ends your membership (your games stay in its history). Asks for your "
        "password again; the league's owner cannot leave (403).",
        request=LeaveInputSerializer,
        responses={
            204: None,
            400: OpenApiResponse(description="Missing or wrong password."),
            403: OpenApiResponse(description="The league's owner cannot leave it."),
            404: OpenApiResponse(description="No such league, or you are not a member."),
            429: OpenApiResponse(
                description="Too many password attempts from this address: wait as many "
                "seconds as `Retry-After` says."
            ),
        },
        tags=["leagues"],
    )
    def post(self, request: Request, league_id: int) -> Response:
        league = _league(request, league_id)
        user = signed_in_user(request)
        data = LeaveInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        league_leave(league=league, user=user, password=data.validated_data["password"])
        return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [
    path(
        "leagues/<int:league_id>/members/<int:player_id>/",
        LeagueMemberApi.as_view(),
        name="api-league-member",
    ),
    path(
        "leagues/<int:league_id>/leave/",
        rate_limit("sign-in")(LeagueLeaveApi.as_view()),
        name="api-league-leave",
    ),
]
