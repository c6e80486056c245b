"""Joining a game by link, without an account: the other phones at the table.

``/join/<token>/`` lets a phone into the one game its invite is for. A ``watch`` link
opens the live sheet, read-only; a ``score`` link first asks for a name (once: the
browser's session remembers it), then the phone records, corrects and undoes hands
through the same sheet pages and services as an account. A phone whose access ended
(its link revoked, or its guest removed by the owner) is shown why, by
``/games/<id>/ended/``, with the hand it was entering kept on the phone as a draft
(``static/js/kept-draft.js``); a removed guest cannot join again by the same link.
What the session holds is
only which invite (and which guest) it joined with; every request reads the invite
afresh (``selectors.access``), so a revoked link shuts its guests out at their next
request.

The views are plain functions, so a rate limit is one decorator on each.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from games import RuleError
from scorekeeper.models import Game, Invite, InviteRole, Night
from scorekeeper.security import rate_limit
from scorekeeper.selectors.access import Role, game_access
from scorekeeper.selectors.games import player_names
from scorekeeper.selectors.invites import live_invite_by_token, was_removed
from scorekeeper.selectors.nights import current_game
from scorekeeper.services.invites import GUEST_NAME_MAX, guest_join
from scorekeeper.web.access import (
    guest_link,
    holds_link,
    night_link,
    remember_link,
    remember_night_link,
    request_access,
)

#: Session key: the name a guest gave last, offered again on the next score link.
SESSION_NAME = "guest_name"


# -- the link ------------------------------------------------------------------------------


def _live_invite(token: str) -> Invite:
    invite = live_invite_by_token(token)
    if invite is None:
        raise Http404("This link does not work: it was revoked, or it is mistyped.")
    return invite


def join_url(request: HttpRequest, invite: Invite) -> str:
    return request.build_absolute_uri(reverse("join", args=[invite.token]))


def _game_title(game: Game | None) -> str:
    assert game is not None
    return f"{game.get_ruleset_display()} #{game.pk}"


@require_http_methods(["GET", "POST"])
@rate_limit("join", methods=("GET", "POST"))
def join(request: HttpRequest, token: str) -> HttpResponse:
    """Open a shared game: watch it at once, or give a name and keep its score."""
    invite = live_invite_by_token(token)
    if invite is None:  # revoked, or mistyped: the app's page, saying what to do
        return render(request, "join/dead.html", status=404)
    if invite.night is not None:
        return _join_night(request, invite, invite.night)
    game = invite.game
    assert game is not None
    link = guest_link(request, game.pk)
    held = game_access(game, request.user, link)
    if held.may_manage:
        return redirect("game_sheet", pk=game.pk)
    if link is not None and link.invite_id == invite.pk and was_removed(link.guest_id, invite.pk):
        return _ended(request, game.pk, removed=True)
    if invite.role == InviteRole.WATCH:
        # A phone that already keeps score keeps doing so.
        if held.role is not Role.SCORER:
            remember_link(request, game.pk, invite.pk, None)
        return redirect("game_sheet", pk=game.pk)
    if held.role is Role.SCORER and held.invite is not None and held.invite.pk == invite.pk:
        return redirect("game_sheet", pk=game.pk)
    return _ask_name(
        request,
        invite,
        title=_game_title(game),
        seated=list(player_names(game).values()),
        onward=redirect("game_sheet", pk=game.pk),
        remember=lambda guest: remember_link(request, game.pk, invite.pk, guest),
    )


def _join_night(request: HttpRequest, invite: Invite, night: Night) -> HttpResponse:
    """A night's link: the same as a game's, for every game of the night. The phone is
    taken to the night's current game (or to the night's page until it has one), and
    follows the night from game to game."""
    held = night_link(request, night.pk)
    current = current_game(night)
    if held is not None and held[0] == invite.pk and was_removed(held[1], invite.pk):
        return _ended(request, current.pk if current is not None else 0, removed=True)
    if current is not None and game_access(current, request.user).may_manage:
        return redirect("game_sheet", pk=current.pk)
    onward = (
        redirect("game_sheet", pk=current.pk)
        if current is not None
        else redirect("night_page", pk=night.pk)
    )
    scoring = held is not None and held[1] is not None and held[0] == invite.pk
    if invite.role == InviteRole.WATCH:
        # A phone that already keeps score keeps doing so.
        if held is None or held[1] is None:
            remember_night_link(request, night.pk, invite.pk, None)
        return onward
    if scoring:
        return onward
    return _ask_name(
        request,
        invite,
        title=night.name,
        seated=list(player_names(current).values()) if current is not None else [],
        onward=onward,
        remember=lambda guest: remember_night_link(request, night.pk, invite.pk, guest),
        night=night,
    )


def _ask_name(
    request: HttpRequest,
    invite: Invite,
    *,
    title: str,
    seated: list[str],
    onward: HttpResponse,
    remember: Callable[[int], None],
    night: Night | None = None,
) -> HttpResponse:
    """A score link's name form: shown (with the name this browser gave last), or sent:
    the guest is made, this browser remembers them (``remember``) and goes ``onward``."""
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
            remember(guest.pk)
            request.session[SESSION_NAME] = guest.name
            messages.success(request, _("Welcome, %(name)s!") % {"name": guest.name})
            return onward
    context = {
        "invite": invite,
        "night": night,
        "title": title,
        "seated": seated,
        "name": name,
        "name_max": GUEST_NAME_MAX,
        "error": error,
    }
    return render(request, "join/name.html", context, status=status)


def _ended(request: HttpRequest, pk: int, *, removed: bool, deleted: bool = False) -> HttpResponse:
    context = {"pk": pk, "removed": removed, "deleted": deleted}
    return render(request, "join/ended.html", context, status=403)


@require_GET
@rate_limit("join", methods=("GET",))
def access_ended(request: HttpRequest, pk: int) -> HttpResponse:
    """Where a guest's sheet sends them when their access ends: why (the link revoked,
    or they were removed), and the entry they had begun, read back from the phone's own
    storage by script (the page shows nothing of the game itself)."""
    if not holds_link(request, pk):
        raise Http404("This page is for a phone that joined a game by link.")
    if request_access(request, pk, rows=False) is not None:  # let in again meanwhile
        return redirect("game_sheet", pk=pk)
    link = guest_link(request, pk)
    removed = link is not None and any(
        was_removed(guest, invite)
        for invite, guest in (
            [(link.invite_id, link.guest_id)]
            if link.invite_id is not None
            else [(i, g) for _, i, g in link.nights]
        )
    )
    deleted = not Game.objects.filter(pk=pk).exists()
    return _ended(request, pk, removed=removed, deleted=deleted)


@require_GET
@rate_limit("join-qr", methods=("GET",))
def join_qr(request: HttpRequest, token: str) -> HttpResponse:
    """The join link as an SVG QR code (drawn with attributes, no styles: the CSP holds)."""
    invite = _live_invite(token)
    # segno loads with the first QR code a worker draws, not with every worker.
    import segno

    code = segno.make(join_url(request, invite), error="m")
    what = invite.night.name if invite.night is not None else _game_title(invite.game)
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        scale=6,
        border=4,
        dark="#000",
        light="#fff",
        title=_("Join %(what)s") % {"what": what},
    )
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=300"
    return response


urlpatterns = [
    path("games/<int:pk>/ended/", access_ended, name="game_access_ended"),
    path("join/<str:token>/", join, name="join"),
    path("join/<str:token>/qr.svg", join_qr, name="join_qr"),
]
