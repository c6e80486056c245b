"""A game night's page: its current game, its standings across the games played, its
games, and (for whoever may share it) one score or watch link for the whole night, with
its QR code. A phone that joined by the night's link sees it too; the page asks for its
"now playing" part every few seconds (htmx), and a game that starts meanwhile takes the
phone to it (``static/js/night-follow.js``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_cookie

from games import RuleError
from scorekeeper.models import InviteRole, Night
from scorekeeper.selectors.invites import live_night_invites, night_guests
from scorekeeper.selectors.nights import (
    current_game,
    may_manage_night,
    night_for_viewer,
    night_games,
)
from scorekeeper.services.invites import invite_revoke, night_invite_create
from scorekeeper.services.night_results import night_summary
from scorekeeper.services.nights import night_usable
from scorekeeper.web.access import night_link
from scorekeeper.web.results import png_response
from scorekeeper.web.share import GuestRemoval, guest_removal_page, link_shown

ROLE_TEXT = {
    InviteRole.SCORE: gettext_lazy(
        "Lets a phone enter, correct and undo hands of every game tonight."
    ),
    InviteRole.WATCH: gettext_lazy(
        "Lets a phone follow tonight's games live, without changing them."
    ),
}


def _night_for(request: HttpRequest, pk: int) -> Night:
    """The night, if this browser may see it (:func:`night_for_viewer`)."""
    night = night_for_viewer(pk, request.user, night_link(request, pk))
    if night is None:
        raise Http404("There is no such night, or it is not one of yours.")
    return night


def _may_start(request: HttpRequest, night: Night) -> bool:
    """Whether this viewer may add a game to the night (its owner, its league's
    recorders)."""
    if not request.user.is_authenticated:
        return False
    try:
        night_usable(request.user, night.pk)
    except RuleError:
        return False
    return True


@require_http_methods(["GET", "POST"])
def night_page(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the night. POST ``role`` (whoever may share it): a new link for the night."""
    night = _night_for(request, pk)
    sharer = may_manage_night(request.user, night)
    if request.method == "POST":
        if not sharer:
            return render(request, "403.html", status=403)
        try:
            invite = night_invite_create(
                night=night,
                user=request.user,  # type: ignore[arg-type]  # (a sharer is signed in)
                role=request.POST.get("role", ""),
            )
        except RuleError as exc:
            messages.error(request, exc.message)
            return redirect("night_page", pk=pk)
        return redirect(f"{reverse('night_page', args=[pk])}?invite={invite.pk}#night-share")
    current = current_game(night)
    if request.GET.get("part") == "current":  # the page's own poll: this part alone
        part: dict[str, Any] = {
            "night": night,
            "current": current,
            "current_name": current.get_ruleset_display() if current is not None else "",
            "may_start": _may_start(request, night),
        }
        return render(request, "nights/night.html#current", part)
    invites = live_night_invites(night).prefetch_related("guests") if sharer else []
    links = [link_shown(request, i, ROLE_TEXT) for i in invites]
    wanted = request.GET.get("invite", "")
    shown = next((x for x in links if str(x["invite"].pk) == wanted), links[0] if links else None)
    summary = night_summary(night)
    context = {
        "night": night,
        "current": current,
        "current_name": current.get_ruleset_display() if current is not None else "",
        "games": [(g, g.get_ruleset_display()) for g in night_games(night)],
        "summary": summary,
        "card_name": card_name(night),
        "sharer": sharer,
        "may_start": _may_start(request, night),
        "links": links,
        "shown": shown,
        "roles": [(role, ROLE_TEXT[role]) for role in (InviteRole.SCORE, InviteRole.WATCH)],
    }
    return render(request, "nights/night.html", context)


@require_GET
@vary_on_cookie
def night_card_png(request: HttpRequest, pk: int) -> HttpResponse:
    """The evening's share card as an image (its standings), for whoever sees the night."""
    night = _night_for(request, pk)
    response = png_response(request, night_summary(night).card, cache_control="private, no-cache")
    response["Content-Disposition"] = f'inline; filename="{card_name(night)}"'
    return response


def card_name(night: Night) -> str:
    return f"scorekeeper-night-{night.pk}.png"


@require_POST
def night_share_revoke(request: HttpRequest, pk: int, invite_id: int) -> HttpResponse:
    """Shut one of the night's links: its phones lose every game of the night."""
    night = _night_for(request, pk)
    if not may_manage_night(request.user, night):
        return render(request, "403.html", status=403)
    invite = live_night_invites(night).select_related("night").filter(pk=invite_id).first()
    if invite is None:
        messages.info(request, _("That link was already revoked."))
    else:
        invite_revoke(invite=invite, user=request.user)  # type: ignore[arg-type]
        revoked = (
            _("The score link was revoked: it and its guests are shut out.")
            if invite.role == "score"
            else _("The watch link was revoked: it and its guests are shut out.")
        )
        messages.success(request, revoked)
    return redirect("night_page", pk=pk)


@require_http_methods(["GET", "POST"])
def night_guest_remove(request: HttpRequest, pk: int, guest_id: int) -> HttpResponse:
    """GET: what removing this guest of the night's links does, and a button to do it;
    POST: remove them from every game of the night."""
    night = _night_for(request, pk)
    if not may_manage_night(request.user, night):
        return render(request, "403.html", status=403)
    removal = GuestRemoval(
        guests=night_guests(night),
        title=night.name,
        what=_("tonight's games"),
        back=f"{reverse('night_page', args=[pk])}#night-share",
        action=lambda guest: reverse("night_guest_remove", args=[pk, guest]),
        no_such="No such guest of this night.",
    )
    return guest_removal_page(request, removal, guest_id, request.user)  # type: ignore[arg-type]


urlpatterns = [
    path("nights/<int:pk>/", night_page, name="night_page"),
    path("nights/<int:pk>/card.png", night_card_png, name="night_card_png"),
    path(
        "nights/<int:pk>/share/<int:invite_id>/revoke/",
        night_share_revoke,
        name="night_share_revoke",
    ),
    path(
        "nights/<int:pk>/guests/<int:guest_id>/remove/",
        night_guest_remove,
        name="night_guest_remove",
    ),
]
