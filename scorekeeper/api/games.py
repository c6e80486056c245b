"""Score sheets over the API: games, their hands, corrections and undo.

Views are thin: they check what the caller may see (a game you cannot see is a 404),
check the shape of the request, and call the same services as the pages; the rules of
the games are checked by the engine (``RuleError`` -> ``400 {field: [message]}``).
The output serializers here only document the responses for the OpenAPI schema; the
payloads are built from the engine's state by the ``*_payload`` functions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpResponse, QueryDict
from django.urls import path, reverse
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    OpenApiTypes,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import RULESETS, GameState, StandingRow
from scorekeeper.api.auth import signed_in_user
from scorekeeper.api.fields import IdField
from scorekeeper.models import Game, GameStatus, Hand, HandRevision
from scorekeeper.selectors.games import (
    can_change_game,
    game_state,
    game_with_related,
    games_visible_to,
    hand_of,
    hands_json,
    visible_game,
)
from scorekeeper.services.games import (
    MAX_HANDS,
    game_close,
    game_create,
    game_delete,
    game_reopen,
    hand_record,
    hand_replace,
    hand_response,
    hand_undo,
)
from scorekeeper.validation import IDEMPOTENCY_KEY_MAX, is_idempotency_key

RULESET_SLUGS = list(RULESETS)
IDEMPOTENCY_HEADER = "Idempotency-Key"
IDEMPOTENCY_KEY_SCHEMA = {
    "type": "string",
    "minLength": 1,
    "maxLength": IDEMPOTENCY_KEY_MAX,
    "pattern": "^[\\x20-\\x7e]+$",
}

# -- payloads ------------------------------------------------------------------------


def _seats(game: Game) -> list[Any]:
    return sorted(game.seats.all(), key=lambda s: s.position)


def standing_payload(row: StandingRow, names: Mapping[int, str]) -> dict[str, Any]:
    """A standings row as the engine gives it, plus the names to show."""
    data = row.as_dict()
    if row.team is not None:
        data["names"] = [names.get(p, "") for p in row.players]
    else:
        data["name"] = names.get(row.player, "") if row.player is not None else ""
    return data


def game_summary_payload(game: Game, state: GameState) -> dict[str, Any]:
    """A game without its hands (lists of games). ``game`` needs its seats (with
    players) prefetched, as :func:`~scorekeeper.selectors.games.game_with_related` does."""
    seats = _seats(game)
    names = {s.player_id: s.player.name for s in seats}
    config = state.config
    data: dict[str, Any] = {
        "id": game.pk,
        "ruleset": game.ruleset,
        "ruleset_name": RULESETS[game.ruleset].name,
        "variant": config.variant,
        "options": dict(config.options),
        "players": [
            {"id": s.player_id, "name": s.player.name, "seat": s.position, "team": s.team}
            for s in seats
        ],
        "teams": [list(t) for t in config.teams] if config.teams else None,
        "first_dealer": config.first_dealer,
        "status": state.status,
        "ended_by": state.ended_by,
        "closed": game.closed,
        "standings": [standing_payload(row, names) for row in state.standings],
        "winners": list(state.winners),
        "next_hand": dict(state.next_hand) if state.next_hand is not None else None,
        "hand_count": len(state.hands),
        "league": game.league_id,
        "owner": game.owner_id,
        "created_at": game.created_at,
        "finished_at": game.finished_at,
        "version": game.version,
    }
    # Game-level facts of the ruleset (damn-you "pot", dirty-deals "rubber"…) sit beside
    # the common fields, which they never replace.
    for key, value in state.extras.items():
        data.setdefault(key, value)
    return data


def game_payload(game: Game, state: GameState, *, can_change: bool) -> dict[str, Any]:
    """The API's game object: the summary plus every hand."""
    data = game_summary_payload(game, state)
    revisions = {h.number: h.revision for h in game.hands.all()}
    data["hands"] = [hand_response(o, revision=revisions.get(o.number, 1)) for o in state.hands]
    data["can_change"] = can_change
    return data


