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
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.core.cache import caches
from django.core.cache.utils import make_template_fragment_key
from django.http import HttpRequest
from django.utils import translation

from scorekeeper.kept import SHARED
from scorekeeper.live.pushed import FRAGMENT, key_of
from scorekeeper.models import TableState
from scorekeeper.selectors.access import GameAccess, find_poll_access
from scorekeeper.selectors.games import version_key
from scorekeeper.selectors.table import read_tools_row, shares_tools
from scorekeeper.web.access import guest_link, holds_link
from scorekeeper.web.sheet_context import wants_every_hand

#: Long enough for every phone of a table to catch up; a newer version has a new key.
TIMEOUT = 300

#: How long a request waits for another thread's render of the same answer before it
#: renders its own (a render takes milliseconds; this only bounds a stuck one).
RENDER_WAIT_SECONDS = 5.0


class LiveRequest(HttpRequest):
    #: The viewer's access, read once: the ETag and the answer both need it.
    live_access: GameAccess | None
    #: The game's tools row, read once likewise: (game id, the row; None: it has none).
    live_tools: tuple[int, TableState | None]
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


def read_tools_revision(request: HttpRequest, access: GameAccess) -> int:
    """The game's tools revision, from its row read once per request (the ETags and the
    answer's key need the revision, the answers' tools state the row: ``tools_row``)."""
    kept = getattr(request, "live_tools", None)
    if kept is None or kept[0] != access.game.pk:
        kept = (access.game.pk, read_tools_row(access.game))
        request.live_tools = kept  # type: ignore[attr-defined]
    return kept[1].revision if kept[1] is not None else 0


def tools_row(request: HttpRequest, access: GameAccess) -> TableState | bool | None:
    """The game's tools row as this request read it for an ETag or the answer's key
    (None: the game has none; False: not read, for ``selectors.table.table_answer``)."""
    kept = getattr(request, "live_tools", None)
    return kept[1] if kept is not None and kept[0] == access.game.pk else False


def answer_key(request: HttpRequest, access: GameAccess) -> str:
    """What the answer depends on: the game's version, the revision of its table tools
    (their state rides along, out of band), what the viewer may do, the rows asked for,
    the host (the public result's link is absolute) and the language it is said in. Made
    once per request."""
    made = getattr(request, "live_key", None)
    if made is not None and made[0] is access:
        return made[1]
    key = key_of(
        version=version_key(access.game),
        tools=read_tools_revision(request, access) if shares_tools(access.game.ruleset) else "",
        flags=access.answer_flags,
        every=wants_every_hand(request),
        hand=request.GET.get("hand", "")[:12],
        first=request.GET.get("from", "")[:12],
        to=request.GET.get("to", "")[:12],
        host=request.get_host(),
        language=translation.get_language(),
    )
    request.live_key = (access, key)  # type: ignore[attr-defined]
    return key


def keep_new(key: str, body: str) -> None:
    """Keep the answer of a version just written under ``key``, as ``games/_live.html``
    keeps its fragment: the saving phone's, made in the write's own transaction. No phone
    can have asked for that version yet, so nothing is looked up first."""
    caches[SHARED].set(make_template_fragment_key(FRAGMENT, [key]), body, TIMEOUT)


def answer_etag(request: LiveRequest, pk: int) -> str | None:
    """The answer's ``ETag``, for ``condition``; none when there is no answer to give
    (the phone is sent elsewhere, or is current and gets ``204``)."""
    found = poll_access(request, pk)
    if found is None or request.GET.get("v") == str(found.game.version):
        return None
    digest = hashlib.blake2b(answer_key(request, found).encode(), digest_size=12).hexdigest()
    return f'W/"{digest}"'


@dataclass
class _Render:
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: The requests holding or waiting for ``lock``.
    users: int = 0


class Renders:
    """One render at a time of each answer in this process. A hand's event reaches
    every phone of the table at the same moment, and they ask for the same answer at
    once: without this, each of a worker's threads found it missing and rendered it
    (2-4 renders of one key a game, 2026-11-29, ``make bench-live`` scenario c). The
    others wait for the first and then find its answer kept."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._renders: dict[str, _Render] = {}

    @contextmanager
    def one_at_a_time(self, key: str) -> Iterator[None]:
        with self._guard:
            render = self._renders.setdefault(key, _Render())
            render.users += 1
        got = render.lock.acquire(timeout=RENDER_WAIT_SECONDS)
        try:
            yield
        finally:
            if got:
                render.lock.release()
            with self._guard:
                render.users -= 1
                if not render.users:
                    del self._renders[key]

    def __len__(self) -> int:
        return len(self._renders)


RENDERS = Renders()
