"""Joining a game by link, without an account: the other phones at the table.

``/join/<token>/`` lets a phone into the one game its invite is for. A ``watch`` link
opens the live sheet, read-only; a ``score`` link first asks for a name (once: the
browser's session remembers it), then the phone records, corrects and undoes hands
through the same sheet pages and services as an account. What the session holds is
only which invite (and which guest) it joined with; every request reads the invite
afresh (:func:`guest_pass`), so a revoked link shuts its guests out at their next
request. The sheet views ask here, in one place, whether a request holds a pass.

The views are plain functions, so a rate limit is one decorator on each.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.http import require_GET, require_http_methods

from games import RULESETS, RuleError
from scorekeeper.models import Game, Guest, Invite, InviteRole
from scorekeeper.security import rate_limit
from scorekeeper.selectors.games import can_change_game, player_names
from scorekeeper.selectors.invites import (
    guest_of_invite,
    live_invite_by_token,
    live_invite_for_game,
)
from scorekeeper.services.invites import GUEST_NAME_MAX, guest_join

#: Session key: ``{"<game id>": {"invite": id, "guest": id or None}}``.
SESSION_PASSES = "game_links"
#: Session key: the name a guest gave last, offered again on the next score link.
SESSION_NAME = "guest_name"
#: Where a request keeps the passes it already looked up (one query per game).
_CACHE = "_sk_guest_passes"


@dataclass(frozen=True)
class GuestPass:
    """What a browser that joined by link may do with one game."""

    invite: Invite
    guest: Guest | None

    @property
    def can_change(self) -> bool:
        return self.invite.role == InviteRole.SCORE and self.guest is not None

    @property
    def label(self) -> str:
        return f"{self.guest.name} (guest)" if self.guest is not None else "a guest"


def _passes(request: HttpRequest) -> dict[str, Any]:
    raw = request.session.get(SESSION_PASSES)
    return raw if isinstance(raw, dict) else {}


def holds_link(request: HttpRequest, game_id: int) -> bool:
    """Whether this browser joined ``game_id`` by a link (live or not any more)."""
    return str(game_id) in _passes(request)


def guest_pass(request: HttpRequest, game_id: int) -> GuestPass | None:
    """The live pass this browser holds for a game, or None (never joined, or the link
    was revoked since)."""
    cache: dict[int, GuestPass | None] = request.__dict__.setdefault(_CACHE, {})
    if game_id in cache:
        return cache[game_id]
    found: GuestPass | None = None
    entry = _passes(request).get(str(game_id))
    if isinstance(entry, dict) and isinstance(entry.get("invite"), int):
        invite = live_invite_for_game(entry["invite"], game_id)
        if invite is not None:
            guest_id = entry.get("guest")
            guest = guest_of_invite(guest_id, invite) if isinstance(guest_id, int) else None
            found = GuestPass(invite=invite, guest=guest)
    cache[game_id] = found
    return found


def _grant(request: HttpRequest, invite: Invite, guest: Guest | None) -> None:
    passes = dict(_passes(request))
    passes[str(invite.game_id)] = {"invite": invite.pk, "guest": guest.pk if guest else None}
    request.session[SESSION_PASSES] = passes
    request.__dict__.pop(_CACHE, None)


def login_or_guest_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``login_required`` for a game's pages, letting in a browser that joined that game
    (``pk``) by link. Whether its link still works is :func:`guest_pass`'s to say (a
    revoked one gets a 404, not a sign-in page)."""

    # A guest's writes count against the "guest-write" limit: a link shared at a table
    # must not become a way to flood a game with hands.
    as_guest = rate_limit("guest-write")(view)

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if holds_link(request, int(kwargs["pk"])):
            return as_guest(request, *args, **kwargs)
        return redirect_to_login(request.get_full_path())

    return wrapped


# -- the link ------------------------------------------------------------------------------


def _live_invite(token: str) -> Invite:
    invite = live_invite_by_token(token)
    if invite is None:
        raise Http404("This link does not work: it was revoked, or it is mistyped.")
    return invite


def join_url(request: HttpRequest, invite: Invite) -> str:
    return request.build_absolute_uri(reverse("join", args=[invite.token]))


def _game_title(game: Game) -> str:
    return f"{RULESETS[game.ruleset].name} #{game.pk}"


@require_http_methods(["GET", "POST"])
@rate_limit("join", methods=("GET", "POST"))
def join(request: HttpRequest, token: str) -> HttpResponse:
    """Open a shared game: watch it at once, or give a name and keep its score."""
    invite = _live_invite(token)
    game = invite.game
    if can_change_game(request.user, game):
        return redirect("game_sheet", pk=game.pk)
    held = guest_pass(request, game.pk)
    if invite.role == InviteRole.WATCH:
        # A phone that already keeps score keeps doing so.
        if held is None or not held.can_change:
            _grant(request, invite, None)
        return redirect("game_sheet", pk=game.pk)
    if held is not None and held.invite.pk == invite.pk and held.guest is not None:
        return redirect("game_sheet", pk=game.pk)
    name = str(request.session.get(SESSION_NAME) or "")
    error = ""
    status = 200
    if request.method == "POST":
        name = request.POST.get("name", "")
        try:
            guest = guest_join(invite=invite, name=name)
        except RuleError as exc:
            error, status = exc.message, 422
        else:
            _grant(request, invite, guest)
            request.session[SESSION_NAME] = guest.name
            messages.success(
                request, f"Welcome, {guest.name}: you can enter the hands of this game."
            )
            return redirect("game_sheet", pk=game.pk)
    context = {
        "invite": invite,
        "game": game,
        "title": _game_title(game),
        "seated": list(player_names(game).values()),
        "name": name,
        "name_max": GUEST_NAME_MAX,
        "error": error,
    }
    return render(request, "join/name.html", context, status=status)


@require_GET
@rate_limit("join-qr", methods=("GET",))
def join_qr(request: HttpRequest, token: str) -> HttpResponse:
    """The join link as an SVG QR code (drawn with attributes, no styles: the CSP holds)."""
    invite = _live_invite(token)
    code = segno.make(join_url(request, invite), error="m")
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        scale=6,
        border=4,
        dark="#000",
        light="#fff",
        title=f"Join {_game_title(invite.game)}",
    )
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=300"
    return response


urlpatterns = [
    path("join/<str:token>/", join, name="join"),
    path("join/<str:token>/qr.svg", join_qr, name="join_qr"),
]
