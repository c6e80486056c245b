"""The live answer, rendered once per game version and kind of phone, shared by them all.

After a hand, every phone at the table asks ``games/<pk>/live/`` for what changed. What
it gets depends on the game's version and on what the phone is (may it enter hands,
manage the game, is it a guest; which hand its entry was for; which rows it asks for),
never on who holds it: its forms carry no CSRF token (they are htmx forms, and htmx
sends the page's, from the body's ``hx-headers``), its entry form no idempotency key and
its poller no events-stream ticket (the phone makes the one and keeps the other:
``static/js/offline-sheet.js``, ``static/js/live.js``). So ``games/_live.html`` keeps it
as one ``{% cache %}`` fragment per such key, and the answer's ``ETag`` (Django's
``condition``) is made of the same key: a phone asking again with it gets ``304``."""

from __future__ import annotations

import hashlib

from django.http import HttpRequest
from django.utils import translation

from scorekeeper.live.pushed import key_of
from scorekeeper.selectors.access import GameAccess, find_poll_access
from scorekeeper.selectors.games import version_key
from scorekeeper.selectors.table import shares_tools, tools_revision
from scorekeeper.web.access import guest_link, holds_link
from scorekeeper.web.sheet_context import wants_every_hand

#: Long enough for every phone of a table to catch up; a newer version has a new key.
TIMEOUT = 300


class LiveRequest(HttpRequest):
    #: The viewer's access, read once: the ETag and the answer both need it.
    live_access: GameAccess | None
    #: The game's tools revision, read once likewise: (game id, revision).
    live_tools: tuple[int, int]
    #: The answer's key, made once (it reads the tools' revision): the same two need it.
    live_key: tuple[GameAccess, str]


def poll_access(request: LiveRequest, pk: int) -> GameAccess | None:
    """The viewer's access to game ``pk`` (None: not signed in and holding no link, or
    the game is gone or not theirs), read once per request."""
    if not hasattr(request, "live_access"):
        found = None
        if request.user.is_authenticated or holds_link(request, pk):
            found = find_poll_access(pk, request.user, guest_link(request, pk))
        request.live_access = found
    return request.live_access


def _tools_revision(request: HttpRequest, access: GameAccess) -> int:
    """The game's tools revision, read once per request (the ETag and the answer's key
    both need it, and every game's tools are shared)."""
    kept = getattr(request, "live_tools", None)
    if kept is None or kept[0] != access.game.pk:
        kept = (access.game.pk, tools_revision(access.game))
        request.live_tools = kept  # type: ignore[attr-defined]
    return kept[1]


def answer_key(request: HttpRequest, access: GameAccess) -> str:
    """What the answer depends on: the game's version, the revision of its table tools
    (their state rides along, out of band), what the viewer may do, the rows asked for,
    the host (the public result's link is absolute) and the active language (the answer
    is rendered in it). Made once per request."""
    made = getattr(request, "live_key", None)
    if made is not None and made[0] is access:
        return made[1]
    key = key_of(
        version=version_key(access.game),
        tools=_tools_revision(request, access) if shares_tools(access.game.ruleset) else "",
        flags=access.answer_flags,
        every=wants_every_hand(request),
        hand=request.GET.get("hand", "")[:12],
        first=request.GET.get("from", "")[:12],
        to=request.GET.get("to", "")[:12],
        host=request.get_host(),
    )
    # The answer is rendered in the viewer's language: a German fragment is never
    # served to a Spanish phone.
    key = f"{key}:{translation.get_language()}"
    request.live_key = (access, key)  # type: ignore[attr-defined]
    return key


def answer_etag(request: LiveRequest, pk: int) -> str | None:
    """The answer's ``ETag``, for ``condition``; none when there is no answer to give
    (the phone is sent elsewhere, or is current and gets ``204``)."""
    found = poll_access(request, pk)
    if found is None or request.GET.get("v") == str(found.game.version):
        return None
    digest = hashlib.blake2b(answer_key(request, found).encode(), digest_size=12).hexdigest()
    return f'W/"{digest}"'
