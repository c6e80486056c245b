"""A finished game's result to share, over the API.

``GET …/result/`` gives the result as text, the URL of its image and the public page's
URL (null while there is none), for whoever may see the game. ``POST …/public/`` makes
the public read-only page (``/r/<token>/``, no sign-in; the same page if it already
exists), ``DELETE …/public/`` takes it down at once. Only whoever may change the game
(its owner, its league's members) may publish; a game you cannot see is a 404, one you
may only see a 403, as everywhere in the API. A game still in progress is a 409.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import path, reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.api.fields import OutputSerializer
from scorekeeper.errors import ConflictError
from scorekeeper.models import Game
from scorekeeper.selectors.access import find_game_access
from scorekeeper.selectors.games import game_state
from scorekeeper.services.results import (
    Result,
    build_result,
    result_publish,
    result_unpublish,
)


@dataclass(frozen=True)
class SharedResult:
    """A finished game's result, and the absolute links to share it (the public ones
    None while it is not published)."""

    result: Result
    image_url: str
    public_url: str | None
    public_image_url: str | None


class ResultLineSerializer(OutputSerializer):
    place = serializers.IntegerField(help_text="Equal results share a place.")
    name = serializers.CharField(
        source="label", help_text="The player, or the team's players joined by ` & `."
    )
    score = serializers.CharField(help_text="The final score in the game's unit, e.g. `12 chips`.")
    won = serializers.BooleanField()


class ResultSerializer(OutputSerializer):
    text = serializers.CharField(
        source="result.text",
        help_text="The result as a message: a heading (game · date · hands), one line per "
        "place (🏆 for the winners), and a signature; lines end with `\\n`.",
    )
    title = serializers.CharField(
        source="result.title", help_text="The game's name, with its variant."
    )
    date = serializers.DateField(
        source="result.day", help_text="The day the game finished (server's time zone)."
    )
    hands = serializers.IntegerField(source="result.hands")
    lines = ResultLineSerializer(many=True, source="result.lines")
    image_url = serializers.URLField(
        help_text="The result as a 1200×630 PNG (for whoever may see the game; "
        "ETag and conditional requests supported)."
    )
    public_url = serializers.URLField(
        allow_null=True,
        help_text="The public read-only page (no sign-in needed), or null when the result "
        "is not published.",
    )
    public_image_url = serializers.URLField(
        allow_null=True, help_text="The public page's image (no sign-in needed), or null."
    )


NOT_FOUND = OpenApiResponse(description="No such game that you can see.")
FORBIDDEN = OpenApiResponse(
    description="You may see this game but not publish its result: only its owner and "
    "members of its league may."
)
NOT_FINISHED = OpenApiResponse(description="The game is not finished: it has no result yet.")
UNAUTHENTICATED = OpenApiResponse(description="Not signed in.")


def _game(request: Request, game_id: int, *, manage: str = "") -> Game:
    """The game, if the caller may see it (404); with ``manage``, if they may manage it
    (403 saying ``manage``)."""
    access = find_game_access(game_id, request.user)
    if access is None:
        raise NotFound(_("There is no game %(game)s that you can see.") % {"game": game_id})
    if manage and not access.may_manage:
        raise PermissionDenied(manage)
    return access.game


def result_data(request: Request, game: Game) -> object:
    """The game's result with its links (``ConflictError`` while it is in progress)."""
    token = game.public_token
    image = reverse("game_result_png", args=[game.pk])
    url = request.build_absolute_uri
    shared = SharedResult(
        result=build_result(game, game_state(game)),
        image_url=url(f"{image}?v={game.version}"),
        public_url=url(reverse("public_result", args=[token])) if token else None,
        public_image_url=url(reverse("public_result_png", args=[token])) if token else None,
    )
    return ResultSerializer(shared).data


def _conflict(exc: ConflictError) -> Response:
    return Response({"detail": exc.message}, status=status.HTTP_409_CONFLICT)


class GameResultApi(APIView):
    @extend_schema(
        operation_id="games_result_retrieve",
        summary="A finished game's result, to share",
        responses={
            200: ResultSerializer,
            401: UNAUTHENTICATED,
            404: NOT_FOUND,
            409: NOT_FINISHED,
        },
        tags=["results"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = _game(request, game_id)
        try:
            return Response(result_data(request, game))
        except ConflictError as exc:
            return _conflict(exc)


class GamePublicApi(APIView):
    @extend_schema(
        operation_id="games_public_create",
        summary="Publish the result on a public page",
        description="Makes `/r/<token>/`, a read-only page of the final result that needs "
        "no sign-in (names and scores only, `noindex`), with an unguessable token. "
        "Publishing again keeps the same page. If the game is later reopened, the page "
        "stays but shows no result until the game is finished again.",
        request=None,
        responses={
            200: ResultSerializer,
            401: UNAUTHENTICATED,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: NOT_FINISHED,
        },
        tags=["results"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = _game(
            request, game_id, manage="Only the game's owner and members of its league may publish."
        )
        try:
            result_publish(game=game, state=game_state(game))
            return Response(result_data(request, game))
        except ConflictError as exc:
            return _conflict(exc)

    @extend_schema(
        operation_id="games_public_destroy",
        summary="Take the public result page down",
        description="The public page and its image answer 404 from now on. A later "
        "publish makes a new link.",
        request=None,
        responses={204: None, 401: UNAUTHENTICATED, 403: FORBIDDEN, 404: NOT_FOUND},
        tags=["results"],
    )
    def delete(self, request: Request, game_id: int) -> Response:
        game = _game(
            request,
            game_id,
            manage="Only the game's owner and members of its league may unpublish.",
        )
        result_unpublish(game=game)
        return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [
    path("games/<int:game_id>/result/", GameResultApi.as_view(), name="api-game-result"),
    path("games/<int:game_id>/public/", GamePublicApi.as_view(), name="api-game-public"),
]