def revision_payload(row: HandRevision) -> dict[str, Any]:
    return {
        "revision": row.revision,
        "action": row.action,
        "input": row.input,
        "user": row.user_id,
        "username": row.user.get_username() if row.user is not None else None,
        "guest": row.guest.name if row.guest is not None else None,
        "at": row.created_at,
    }


# -- schema-only output serializers ----------------------------------------------------


class SeatSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="Player id.")
    name = serializers.CharField()
    seat = serializers.IntegerField(help_text="Seat from 0, clockwise.")
    team = serializers.IntegerField(allow_null=True, help_text="Team index in partner play.")


class PlayerPointsSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    points = serializers.IntegerField()


class PlayerScoreSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    score = serializers.IntegerField()


class TeamPointsSerializer(serializers.Serializer):
    team = serializers.IntegerField()
    points = serializers.IntegerField()


class ChipsSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    paid = serializers.IntegerField()
    received = serializers.IntegerField()


class HandSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField(help_text="Player id of the dealer.")
    winner = serializers.IntegerField(
        allow_null=True,
        help_text="Who went out (claimed, in dirty-deals); null only when a damn-you "
        "game ended in mid-hand.",
    )
    points = PlayerPointsSerializer(
        many=True, help_text="What the hand changed in each player's score."
    )
    totals = PlayerScoreSerializer(many=True, help_text="Each player's score after the hand.")
    team_points = TeamPointsSerializer(
        many=True, required=False, help_text="Partner play: each team's hand score."
    )
    input = serializers.JSONField(help_text="The hand as stored (normalised input).")
    revision = serializers.IntegerField(help_text="1, plus one for each correction.")
    dirt_rank = serializers.CharField(required=False, help_text="dirt: this hand's dirt rank.")
    chips = ChipsSerializer(many=True, required=False, help_text="damn-you: chip movements.")
    short = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="damn-you: players dealt one card fewer.",
    )
    pot = serializers.IntegerField(required=False, help_text="damn-you: chips left in the pot.")
    rubber = serializers.IntegerField(required=False, help_text="dirty-deals: rubber number.")
    rubber_won_by = serializers.IntegerField(
        required=False, allow_null=True, help_text="dirty-deals: who won the rubber with this hand."
    )
    resets = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="dirty-uno: players whose score hit exactly 500 and went back to 0.",
    )


class HandRevisionSerializer(serializers.Serializer):
    revision = serializers.IntegerField()
    action = serializers.ChoiceField(choices=["recorded", "corrected", "undone"])
    input = serializers.JSONField(
        help_text="The input after the action (for an undo: the input removed)."
    )
    user = serializers.IntegerField(allow_null=True)
    username = serializers.CharField(allow_null=True)
    guest = serializers.CharField(
        allow_null=True, help_text="The name a guest gave, when one joined by a score link."
    )
    at = serializers.DateTimeField()


class HandDetailSerializer(HandSerializer):
    history = HandRevisionSerializer(
        many=True, help_text="Every input this hand number has had, oldest first."
    )


class StandingSerializer(serializers.Serializer):
    player = serializers.IntegerField(required=False, help_text="Set unless partner play.")
    name = serializers.CharField(required=False)
    team = serializers.IntegerField(required=False, help_text="Partner play: team index.")
    players = serializers.ListField(child=serializers.IntegerField(), required=False)
    names = serializers.ListField(child=serializers.CharField(), required=False)
    score = serializers.IntegerField(
        help_text="dirt: total points; screw-your-neighbour: hand wins; damn-you: chips "
        "held; dirty-uno: score; dirty-deals: points in the current rubber."
    )
    rank = serializers.IntegerField(help_text="Equal scores share a rank.")
    rubbers = serializers.IntegerField(required=False, help_text="dirty-deals: rubbers won.")


class NextHandSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    dirt_rank = serializers.CharField(required=False, help_text="dirt")
    hands_left = serializers.IntegerField(required=False, help_text="dirt")
    short = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="damn-you: players dealt one card fewer.",
    )
    rubber = serializers.IntegerField(required=False, help_text="dirty-deals")
    reminder = serializers.CharField(required=False, help_text="dirty-uno")


class GameSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    ruleset = serializers.ChoiceField(choices=RULESET_SLUGS)
    ruleset_name = serializers.CharField()
    variant = serializers.CharField(allow_null=True)
    options = serializers.DictField(help_text="The effective options, defaults filled in.")
    players = SeatSerializer(many=True, help_text="In seating order, clockwise.")
    teams = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()), allow_null=True
    )
    first_dealer = serializers.IntegerField()
    status = serializers.ChoiceField(choices=GameStatus.values)
    ended_by = serializers.CharField(
        help_text='"" while in progress; else how it ended '
        "(hands, target, score, match, early, closed)."
    )
    closed = serializers.BooleanField(help_text="Ended by hand.")
    standings = StandingSerializer(many=True, help_text="Best first.")
    winners = serializers.ListField(
        child=serializers.IntegerField(), help_text="Player ids; empty until finished."
    )
    next_hand = NextHandSerializer(allow_null=True, help_text="null once finished.")
    hand_count = serializers.IntegerField()
    league = serializers.IntegerField(allow_null=True)
    owner = serializers.IntegerField(help_text="Id of the account that created the game.")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField(help_text="Goes up with every change.")
    pot = serializers.IntegerField(required=False, help_text="damn-you: chips in the pot.")
    rubber = serializers.IntegerField(
        required=False, help_text="dirty-deals: number of the current rubber."
    )


class GameSerializer(GameSummarySerializer):
    hands = HandSerializer(many=True)
    can_change = serializers.BooleanField(help_text="Whether you may change this game.")


# -- input serializers -----------------------------------------------------------------


class SheddingResultSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    cards = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text=(
            'Cards left in hand, e.g. ["JK", "4H"]; a rank or UNO value alone ("4", "7") '
            "when the suit or colour was not noted."
        ),
    )
    points = serializers.IntegerField(
        min_value=0, required=False, help_text="Points the table counted (not with cards)."
    )


class SheddingHandSerializer(serializers.Serializer):
    """dirt, dirty-uno"""

    winner = serializers.IntegerField(help_text="Who went out.")
    results = SheddingResultSerializer(many=True, help_text="Every player but the winner.")


class DamnYouResultSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    passes = serializers.IntegerField(min_value=0)
    cards_left = serializers.IntegerField(min_value=0)


class DamnYouHandSerializer(serializers.Serializer):
    """damn-you"""

    winner = serializers.IntegerField(help_text="Who went out.")
    results = DamnYouResultSerializer(
        many=True, help_text="Every player; the winner's cards_left is 0."
    )


class DirtyDealsHandSerializer(serializers.Serializer):
    """dirty-deals"""

    winner = serializers.IntegerField(help_text="Who claimed the hand.")
    suit = serializers.CharField(help_text="S, H, D or C.")
    surplus = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="The claimant's surplus cards."
    )
    surplus_count = serializers.IntegerField(
        min_value=0, required=False, help_text="Instead of surplus: their number."
    )
    bower_in_surplus = serializers.BooleanField(required=False, help_text="With surplus_count.")
    bower_holder = serializers.IntegerField(
        allow_null=True, required=False, help_text="Another player holding the bower."
    )


class ScrewYourNeighbourHandSerializer(serializers.Serializer):
    """screw-your-neighbour"""

    winner = serializers.IntegerField(help_text="Who went out first.")


