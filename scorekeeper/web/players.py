"""The players' page: the players you may manage, to rename, colour, hide from the
pickers (or show again) and merge two into one.

Every action is a plain form posted to its own address, answered by a redirect back to
the page with a message; htmx swaps a player's row in place for rename, colour and
hide. The writes go through ``services.player_admin`` like the API's."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count, QuerySet
from django.db.models.functions import Lower
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from games import RuleError
from scorekeeper.models import PLAYER_COLOURS, Player, PlayerMerge
from scorekeeper.selectors.player_colours import colour_of, marker_class
from scorekeeper.services.player_admin import (
    COLOUR_NAMES,
    NoSuchPlayer,
    NotManageable,
    merge_plan,
    player_merge,
    player_update,
    players_managed_by,
)
from scorekeeper.validation import check_text, optional_id, page_number

PAGE_SIZE = 50
MAX_QUERY = 200


def _managed(request: HttpRequest) -> QuerySet[Player]:
    return (
        players_managed_by(request.user)
        .annotate(games=Count("seats"))
        .order_by(Lower("name"), "id")
    )


def player_row(player: Player) -> dict[str, Any]:
    colour = colour_of(player)
    return {
        "player": player,
        "marker": marker_class(colour),
        "colour": colour,
        "colour_chosen": player.colour,
        "colour_name": COLOUR_NAMES[colour - 1],
        "games": getattr(player, "games", None),
    }


def colour_choices() -> list[dict[str, Any]]:
    return [
        {"value": i, "name": COLOUR_NAMES[i - 1], "marker": marker_class(i)}
        for i in range(1, PLAYER_COLOURS + 1)
    ]


def _query(request: HttpRequest) -> str:
    q = request.GET.get("q", "")
    try:
        check_text(q, "q")
    except RuleError:
        return ""
    return " ".join(q.split())[:MAX_QUERY]


@login_required
@require_GET
def player_manage(request: HttpRequest) -> HttpResponse:
    q = _query(request)
    show = request.GET.get("show", "")
    players = _managed(request)
    for word in q.split():
        players = players.filter(name__icontains=word)
    if show == "hidden":
        players = players.filter(hidden=True)
    page = Paginator(players, PAGE_SIZE).get_page(page_number(request.GET.get("page")))
    everyone = list(players_managed_by(request.user).order_by(Lower("name"), "id"))
    merge_from = optional_id(request.GET.get("merge"))
    merges = (
        PlayerMerge.objects.filter(into__in=players_managed_by(request.user))
        .select_related("into")
        .order_by("-merged_at", "-id")[:10]
    )
    return render(
        request,
        "players/manage.html",
        {
            "rows": [player_row(p) for p in page.object_list],
            "page": page,
            "q": q,
            "show": show,
            "colours": colour_choices(),
            "everyone": everyone,
            "merge_from": merge_from,
            "merges": list(merges),
            "hidden_count": players_managed_by(request.user).filter(hidden=True).count(),
        },
    )


def _back(request: HttpRequest, player_id: int | None = None) -> HttpResponse:
    url = reverse("player_manage")
    nxt = request.POST.get("next", "")
    if nxt.startswith("?") and len(nxt) <= 300 and "\n" not in nxt and "\r" not in nxt:
        url += nxt
    return redirect(url + (f"#player-{player_id}" if player_id else ""))


def _row_or_back(
    request: HttpRequest, player: Player, text: str, *, error: bool = False
) -> HttpResponse:
    """For htmx, the player's row again (with the message in it); else back to the page."""
    htmx = getattr(request, "htmx", None)
    if htmx:
        annotated = _managed(request).filter(pk=player.pk).first() or player
        return render(
            request,
            "players/manage.html#row",
            {
                "row": player_row(annotated),
                "colours": colour_choices(),
                "row_message": text,
                "row_error": error,
            },
            status=422 if error else 200,
        )
    (messages.error if error else messages.success)(request, text)
    return _back(request, player.pk)


