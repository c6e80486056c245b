"""Sharing a finished game's result: the sheet's "Share the result" section, its image,
and the optional public read-only page.

* ``/games/<id>/result.png`` — the result as an image, for whoever may see the sheet
  (the owner, the league's members, seated players with an account, and the guests of
  a live invite link).
* ``/games/<id>/result/public/`` (POST ``action=publish|unpublish``) — the public page
  on or off; only whoever may change the game (its owner, its league's members).
  Guests and watchers cannot.
* ``/r/<token>/`` and ``/r/<token>/result.png`` — the public page and its image, no
  sign-in. They 404 as soon as the page is switched off (``Cache-Control: no-cache``:
  nothing in between may answer from its own copy without asking).

The share section itself is drawn by ``{% result_share %}``
(``templatetags/results_tags.py``) inside the sheet's result area.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.cache import caches
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.http import parse_etags
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_cookie

from games import RULESETS, GameState
from scorekeeper.errors import ConflictError
from scorekeeper.models import Game
from scorekeeper.selectors.access import GameAccess
from scorekeeper.selectors.games import game_state, game_with_related, player_names
from scorekeeper.services.night_results import NightCard
from scorekeeper.services.results import (
    Result,
    build_result,
    published_game,
    result_publish,
    result_unpublish,
)
from scorekeeper.web.access import NOT_YOURS, forbidden, request_access

#: How long a process keeps an image it drew (keyed by its ETag, so never stale).
IMAGE_CACHE_SECONDS = 24 * 3600


def _viewable(request: HttpRequest, pk: int) -> GameAccess:
    """The game with its seats and hands, if this browser may see its sheet."""
    access = request_access(request, pk)
    if access is None:
        raise Http404(NOT_YOURS)
    return access


def _final(game: Game) -> tuple[GameState, Result]:
    state = game_state(game)
    try:
        return state, build_result(game, state)
    except ConflictError as exc:
        raise Http404(exc.message) from exc


def image_name(game: Game) -> str:
    return f"scorekeeper-{game.ruleset}-{game.pk}.png"


def public_url(request: HttpRequest, game: Game) -> str | None:
    if not game.public_token:
        return None
    return request.build_absolute_uri(reverse("public_result", args=[game.public_token]))


def share_context(request: HttpRequest, access: GameAccess, state: GameState) -> dict[str, Any]:
    """What the sheet's "Share the result" section shows (a finished game only)."""
    game = access.game
    result = build_result(game, state)
    return {
        "game": game,
        "result": result,
        "result_rows": len(result.lines) + 3,
        "image_url": f"{reverse('game_result_png', args=[game.pk])}?v={game.version}",
        "image_name": image_name(game),
        "public_url": public_url(request, game),
        "can_publish": access.may_manage,
        "winners": [line.label for line in result.lines if line.won],
    }


# -- the image ------------------------------------------------------------------------------


def png_response(
    request: HttpRequest, result: Result | NightCard, *, cache_control: str
) -> HttpResponse:
    """The result's image (a game's, a night's), drawn once per ETag and kept, or 304."""
    etag = result.etag
    # GZipMiddleware weakens an ETag it compresses under: compare without the W/.
    seen = [t.removeprefix("W/") for t in parse_etags(request.headers.get("If-None-Match", ""))]
    if etag in seen or "*" in seen:
        response = HttpResponse(status=304)
    else:
        cache = caches["default"]
        key = f"result-png:{etag}"
        body = cache.get(key)
        if body is None:
            # Pillow and the fonts load in the request that draws an image, not in every
            # worker at start (most of its requests draw none).
            from scorekeeper.services.result_image import render_result_png

            body = render_result_png(result)
            cache.set(key, body, IMAGE_CACHE_SECONDS)
        response = HttpResponse(body, content_type="image/png")
    response["ETag"] = etag
    response["Cache-Control"] = cache_control
    return response


@require_GET
@vary_on_cookie
def game_result_png(request: HttpRequest, pk: int) -> HttpResponse:
    game = _viewable(request, pk).game
    _, result = _final(game)
    response = png_response(request, result, cache_control="private, no-cache")
    response["Content-Disposition"] = f'inline; filename="{image_name(game)}"'
    return response


