"""A game's hands page by page: ``GET /api/v1/games/{id}/hands/pages/?limit=M&offset=K``.

Always paginated (``{"count", "next", "previous", "results": [HAND, ...]}``), so the
operation has one documented shape; ``GET /api/v1/games/{id}/hands/`` stays the plain
list of every hand the API's contract promises. Both are made from the hands as stored
(``Hand.derived`` is the hand object without its input and revision), the page sliced in
SQL, without the engine folding the game.
"""

from __future__ import annotations

from typing import Any

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.api.game_serializers import (
    ERRORS,
    GameView,
    HandSerializer,
    hand_object,
)
from scorekeeper.models import Game
from scorekeeper.selectors.access import find_game_access
from scorekeeper.selectors.games import (
    StoredHand,
    game_state,
    game_with_related,
    hand_rows,
    stored_of,
)
from scorekeeper.services.games import MAX_HANDS

#: Hands in a page when ``limit`` is not given.
PAGE_HANDS = 100


def hand_objects(game: Game, stored: list[StoredHand] | None) -> list[Any]:
    """The answers of hands as stored, or (when one has no stored outcome, as in some
    imported games) of every hand of the game folded by the engine."""
    if stored is not None:
        return [hand_object(h) for h in stored]
    game = game_with_related(Game.objects.filter(pk=game.pk)).get()
    return list(HandSerializer(GameView(game, game_state(game)).hands, many=True).data)


class HandsPagination(LimitOffsetPagination):
    """``limit`` hands (100 unless given, at most 1,000) after the first ``offset``:
    ``offset=250&limit=50`` is hands 251 to 300."""

    default_limit = PAGE_HANDS
    max_limit = MAX_HANDS
    limit_query_description = f"Hands per page ({PAGE_HANDS} unless given, at most {MAX_HANDS:,})."
    offset_query_description = "Hands before the page (0 unless given)."


class GameHandPagesApi(APIView):
    pagination_class = HandsPagination

    @extend_schema(
        operation_id="games_hands_pages",
        summary="A game's hands, page by page",
        description="The game's hands oldest first, one page at a time: `limit` hands "
        f"({PAGE_HANDS} unless given, at most {MAX_HANDS:,}) after the first `offset`; "
        "`next` and `previous` link the neighbouring pages (null at the ends). "
        "`GET /api/v1/games/{id}/hands/` lists every hand at once.",
        responses={200: HandSerializer(many=True), 404: ERRORS[404]},
        tags=["hands"],
    )
    def get(self, request: Request, game_id: int) -> Response:
        access = find_game_access(game_id, request.user, rows=False)
        if access is None:
            raise NotFound(_("There is no game %(game)s that you can see.") % {"game": game_id})
        game = access.game
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(hand_rows(game), request, view=self)
        assert page is not None  # a default limit: always a page
        stored = stored_of(page)
        data = hand_objects(game, stored)
        if stored is None:  # folded whole: the page's hands of them
            start = paginator.get_offset(request)
            data = data[start : start + len(page)]
        return paginator.get_paginated_response(data)


urlpatterns = [
    path(
        "games/<int:game_id>/hands/pages/",
        GameHandPagesApi.as_view(),
        name="api-game-hand-pages",
    ),
]