def _change(request: HttpRequest, player_id: int, **changes: Any) -> HttpResponse:
    current = players_managed_by(request.user).filter(pk=player_id).first()
    if current is None:
        raise Http404("No such player.")
    try:
        player = player_update(user=request.user, player=player_id, **changes)
    except (NoSuchPlayer, NotManageable):
        raise Http404("No such player.") from None
    except RuleError as exc:
        return _row_or_back(request, current, _sentence(exc.message), error=True)
    if "name" in changes:
        text = (
            _("Renamed to %(player)s.") % {"player": player.name}
            if player.name != current.name
            else _("%(player)s keeps that name.") % {"player": player.name}
        )
    elif "colour" in changes:
        shown = {"player": player.name, "colour": COLOUR_NAMES[colour_of(player) - 1].lower()}
        text = (
            _("%(player)s is now %(colour)s.") % shown
            if player.colour
            else _("%(player)s is now %(colour)s (chosen for them).") % shown
        )
    elif changes.get("hidden"):
        text = _("%(player)s is hidden from the pickers.") % {"player": player.name}
    else:
        text = _("%(player)s shows in the pickers again.") % {"player": player.name}
    return _row_or_back(request, player, text)


def _sentence(message: str) -> str:
    text = message[:1].upper() + message[1:]
    return text if text.endswith(".") else text + "."


@login_required
@require_POST
def player_rename(request: HttpRequest, player_id: int) -> HttpResponse:
    return _change(request, player_id, name=request.POST.get("name", ""))


@login_required
@require_POST
def player_colour(request: HttpRequest, player_id: int) -> HttpResponse:
    return _change(request, player_id, colour=request.POST.get("colour", ""))


@login_required
@require_POST
def player_hide(request: HttpRequest, player_id: int) -> HttpResponse:
    return _change(request, player_id, hidden=True)


@login_required
@require_POST
def player_unhide(request: HttpRequest, player_id: int) -> HttpResponse:
    return _change(request, player_id, hidden=False)


@login_required
@require_POST
def player_merge_view(request: HttpRequest) -> HttpResponse:
    """Merge ``player`` into ``into`` (both from the page's merge form), once the page
    that says what it will do was confirmed (``confirm=yes``)."""
    source = optional_id(request.POST.get("player"))
    into = optional_id(request.POST.get("into"))
    back = reverse("player_manage") + "#merge"
    if source is None or into is None:
        messages.error(request, _("Choose the player to merge and the one to merge them into."))
        return redirect(back)
    try:
        if request.POST.get("confirm") != "yes":  # ask first: a merge cannot be undone
            plan = merge_plan(user=request.user, source=source, into=into)
            return render(request, "players/merge_confirm.html", {"plan": plan})
        merged = player_merge(user=request.user, source=source, into=into)
    except (NoSuchPlayer, NotManageable):
        messages.error(request, _("Choose the player to merge from your players."))
        return redirect(back)
    except RuleError as exc:
        messages.error(request, _sentence(exc.message))
        return redirect(back)
    text = ngettext(
        "%(source)s was merged into %(into)s: %(games)s game moved over.",
        "%(source)s was merged into %(into)s: %(games)s games moved over.",
        merged.games,
    ) % {"source": merged.merge.from_name, "into": merged.into.name, "games": merged.games}
    if merged.deferred:
        text = _(
            "%(merged)s League ratings are being recomputed; the standings say so until done."
        ) % {"merged": text}
    messages.success(request, text)
    return redirect(reverse("player_manage") + f"#player-{merged.into.pk}")


urlpatterns = [
    path("players/", player_manage, name="player_manage"),
    path("players/merge/", player_merge_view, name="player_merge"),
    path("players/<int:player_id>/rename/", player_rename, name="player_rename"),
    path("players/<int:player_id>/colour/", player_colour, name="player_colour"),
    path("players/<int:player_id>/hide/", player_hide, name="player_hide"),
    path("players/<int:player_id>/unhide/", player_unhide, name="player_unhide"),
]
