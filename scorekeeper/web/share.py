"""Sharing a game with the table: the page behind the sheet's Share button.

It shows a link's QR code (drawn by ``web.join``) and the link itself, with a copy
button and the phone's share sheet where it has one (``static/js/share.js``), makes new
``score`` and ``watch`` links, lists the live ones with the guests who joined by each,
revokes a link, and removes one guest (after a page saying what that does). Plain
forms: it works without JavaScript. Only whoever may change the game may share it.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.http.request import split_domain_port
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from games import RuleError
from scorekeeper.models import Guest, Invite, InviteRole
from scorekeeper.selectors.access import GameAccess
from scorekeeper.selectors.games import player_names
from scorekeeper.selectors.invites import live_invites, present_guests
from scorekeeper.services.invites import guest_remove, invite_create, invite_revoke
from scorekeeper.web.access import game_page
from scorekeeper.web.join import join_url

ROLE_TEXT = {
    InviteRole.SCORE: gettext_lazy("Lets a phone enter, correct and undo hands of this game."),
    InviteRole.WATCH: gettext_lazy("Lets a phone follow the sheet live, without changing it."),
}


def link_shown(
    request: HttpRequest, invite: Invite, role_text: Mapping[InviteRole, object] = ROLE_TEXT
) -> dict[str, Any]:
    """A live link as a share page shows it (a game's, or a night's with its own
    ``role_text``): its URL and QR code, what it allows, who joined by it, since when."""
    return {
        "invite": invite,
        "url": join_url(request, invite),
        "qr": reverse("join_qr", args=[invite.token]),
        "role_text": role_text[InviteRole(invite.role)],
        "guests": [g for g in invite.guests.all() if g.removed_at is None],
        "made": _ago(invite.created_at),
    }


def _ago(moment: datetime) -> str:
    if timezone.now() - moment < timedelta(minutes=1):
        return "just now"
    return f"{timesince(moment).split(',')[0]} ago"


def on_loopback(request: HttpRequest) -> bool:
    """Whether this page was opened by a loopback address (``127.0.0.1``, ``localhost``):
    its links then lead the other phones to themselves."""
    host = split_domain_port(request.get_host())[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This computer's address on its local network, as the phones would use it: the
    source address of a route out (a UDP socket's connect sends nothing)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))
        address = str(probe.getsockname()[0])
        if not ipaddress.ip_address(address).is_loopback:
            return address
    return None


@login_required
@require_http_methods(["GET", "POST"])
@game_page(may="manage")
def game_share(request: HttpRequest, access: GameAccess) -> HttpResponse:
    """GET: the page, showing one link's QR code (``?invite=``, else the newest score
    link, else the newest watch link). POST ``role``: a new link, then its QR code."""
    game, pk, user = access.game, access.game.pk, access.user
    assert user is not None  # whoever may manage a game is signed in
    if request.method == "POST":
        try:
            invite = invite_create(game=game, user=user, role=request.POST.get("role", ""))
        except RuleError as exc:
            messages.error(request, exc.message)
            return redirect("game_share", pk=pk)
        return redirect(f"{reverse('game_share', args=[pk])}?invite={invite.pk}")
    links = [link_shown(request, i) for i in live_invites(game).prefetch_related("guests")]
    wanted = request.GET.get("invite", "")
    shown = next((x for x in links if str(x["invite"].pk) == wanted), None)
    if shown is None:
        by_role = {InviteRole(x["invite"].role): x for x in reversed(links)}
        shown = by_role.get(InviteRole.SCORE) or by_role.get(InviteRole.WATCH)
    context = {
        "game": game,
        "on_loopback": on_loopback(request),
        "lan_address": lan_address(),
        "title": f"{game.get_ruleset_display()} #{game.pk}",
        "seated": list(player_names(game).values()),
        "links": links,
        "shown": shown,
        "roles": [
            {
                "value": InviteRole.SCORE,
                "label": _("New score link"),
                "text": ROLE_TEXT[InviteRole.SCORE],
            },
            {
                "value": InviteRole.WATCH,
                "label": _("New watch link"),
                "text": ROLE_TEXT[InviteRole.WATCH],
            },
        ],
    }
    return render(request, "games/share.html", context)


@login_required
@require_POST
@game_page(may="manage", rows=False)
def game_share_revoke(request: HttpRequest, access: GameAccess, invite_id: int) -> HttpResponse:
    """Shut a link: it and its guests' access stop working at once."""
    game, pk, user = access.game, access.game.pk, access.user
    assert user is not None  # whoever may manage a game is signed in
    invite = live_invites(game).filter(pk=invite_id).first()
    if invite is None:
        messages.info(request, _("That link was already revoked."))
    else:
        invite_revoke(invite=invite, user=user)
        revoked = (
            _("The score link was revoked: it and its guests are shut out.")
            if invite.role == "score"
            else _("The watch link was revoked: it and its guests are shut out.")
        )
        messages.success(request, revoked)
    return redirect("game_share", pk=pk)


@dataclass(frozen=True)
class GuestRemoval:
    """Where one guest is removed from: a game's links or a night's."""

    #: The guests who may be removed there.
    guests: QuerySet[Guest]
    #: What they joined (a game's title, a night's name) and what they lose.
    title: str
    what: str
    #: The sharing page, and this removal's own page (given the guest's id).
    back: str
    action: Callable[[int], str]
    no_such: str


def guest_removal_page(
    request: HttpRequest, removal: GuestRemoval, guest_id: int, user: User
) -> HttpResponse:
    """GET: what removing this guest does, and a button to do it; POST: remove them."""
    guest = removal.guests.select_related("invite").filter(pk=guest_id).first()
    if guest is None:
        if request.method == "POST":
            messages.info(request, _("That guest was already removed, or their link revoked."))
            return redirect(removal.back)
        raise Http404(removal.no_such)
    if request.method == "GET":
        others = removal.guests.filter(invite_id=guest.invite_id).exclude(pk=guest.pk)
        context = {
            "guest": guest,
            "others": [g.name for g in others],
            "title": removal.title,
            "what": removal.what,
            "back": removal.back,
            "action": removal.action(guest.pk),
        }
        return render(request, "games/guest_remove.html", context)
    guest_remove(guest=guest, user=user)
    messages.success(
        request,
        _("%(guest)s was removed: their phone can no longer open %(what)s.")
        % {"guest": guest.name, "what": removal.what},
    )
    return redirect(removal.back)


@login_required
@require_http_methods(["GET", "POST"])
@game_page(may="manage", rows=False)
def game_guest_remove(request: HttpRequest, access: GameAccess, guest_id: int) -> HttpResponse:
    """Remove one guest of the game's links (:func:`guest_removal_page`)."""
    game, user = access.game, access.user
    assert user is not None  # whoever may manage a game is signed in
    removal = GuestRemoval(
        guests=present_guests(game),
        title=f"{game.get_ruleset_display()} #{game.pk}",
        what=_("this game"),
        back=reverse("game_share", args=[game.pk]),
        action=lambda guest: reverse("game_guest_remove", args=[game.pk, guest]),
        no_such="No such guest of this game.",
    )
    return guest_removal_page(request, removal, guest_id, user)


urlpatterns = [
    path("games/<int:pk>/share/", game_share, name="game_share"),
    path(
        "games/<int:pk>/share/<int:invite_id>/revoke/", game_share_revoke, name="game_share_revoke"
    ),
    path(
        "games/<int:pk>/share/guests/<int:guest_id>/remove/",
        game_guest_remove,
        name="game_guest_remove",
    ),
]
