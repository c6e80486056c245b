"""Score sheets over the API: games, their hands, corrections and undo.

Views are thin: they check what the caller may see (a game you cannot see is a 404),
check the shape of the request, and call the same services as the pages; the rules of
the games are checked by the engine (``RuleError`` -> ``400 {field: [message]}``).
Every response is made by a serializer of :mod:`scorekeeper.api.game_serializers`, the
same the OpenAPI schema documents.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from django.http import HttpResponse, QueryDict
from django.urls import path, reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    OpenApiTypes,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import HandOutcome
from scorekeeper.api.auth import signed_in_user
from scorekeeper.api.fields import IdField
from scorekeeper.api.game_serializers import (
    CHANGE_ERRORS,
    ERRORS,
    HAND_EXAMPLES,
    HAND_INPUT,
    IDEMPOTENCY_HEADER,
    IDEMPOTENCY_KEY_SCHEMA,
    NEW_GAME_EXAMPLES,
    RULESET_SLUGS,
    GameSerializer,
    GameSummarySerializer,
    GameView,
    HandDetailSerializer,
    HandSerializer,
    HandView,
    hand_object,
)
from scorekeeper.api.hand_pages import hand_objects
from scorekeeper.api.kept_hands import Render, kept_hands_json, object_json
from scorekeeper.kept import keep, kept
from scorekeeper.models import Game, GameStatus, Hand
from scorekeeper.selectors.access import GameAccess, Role, find_game_access
from scorekeeper.selectors.games import (
    game_state,
    game_with_related,
    games_visible_to,
    hand_history,
    hand_of,
    hand_rows,
    last_hand_state,
    stored_hands,
    stored_of,
    version_key,
    with_seats,
)
from scorekeeper.services.games import (
    MAX_HANDS,
    game_close,
    game_create,
    game_delete,
    game_reopen,
    hand_record,
    hand_replace,
    hand_undo,
)
from scorekeeper.validation import IDEMPOTENCY_KEY_MAX, validate_idempotency_key

# -- helpers ---------------------------------------------------------------------------


def _access(request: Request, game_id: int, *, rows: bool = True) -> GameAccess:
    """The caller's access to the game (decided once; with its seats and hands when
    ``rows``); 404 for a game they cannot see. Writes check it again under the lock."""
    access = find_game_access(game_id, request.user, rows=rows)
    if access is None:
        raise NotFound(_("There is no game %(game)s that you can see.") % {"game": game_id})
    return access


def _visible_game(request: Request, game_id: int, *, rows: bool = True) -> Game:
    return _access(request, game_id, rows=rows).game


def _game_data(game: Game, access: GameAccess) -> Any:
    return GameSerializer(GameView(game, game_state(game), access.may_change)).data


#: ``?hands=`` of a game: ``all`` (the default), ``last:N`` (its last N hands, 0 to
#: MAX_HANDS) or ``none`` (``last:0``).
HANDS_PARAMETER = OpenApiParameter(
    "hands",
    str,
    description="Which hands the game object holds: `all` (the default), `last:N` (its "
    "last N hands, N from 0) or `none`; `hand_count` always counts them all. Every hand, "
    "page by page: `GET /api/v1/games/{id}/hands/pages/?limit=M&offset=K`.",
    pattern="^(all|none|last:[0-9]{1,4})$",
)


def _hands_asked(request: Request) -> int | None:
    """How many of the last hands ``?hands=`` asks for (None: all); 400 otherwise."""
    asked = request.query_params.get("hands", "all")
    if asked == "all":
        return None
    if asked == "none":
        return 0
    count = asked.removeprefix("last:")
    if count == asked or not count.isascii() or not count.isdigit() or int(count) > MAX_HANDS:
        raise ValidationError(
            {"hands": [f"all, none or last:N with N from 0 to {MAX_HANDS}, not {asked[:20]!r}"]}
        )
    return int(count)


def _stored_game_data(game: Game, access: GameAccess, last: int | None) -> Any:
    """The game object from its hands as stored, without the engine folding them: the
    standings and next hand resumed from the last hand, and the hands (all, or the
    ``last``) read in one query of only the columns they need. A game with a hand whose
    outcome is not stored is folded whole."""
    with_seats(game)
    stored = stored_hands(game, last=last) if last != 0 else []
    if stored is not None:
        hands = [hand_object(h) for h in stored]
        return GameSerializer(GameView(game, last_hand_state(game), access.may_change, hands)).data
    data = _game_data(_with_rows(game), access)
    if last is not None:
        data["hands"] = data["hands"][len(data["hands"]) - last :] if last else []
    return data


def _game_json(game: Game, access: GameAccess, last: int | None, render: Render) -> bytes:
    """The game object in JSON as :func:`_stored_game_data` and ``render`` make it, its
    hands rendered in blocks kept by what they are made of (:mod:`.kept_hands`): just
    after a hand only the newest block is read and rendered, however long the game."""
    with_seats(game)
    hands = kept_hands_json(game, render, last=last) if last != 0 else b"[]"
    if hands is None:
        return render(_stored_game_data(game, access, last))
    view = GameView(game, last_hand_state(game), access.may_change, [])
    return object_json(GameSerializer(view).data, render, hands=hands)


def _with_rows(game: Game) -> Game:
    """The game as it is now, with its seats and hands."""
    return game_with_related(Game.objects.filter(pk=game.pk)).get()


def _fresh_game_response(access: GameAccess, *, status_code: int = 200) -> Response:
    """The game as it is now (after a write: read again)."""
    return Response(_game_data(_with_rows(access.game), access), status=status_code)


def _hand_data(outcome: HandOutcome, revision: int) -> Mapping[str, Any]:
    return HandSerializer(HandView(outcome, revision)).data


def _hand_body(request: Request) -> Any:
    """The hand as sent. Its shape is the engine's to check (per ruleset); a form post
    becomes a plain dict."""
    data = request.data
    if isinstance(data, QueryDict):
        return data.dict()
    return data


def _idempotency_key(request: Request) -> str | None:
    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is None:
        return None
    key = key.strip()
    try:
        validate_idempotency_key(key)
    except DjangoValidationError as error:
        raise ValidationError({IDEMPOTENCY_HEADER: error.messages}) from None
    return key


# -- views -----------------------------------------------------------------------------


class GamesApi(APIView):
    pagination_class = PageNumberPagination

    class GameFilterSerializer(serializers.Serializer):
        status = serializers.ChoiceField(choices=GameStatus.values, required=False)
        ruleset = serializers.ChoiceField(choices=RULESET_SLUGS, required=False)
        league = IdField(required=False)
        player = IdField(required=False)

    class GameInputSerializer(serializers.Serializer):
        ruleset = serializers.ChoiceField(
            choices=RULESET_SLUGS,
            error_messages={
                "invalid_choice": "'{input}' is not a game here (choose "
                + ", ".join(RULESET_SLUGS)
                + ")"
            },
        )
        variant = serializers.CharField(required=False, allow_null=True, allow_blank=True)
        options = serializers.DictField(
            required=False,
            allow_null=True,
            help_text="House-rule options by name; defaults fill the rest. "
            "GET /api/v1/rulesets/{slug}/ lists each game's options with their default "
            "and their choices or range.",
        )
        players = serializers.ListField(
            child=IdField(),
            allow_empty=False,
            help_text="Player ids in seating order, clockwise.",
        )
        teams = serializers.ListField(
            child=serializers.ListField(child=IdField()),
            required=False,
            allow_null=True,
            help_text="Partner play: lists of player ids.",
        )
        first_dealer = IdField(
            required=False, allow_null=True, help_text="Default: the first seat."
        )
        league = IdField(required=False, allow_null=True, help_text="A league you belong to.")
        night = IdField(
            required=False, allow_null=True, help_text="A game night of yours it belongs to."
        )

    @extend_schema(
        operation_id="games_list",
        summary="List my games",
        description="Games you may see (your own, your leagues', those you sat at), newest first.",
        parameters=[
            GameFilterSerializer,
            OpenApiParameter("page", OpenApiTypes.INT, description="Page number (from 1)."),
        ],
        responses=GameSummarySerializer(many=True),
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        filters = self.GameFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        games = games_matching(games_visible_to(request.user), **filters.validated_data)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(game_with_related(games), request, view=self)
        assert page is not None
        views = [GameView(g, game_state(g)) for g in page]
        return paginator.get_paginated_response(GameSummarySerializer(views, many=True).data)

    @extend_schema(
        operation_id="games_create",
        summary="Start a game",
        request=GameInputSerializer,
        responses={201: GameSerializer, 400: ERRORS[400]},
        examples=NEW_GAME_EXAMPLES,
        tags=["games"],
    )
    def post(self, request: Request) -> Response:
        data = self.GameInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        owner = signed_in_user(request)
        game = game_create(owner=owner, **data.validated_data)
        access = GameAccess(game, Role.OWNER, owner)
        response = _fresh_game_response(access, status_code=status.HTTP_201_CREATED)
        response["Location"] = reverse("api-game-detail", args=[game.pk])
        return response


def games_matching(
    games: QuerySet[Game],
    *,
    status: str | None = None,
    ruleset: str | None = None,
    league: int | None = None,
    player: int | None = None,
) -> QuerySet[Game]:
    if status:
        games = games.filter(status=status)
    if ruleset:
        games = games.filter(ruleset=ruleset)
    if league is not None:
        games = games.filter(league_id=league)
    if player is not None:
        games = games.filter(seats__player_id=player)
    return games.order_by("-created_at", "-id")


class GameDetailApi(APIView):
    @extend_schema(
        operation_id="games_retrieve",
        summary="A game's score sheet",
        parameters=[HANDS_PARAMETER],
        responses={200: GameSerializer, 400: ERRORS[400], 404: ERRORS[404]},
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response | HttpResponse:
        last = _hands_asked(request)
        access = _access(request, game_id, rows=False)
        game = access.game
        renderer = request.accepted_renderer
        if not isinstance(renderer, JSONRenderer):  # the browsable API
            return Response(_stored_game_data(game, access, last))
        # A game's answer changes only with its version (and the moment it was last
        # saved, should an id ever come back): rendered once per version, kind of viewer
        # and hands asked for, and kept for every process (scorekeeper.kept). Just after
        # a hand it is made from the hands as stored, without the engine, the hands the
        # version before showed taken as they were rendered (scorekeeper.api.kept_hands).
        key = f"api:game:{version_key(game)}:{int(access.may_change)}:{last}"
        media_type, context = request.accepted_media_type, self.get_renderer_context()
        if renderer.get_indent(media_type, context) is not None:  # pretty, made whole
            body = renderer.render(_stored_game_data(game, access, last), media_type, context)
            return HttpResponse(body, content_type=renderer.media_type)
        body = kept(key)
        if body is None:
            body = _game_json(
                game, access, last, lambda data: renderer.render(data, media_type, context)
            )
            keep(key, body)
        return HttpResponse(body, content_type=renderer.media_type)

    @extend_schema(
        operation_id="games_destroy",
        summary="Delete a game",
        description="Only the owner and members of its league may; its league's history "
        "forgets it.",
        responses={204: None, 403: CHANGE_ERRORS[403], 404: ERRORS[404]},
        tags=["games"],
    )
    def delete(self, request: Request, game_id: int) -> Response:
        game_delete(game=_visible_game(request, game_id, rows=False), user=signed_in_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class GameHandsApi(APIView):
    @extend_schema(
        operation_id="games_hands_list",
        summary="A game's hands",
        description="Every hand, oldest first. Page by page: "
        "`GET /api/v1/games/{id}/hands/pages/?limit=M&offset=K`.",
        responses={200: HandSerializer(many=True), 404: ERRORS[404]},
        tags=["hands"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = _visible_game(request, game_id, rows=False)
        return Response(hand_objects(game, stored_of(hand_rows(game))))

    @extend_schema(
        operation_id="games_hands_create",
        summary="Record the next hand",
        description=(
            "The body depends on the game's ruleset (see the examples). With an "
            "`Idempotency-Key` header the request is safe to retry: the same key with the "
            "same body on the same game returns the first response (header "
            "`Idempotent-Replayed: true`) and records nothing new. The same key with a "
            "different body answers 422. If the hand recorded with the key was undone "
            "since, a retry answers 409 and records nothing (send a new key to record it "
            f"again). A game holds at most {MAX_HANDS:,} hands (409 after)."
        ),
        parameters=[
            OpenApiParameter(
                IDEMPOTENCY_HEADER,
                IDEMPOTENCY_KEY_SCHEMA,
                OpenApiParameter.HEADER,
                description="Any unique string (a UUID) per hand you mean to record: "
                f"1 to {IDEMPOTENCY_KEY_MAX} printable ASCII characters.",
            ),
            OpenApiParameter(
                "Idempotent-Replayed",
                {"type": "string", "enum": ["true"]},
                OpenApiParameter.HEADER,
                response=[201],
                description="Set on a retry: the response is the first one, replayed.",
            ),
        ],
        request=HAND_INPUT,
        examples=HAND_EXAMPLES,
        responses={
            201: HandSerializer,
            **CHANGE_ERRORS,
            409: OpenApiResponse(
                description="The game is over, holds the most hands a game may, or the "
                "hand recorded with this Idempotency-Key was undone."
            ),
            413: OpenApiResponse(description="The body is larger than 1 MB."),
            422: OpenApiResponse(
                description="This Idempotency-Key was used on this game with another body."
            ),
        },
        tags=["hands"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        key = _idempotency_key(request)
        try:
            # The service reads the game under its lock and decides the caller's access
            # there: the usual request (one's own game) reads it once.
            written = hand_record(
                game=Game(pk=game_id),
                user=signed_in_user(request),
                hand_input=_hand_body(request),
                idempotency_key=key,
                answer=_hand_data,
            )
        except (Game.DoesNotExist, PermissionDenied):
            _access(request, game_id, rows=False)  # a game the caller cannot see: 404
            raise
        if written.replay is not None:
            # The first answer, as it was kept.
            replay = written.replay
            headers = {"Idempotent-Replayed": "true"}
            return Response(replay.response, status=replay.status_code, headers=headers)
        return Response(written.answer, status=status.HTTP_201_CREATED)


class GameHandApi(APIView):
    @extend_schema(
        operation_id="games_hands_retrieve",
        summary="One hand, with its history",
        responses={200: HandDetailSerializer, 404: ERRORS[404]},
        tags=["hands"],
    )
    def get(self, request: Request, game_id: int, number: int) -> Response:
        game = _visible_game(request, game_id)
        hand = hand_of(game, number)
        if hand is None:
            raise Hand.DoesNotExist(f"This game has no hand {number}.")
        outcome = game_state(game).hands[number - 1]
        view = HandView(outcome, hand.revision, hand_history(game, number))
        return Response(HandDetailSerializer(view).data)

    @extend_schema(
        operation_id="games_hands_update",
        summary="Correct a hand",
        description="Replaces the hand's input; every total after it is recomputed and the "
        "earlier input stays in the hand's history.",
        request=HAND_INPUT,
        examples=HAND_EXAMPLES,
        responses={
            200: HandSerializer,
            **CHANGE_ERRORS,
            409: OpenApiResponse(
                description="With this correction the game would end "
                "before hands recorded after it."
            ),
        },
        tags=["hands"],
    )
    def put(self, request: Request, game_id: int, number: int) -> Response:
        written = hand_replace(
            game=_visible_game(request, game_id, rows=False),
            number=number,
            user=signed_in_user(request),
            hand_input=_hand_body(request),
        )
        assert written.outcome is not None
        assert written.hand is not None
        return Response(_hand_data(written.outcome, written.hand.revision))

    @extend_schema(
        operation_id="games_hands_destroy",
        summary="Undo the last hand",
        description="Only the last hand can go (a hand's number fixes its dealer and what "
        "else its game deals by number); "
        "correct an earlier one instead.",
        responses={
            204: None,
            403: CHANGE_ERRORS[403],
            404: ERRORS[404],
            409: OpenApiResponse(description="Not the last hand."),
        },
        tags=["hands"],
    )
    def delete(self, request: Request, game_id: int, number: int) -> Response:
        hand_undo(
            game=_visible_game(request, game_id, rows=False),
            number=number,
            user=signed_in_user(request),
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class GameCloseApi(APIView):
    @extend_schema(
        operation_id="games_close",
        summary="End a game by hand",
        description="For open-ended games (a game with no end of its own, such as one played "
        "to 0 wins) or a "
        "table that stops early: the standings become the final ranking.",
        request=None,
        responses={
            200: GameSerializer,
            **CHANGE_ERRORS,
            409: OpenApiResponse(description="The game is already over."),
        },
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        access = _access(request, game_id)
        game_close(game=access.game, user=signed_in_user(request))
        return _fresh_game_response(access)


class GameReopenApi(APIView):
    @extend_schema(
        operation_id="games_reopen",
        summary="Take back an end by hand",
        request=None,
        responses={
            200: GameSerializer,
            403: CHANGE_ERRORS[403],
            404: ERRORS[404],
            409: OpenApiResponse(description="The game was not ended by hand."),
        },
        tags=["games"],
    )
    def post(self, request: Request, game_id: int) -> Response:
        access = _access(request, game_id)
        game_reopen(game=access.game, user=signed_in_user(request))
        return _fresh_game_response(access)


urlpatterns = [
    path("games/", GamesApi.as_view(), name="api-game-list"),
    path("games/<int:game_id>/", GameDetailApi.as_view(), name="api-game-detail"),
    path("games/<int:game_id>/hands/", GameHandsApi.as_view(), name="api-game-hands"),
    path("games/<int:game_id>/hands/<int:number>/", GameHandApi.as_view(), name="api-game-hand"),
    path("games/<int:game_id>/close/", GameCloseApi.as_view(), name="api-game-close"),
    path("games/<int:game_id>/reopen/", GameReopenApi.as_view(), name="api-game-reopen"),
]
