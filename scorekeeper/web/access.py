"""The viewer's access to the game a page is about, decided once per request.

A game's pages are decorated with :func:`game_page`: it reads which link (if any) this
browser joined the game by (the session holds only the ids: ``web.join`` puts them
there), asks :func:`~scorekeeper.selectors.access.find_game_access` once, answers what
the viewer may not have (sign in, 404, 403), and hands the view the
:class:`~scorekeeper.selectors.access.GameAccess` every part of the page then asks.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.db.models import Prefetch, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from scorekeeper.models import Game, Seat
from scorekeeper.security import rate_limit
from scorekeeper.selectors.access import GameAccess, GuestLink, Role, find_game_access

#: Session key: ``{"<game id>": {"invite": id, "guest": id or None}}``.
SESSION_PASSES = "game_links"
#: Session key: the links joined for a whole night, ``{"<night id>": {…the same…}}``.
SESSION_NIGHTS = "night_links"
NOT_YOURS = "There is no such game, or it is not one of yours."


def _passes(request: HttpRequest, key: str = SESSION_PASSES) -> dict[str, Any]:
    raw = request.session.get(key)
    return raw if isinstance(raw, dict) else {}


def _held(entry: object) -> tuple[int, int | None] | None:
    if not isinstance(entry, dict) or type(entry.get("invite")) is not int:
        return None
    guest = entry.get("guest")
    return entry["invite"], guest if type(guest) is int else None


def _night_links(request: HttpRequest) -> tuple[tuple[int, int, int | None], ...]:
    links = []
    for night, entry in _passes(request, SESSION_NIGHTS).items():
        held = _held(entry)
        if held is not None and night.isdigit():
            links.append((int(night), *held))
    return tuple(links)


def holds_link(request: HttpRequest, game_id: int) -> bool:
    """Whether this browser joined ``game_id`` (or a night) by a link (live or not any
    more)."""
    return str(game_id) in _passes(request) or bool(_passes(request, SESSION_NIGHTS))


def guest_link(request: HttpRequest, game_id: int) -> GuestLink | None:
    """The link this browser joined ``game_id`` by, or else the links it joined nights by
    (one of them may be the game's night's), as the session remembers them (whether
    they still work is for ``selectors.access`` to say)."""
    held = _held(_passes(request).get(str(game_id)))
    if held is not None:
        return GuestLink(*held)
    nights = _night_links(request)
    return GuestLink(None, nights=nights) if nights else None


def night_link(request: HttpRequest, night_id: int) -> tuple[int, int | None] | None:
    """The invite and guest this browser joined ``night_id`` by."""
    return _held(_passes(request, SESSION_NIGHTS).get(str(night_id)))


def remember_link(request: HttpRequest, game_id: int, invite_id: int, guest_id: int | None) -> None:
    passes = dict(_passes(request))
    passes[str(game_id)] = {"invite": invite_id, "guest": guest_id}
    request.session[SESSION_PASSES] = passes


def remember_night_link(
    request: HttpRequest, night_id: int, invite_id: int, guest_id: int | None
) -> None:
    passes = dict(_passes(request, SESSION_NIGHTS))
    passes[str(night_id)] = {"invite": invite_id, "guest": guest_id}
    request.session[SESSION_NIGHTS] = passes


def request_access(
    request: HttpRequest, pk: int, *, rows: bool = True, games: QuerySet[Game] | None = None
) -> GameAccess | None:
    """This request's viewer's access to game ``pk`` (None: no such game for them)."""
    return find_game_access(pk, request.user, guest_link(request, pk), rows=rows, games=games)


def seated_game() -> QuerySet[Game]:
    """The game row as a hand write's page reads it: with its league and owner (the
    viewer's access) and its seats with their players (the entry's fields, the names of
    what was saved), not its hands (the write reads the one it needs, under its lock)."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player"))
    return Game.objects.select_related("league", "owner").prefetch_related(seats)


def forbidden(request: HttpRequest, access: GameAccess) -> HttpResponse:
    return render(request, "games/forbidden.html", {"game": access.game}, status=403)


def game_page(
    *, may: str = "view", rows: bool = True, games: QuerySet[Game] | None = None
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """For a view of one game (URL argument ``pk``), called as ``view(request, access,
    …)``: a browser neither signed in nor holding a link to the game is sent to sign
    in; a game the viewer may not see is a 404 (a link's guest who lost access is sent to
    the page that says so); one they may see but not do this with
    (``may``: ``view``, ``record``, ``change``, ``manage``; see ``GameAccess``) a 403.
    ``rows``: load what the sheet shows (seats, players, hands), not just the game row;
    ``games``: the query to read the game from instead.

    A guest's requests count against the "guest-write" limit: a link shared at a table
    must not become a way to flood a game with hands."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        def checked(request: HttpRequest, pk: int, **kwargs: Any) -> HttpResponse:
            access = request_access(request, pk, rows=rows, games=games)
            if access is None:
                if request.method == "GET" and not request.user.is_authenticated:
                    # A phone that joined by link and lost its access (the link revoked,
                    # the guest removed): the page that says why, and keeps its entry.
                    return redirect("game_access_ended", pk=pk)
                raise Http404(NOT_YOURS)
            if may != "view" and not getattr(access, f"may_{may}"):
                return forbidden(request, access)
            return view(request, access, **kwargs)

        as_guest = rate_limit("guest-write")(checked)

        @wraps(view)
        def wrapped(request: HttpRequest, pk: int, **kwargs: Any) -> HttpResponse:
            if request.user.is_authenticated:
                return checked(request, pk, **kwargs)
            if holds_link(request, pk):
                return as_guest(request, pk, **kwargs)
            return redirect_to_login(request.get_full_path())

        return wrapped

    return decorate


def writer(access: GameAccess) -> dict[str, Any]:
    """Who writes, for the services: the account, or the guest of a score link."""
    if access.role is Role.SCORER:
        return {"user": None, "guest": access.guest}
    return {"user": access.user, "guest": None}