HAND_INPUT = PolymorphicProxySerializer(
    component_name="HandInput",
    serializers=[
        SheddingHandSerializer,
        DamnYouHandSerializer,
        DirtyDealsHandSerializer,
        ScrewYourNeighbourHandSerializer,
    ],
    resource_type_field_name=None,
)

HAND_EXAMPLES = [
    OpenApiExample(
        "dirt or dirty-uno",
        request_only=True,
        value={
            "winner": 3,
            "results": [
                {"player": 1, "cards": ["JK", "4H"]},
                {"player": 4, "points": 12},
                {"player": 2, "cards": []},
            ],
        },
    ),
    OpenApiExample(
        "damn-you",
        request_only=True,
        value={
            "winner": 2,
            "results": [
                {"player": 1, "passes": 2, "cards_left": 5},
                {"player": 2, "passes": 0, "cards_left": 0},
                {"player": 3, "passes": 1, "cards_left": 3},
                {"player": 4, "passes": 3, "cards_left": 7},
            ],
        },
    ),
    OpenApiExample(
        "dirty-deals",
        request_only=True,
        value={"winner": 1, "suit": "H", "surplus": ["JD", "9C"], "bower_holder": None},
    ),
    OpenApiExample("screw-your-neighbour", request_only=True, value={"winner": 3}),
]

ERRORS = {
    400: OpenApiResponse(description="Bad input: `{field: [message]}`."),
    404: OpenApiResponse(description="No such game that you can see."),
}
CHANGE_ERRORS = {
    **ERRORS,
    403: OpenApiResponse(
        description="You may see this game but not change it: only its "
        "owner and members of its league may."
    ),
}

# -- helpers ---------------------------------------------------------------------------


def _visible_game(request: Request, game_id: int) -> Game:
    game = visible_game(request.user, game_id)
    if game is None:
        raise NotFound(f"There is no game {game_id} that you can see.")
    return game


def _fresh(game: Game) -> Game:
    return game_with_related(Game.objects.filter(pk=game.pk)).get()


def _game_response(request: Request, game: Game, *, status_code: int = 200) -> Response:
    game = _fresh(game)
    payload = game_payload(game, game_state(game), can_change=can_change_game(request.user, game))
    return Response(payload, status=status_code)


