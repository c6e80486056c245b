"""Token sign-in for API clients: ``POST /api/v1/auth/token/`` trades a username and
password for the token sent as ``Authorization: Token <token>``; ``DELETE`` revokes it.

Password guessing meets the same limits as the sign-in page, counted in the database for
every worker: requests per client address (:func:`scorekeeper.security.rate_limit`) and
wrong passwords per username and address (django-axes, which answers the locked-out
attempt with a JSON ``429`` through its middleware). Both give ``Retry-After``."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.api.fields import OutputSerializer
from scorekeeper.security import rate_limit


class TokenSerializer(OutputSerializer):
    token = serializers.CharField(source="key")
    user = serializers.IntegerField(source="user_id", help_text="Id of the signed-in account.")
    username = serializers.CharField(source="user.get_username")


def signed_in_user(request: Request) -> User:
    """The request's account (the views' IsAuthenticated permission makes sure of it)."""
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated()
    return user


class TokenApi(APIView):
    """POST signs in with a password (public); DELETE revokes the caller's token."""

    def _signing_in(self) -> bool:
        # (Schema generation asks before there is a request: the schema says it itself.)
        request = getattr(self, "request", None)
        return request is not None and request.method == "POST"

    def get_authenticators(self) -> list[BaseAuthentication]:
        # Signing in needs no session: a signed-in browser must not need a CSRF token
        # to ask for an API token with a password.
        return [] if self._signing_in() else super().get_authenticators()

    def get_permissions(self) -> Sequence[BasePermission]:
        return [AllowAny()] if self._signing_in() else [IsAuthenticated()]

    @extend_schema(
        operation_id="auth_token_create",
        summary="Get an API token",
        description=(
            "Trade a username and password for the account's API token (the same token "
            "every time until it is revoked). Send it as `Authorization: Token <token>`."
        ),
        request=AuthTokenSerializer,
        responses={
            200: TokenSerializer,
            400: OpenApiResponse(description="Missing, wrong or inactive username or password."),
            429: OpenApiResponse(
                description="Too many attempts from this address, or too many wrong "
                "passwords for this username: wait as many seconds as `Retry-After` says."
            ),
        },
        auth=[],
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        # django-axes keeps its marks on the Django request, where its middleware looks.
        serializer = AuthTokenSerializer(data=request.data, context={"request": request._request})
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        token, _ = Token.objects.get_or_create(user=user)
        return Response(TokenSerializer(token).data)

    @extend_schema(
        operation_id="auth_token_destroy",
        summary="Revoke my API token",
        description="Signs every API client of this account out; the next sign-in gets a "
        "new token.",
        request=None,
        responses={204: None},
        tags=["auth"],
    )
    def delete(self, request: Request) -> Response:
        Token.objects.filter(user=signed_in_user(request)).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [
    path("auth/token/", rate_limit("api-token")(TokenApi.as_view()), name="api-token"),
]
