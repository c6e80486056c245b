"""Token sign-in for API clients: ``POST /api/v1/auth/token/`` trades a username and
password for the token sent as ``Authorization: Token <token>``; ``DELETE`` revokes it.
``POST /api/v1/auth/signup/`` creates an account (and its token) under the instance's
sign-up policy, as the sign-up page does.

Password guessing meets the same limits as the sign-in page, counted in the database for
every worker: failed attempts per client address (:func:`scorekeeper.security.rate_limit`;
a token handed out is not counted) and wrong passwords per username and address
(django-axes, which answers the locked-out attempt with a JSON ``429`` through its
middleware). Both give ``Retry-After``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpResponse
from django.urls import path
from django.utils.translation import gettext as _
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

from games import RuleError
from scorekeeper.api.fields import OutputSerializer
from scorekeeper.errors import AccountRefused
from scorekeeper.security import answered_ok, lockout_response, rate_limit
from scorekeeper.services.accounts import SIGNUP_CLOSED, account_create
from scorekeeper.validation import clean_name


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
    def post(self, request: Request) -> HttpResponse:
        serializer = AuthTokenSerializer(data=request.data, context={"request": request})
        if not serializer.is_valid():
            # django-axes marks the request it was given (this one) when it locks out:
            # its middleware looks at the Django request under it, so the answer is here.
            if getattr(request, "axes_locked_out", False):
                return lockout_response(request, None, serializer.initial_data)
            raise serializers.ValidationError(serializer.errors)
        user = serializer.validated_data["user"]
        token, _created = Token.objects.get_or_create(user=user)
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


class SignUpSerializer(serializers.Serializer):
    username = serializers.CharField(
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text="Letters, digits and @/./+/-/_ only.",
    )
    password = serializers.CharField(max_length=4096, write_only=True, trim_whitespace=False)
    email = serializers.EmailField(
        max_length=254, help_text="Only for resetting a forgotten password."
    )
    name = serializers.CharField(
        max_length=60,
        required=False,
        allow_blank=True,
        default="",
        help_text="Name at the table (defaults to the username).",
    )
    invite = serializers.CharField(
        max_length=64,
        required=False,
        allow_blank=True,
        default="",
        help_text="The invitation code, when sign-up is by invitation.",
    )

    def validate_username(self, value: str) -> str:
        if User.objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError(_("A user with that username already exists."))
        return value

    def validate_name(self, value: str) -> str:
        try:
            return clean_name(value, "name", 60) if value.strip() else ""
        except RuleError as exc:
            raise serializers.ValidationError(exc.message) from None

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        candidate = User(username=attrs["username"], email=attrs["email"])
        try:
            validate_password(attrs["password"], candidate)
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from None
        return attrs


class SignUpApi(APIView):
    """POST creates an account, when the instance's sign-up policy allows it."""

    authentication_classes: list[type[BaseAuthentication]] = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="auth_signup",
        summary="Create an account",
        description=(
            "Creates an account and the player that stands for it, and answers its API "
            "token. The instance decides who may: anyone (`SIGNUP=open`), whoever has an "
            "invitation code (`invite`), or nobody (`closed`)."
        ),
        request=SignUpSerializer,
        responses={
            201: TokenSerializer,
            400: OpenApiResponse(
                description="A field is missing or refused (taken username, weak password, "
                "no usable invitation): `{field: [reason]}`."
            ),
            403: OpenApiResponse(description="Sign-up is closed on this instance."),
            429: OpenApiResponse(description="Too many sign-ups from this address."),
        },
        auth=[],
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        if settings.SIGNUP == "closed":  # (before anything else: no field is worth fixing)
            return Response({"detail": SIGNUP_CLOSED}, status=status.HTTP_403_FORBIDDEN)
        serializer = SignUpSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            user = account_create(
                username=data["username"],
                password=data["password"],
                email=data["email"],
                display_name=data["name"],
                invite=data["invite"],
            )
        except AccountRefused as exc:
            if exc.closed:
                return Response({"detail": exc.message}, status=status.HTTP_403_FORBIDDEN)
            return Response({exc.field: [exc.message]}, status=status.HTTP_400_BAD_REQUEST)
        token = Token.objects.create(user=user)
        return Response(TokenSerializer(token).data, status=status.HTTP_201_CREATED)


urlpatterns = [
    path(
        "auth/token/",
        rate_limit("api-token", succeeded=answered_ok)(TokenApi.as_view()),
        name="api-token",
    ),
    path("auth/signup/", rate_limit("sign-up")(SignUpApi.as_view()), name="api-signup"),
]