# -- publishing ---------------------------------------------------------------------------


@require_POST
def game_result_public(request: HttpRequest, pk: int) -> HttpResponse:
    """Switch the public page on (``action=publish``) or off (``action=unpublish``)."""
    if not request.user.is_authenticated:
        raise Http404(NOT_YOURS)
    access = _viewable(request, pk)
    if not access.may_manage:
        return forbidden(request, access)
    game = access.game
    action = request.POST.get("action", "")
    state = game_state(game)
    flash = ""
    if action == "publish":
        try:
            result_publish(game=game, state=state)
            flash = _("The public page is on: anyone with its link can see the result.")
        except ConflictError as exc:
            flash = exc.message
    elif action == "unpublish":
        result_unpublish(game=game)
        flash = _("The public page is off: its link no longer works.")
    else:
        flash = _("Choose to publish or unpublish the result.")
    if getattr(request, "htmx", None) and state.finished:
        context = share_context(request, access, state)
        context["flash"] = flash
        return render(request, "results/_share.html", context)
    messages.info(request, flash)
    return redirect(f"{reverse('game_sheet', args=[pk])}#result-share")


# -- the public page ------------------------------------------------------------------------


def _public(token: str) -> Game:
    game = published_game(token)
    if game is None:
        raise Http404("There is no such result page.")
    found = game_with_related(Game.objects.filter(pk=game.pk)).first()
    if found is None:  # deleted meanwhile
        raise Http404("There is no such result page.")
    return found


def _no_cache(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-cache"
    response["X-Robots-Tag"] = "noindex"
    # The token is the page's key: never hand it on as a referrer.
    response["Referrer-Policy"] = "no-referrer"
    return response


def hand_grid(game: Game, state: GameState) -> dict[str, Any]:
    """Every hand, read-only: for each column (a player, or a team), the hand's points
    and the running score after it."""
    names = player_names(game)
    teams = state.config.teams
    if teams:
        columns = [" & ".join(names.get(p, "?") for p in team) for team in teams]
    else:
        columns = [names.get(p, "?") for p in state.config.players]
    running = [0] * len(columns)
    rows = []
    for hand in state.hands:
        cells = []
        if teams and hand.team_points is not None:
            for i, points in enumerate(hand.team_points):
                running[i] += int(points)
                cells.append((int(points), running[i]))
        else:
            for pid in state.config.players:
                cells.append((int(hand.points.get(pid, 0)), int(hand.totals.get(pid, 0))))
        rows.append({"number": hand.number, "cells": cells})
    return {"columns": columns, "rows": rows}


@require_GET
def public_result(request: HttpRequest, token: str) -> HttpResponse:
    game = _public(token)
    state = game_state(game)
    rules = RULESETS[game.ruleset]
    context: dict[str, Any] = {
        "game": game,
        "rules": rules,
        "rules_name": _(rules.name),
        "finished": state.finished,
    }
    if state.finished:
        result = build_result(game, state)
        image = reverse("public_result_png", args=[token])
        context.update(
            {
                "result": result,
                "page_url": request.build_absolute_uri(),
                "image_url": f"{image}?v={game.version}",
                "og_image": request.build_absolute_uri(f"{image}?v={game.version}"),
                "og_description": " · ".join(
                    f"{'🏆' if line.won else f'{line.place}.'} {line.label} {line.score}"
                    for line in result.lines
                ),
                "grid": hand_grid(game, state),
                "winners": [line.label for line in result.lines if line.won],
            }
        )
    return _no_cache(render(request, "results/public.html", context))


@require_GET
def public_result_png(request: HttpRequest, token: str) -> HttpResponse:
    game = _public(token)
    _, result = _final(game)
    response = png_response(request, result, cache_control="public, no-cache")
    response["X-Robots-Tag"] = "noindex"
    return response


urlpatterns = [
    path("games/<int:pk>/result.png", game_result_png, name="game_result_png"),
    path("games/<int:pk>/result/public/", game_result_public, name="game_result_public"),
    path("r/<str:token>/", public_result, name="public_result"),
    path("r/<str:token>/result.png", public_result_png, name="public_result_png"),
]