def _game_json(request: Request, game_id: int, renderer: JSONRenderer) -> HttpResponse | None:
    """The game object as JSON with its hands straight from the stored outcomes, joined
    by the database: the work does not grow with the game's length. None where the
    database cannot (then the payload is built in Python)."""
    game = visible_game(request.user, game_id, hands=False)
    if game is None:
        raise NotFound(f"There is no game {game_id} that you can see.")
    hands = hands_json(game)
    if hands is None:
        return None
    state = hands.state
    data = game_summary_payload(game, state)
    data["hand_count"] = state.hands[-1].number if state.hands else 0
    data["can_change"] = can_change_game(request.user, game)
    head = renderer.render(data, renderer_context={"request": request})
    body = head[:-1] + b',"hands":' + hands.text.encode() + b"}"
    return HttpResponse(body, content_type="application/json")


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
    if not is_idempotency_key(key):
        raise ValidationError(
            {
                IDEMPOTENCY_HEADER: [
                    f"give from 1 to {IDEMPOTENCY_KEY_MAX} printable ASCII characters "
                    "(a UUID works well)"
                ]
            }
        )
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
            help_text="House-rule options by name; defaults fill the rest.",
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
        return paginator.get_paginated_response(
            [game_summary_payload(g, game_state(g)) for g in page]
        )

    @extend_schema(
        operation_id="games_create",
        summary="Start a game",
        request=GameInputSerializer,
        responses={201: GameSerializer, 400: ERRORS[400]},
        examples=[
            OpenApiExample(
                "Partner Dirt",
                request_only=True,
                value={
                    "ruleset": "dirt",
                    "variant": "baby",
                    "options": {"ten_points": 1},
                    "players": [3, 1, 4, 2],
                    "teams": [[3, 4], [1, 2]],
                    "first_dealer": 3,
                },
            )
        ],
        tags=["games"],
    )
    def post(self, request: Request) -> Response:
        data = self.GameInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = game_create(owner=signed_in_user(request), **data.validated_data)
        response = _game_response(request, game, status_code=status.HTTP_201_CREATED)
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
        responses={200: GameSerializer, 404: ERRORS[404]},
        tags=["games"],
    )
    def get(self, request: Request, game_id: int) -> Response | HttpResponse:
        renderer = getattr(request, "accepted_renderer", None)
        if isinstance(renderer, JSONRenderer):
            fast = _game_json(request, game_id, renderer)
            if fast is not None:
                return fast
        game = _visible_game(request, game_id)
        payload = game_payload(
            game, game_state(game), can_change=can_change_game(request.user, game)
        )
        return Response(payload)

    @extend_schema(
        operation_id="games_destroy",
        summary="Delete a game",
        description="Only the owner and members of its league may; its league's history "
        "forgets it.",
        responses={204: None, 403: CHANGE_ERRORS[403], 404: ERRORS[404]},
        tags=["games"],
    )
    def delete(self, request: Request, game_id: int) -> Response:
        game_delete(game=_visible_game(request, game_id), user=signed_in_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class GameHandsApi(APIView):
    @extend_schema(
        operation_id="games_hands_list",
        summary="A game's hands",
        responses={200: HandSerializer(many=True), 404: ERRORS[404]},
        tags=["hands"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = _visible_game(request, game_id)
        return Response(game_payload(game, game_state(game), can_change=False)["hands"])

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
            # The service locks and reads the game row itself: nothing more to load.
            written = hand_record(
                game=Game(pk=game_id),
                user=signed_in_user(request),
                hand_input=_hand_body(request),
                idempotency_key=key,
            )
        except (Game.DoesNotExist, PermissionDenied):
            _visible_game(request, game_id)  # a game this user cannot see: 404
            raise
        response = Response(written.response, status=written.status_code)
        if written.replayed:
            response["Idempotent-Replayed"] = "true"
        return response


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
        data = hand_response(outcome, revision=hand.revision)
        history = HandRevision.objects.filter(game=game, number=number).select_related(
            "user", "guest"
        )
        data["history"] = [revision_payload(r) for r in history.order_by("created_at", "id")]
        return Response(data)

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
            game=_visible_game(request, game_id),
            number=number,
            user=signed_in_user(request),
            hand_input=_hand_body(request),
        )
        return Response(written.response, status=status.HTTP_200_OK)

    @extend_schema(
        operation_id="games_hands_destroy",
        summary="Undo the last hand",
        description="Only the last hand can go (hand numbers fix dealers and dirt ranks); "
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
        hand_undo(game=_visible_game(request, game_id), number=number, user=signed_in_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class GameCloseApi(APIView):
    @extend_schema(
        operation_id="games_close",
        summary="End a game by hand",
        description="For open-ended games (screw-your-neighbour with target_wins 0) or a "
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
        game = _visible_game(request, game_id)
        game_close(game=game, user=signed_in_user(request))
        return _game_response(request, game)


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
        game = _visible_game(request, game_id)
        game_reopen(game=game, user=signed_in_user(request))
        return _game_response(request, game)


urlpatterns = [
    path("games/", GamesApi.as_view(), name="api-game-list"),
    path("games/<int:game_id>/", GameDetailApi.as_view(), name="api-game-detail"),
    path("games/<int:game_id>/hands/", GameHandsApi.as_view(), name="api-game-hands"),
    path("games/<int:game_id>/hands/<int:number>/", GameHandApi.as_view(), name="api-game-hand"),
    path("games/<int:game_id>/close/", GameCloseApi.as_view(), name="api-game-close"),
    path("games/<int:game_id>/reopen/", GameReopenApi.as_view(), name="api-game-reopen"),
]
