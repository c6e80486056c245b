"""The live answer, rendered once per game version and shared by every phone.

After a hand, every phone at the table asks ``games/<pk>/live/`` for what changed. What
it gets depends on the game's version and on what the phone is (may it enter hands,
manage the game, is it a guest; which hand its entry was for; which rows it asks for),
never on who holds it, but for three strings: the CSRF token of its forms, the
idempotency key of its next entry and its events-stream ticket. So the answer is
rendered once per such key and kept in Django's cache with those three strings left as
placeholders, filled in for each phone (a string replace). The answer carries a weak
``ETag`` of its key: a phone asking again with it gets ``304``."""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils.html import escape

from scorekeeper.selectors.access import GameAccess
from scorekeeper.selectors.games import version_key
from scorekeeper.templatetags.live_tags import live_events_url

#: Long enough for every phone of a table to catch up; a newer version has a new key.
TIMEOUT = 300
CSRF = "csrf-5b1f0e6c-placeholder"
KEY = "idem-5b1f0e6c-placeholder"
EVENTS = "events-5b1f0e6c-placeholder"
_EVENTS_AT = re.compile(r'data-events="[^"]*"')


def answer_key(request: HttpRequest, access: GameAccess, show_all: bool) -> str:
    game = access.game
    parts = [
        version_key(game),
        int(access.may_change),
        int(access.may_manage),
        int(access.may_record),
        int(access.is_guest),
        int(show_all),
        request.GET.get("hand", "")[:12],
        request.GET.get("from", "")[:12],
        request.GET.get("to", "")[:12],
    ]
    return "live-answer:" + ":".join(str(p) for p in parts)


def etag_of(key: str) -> str:
    return 'W/"' + hashlib.blake2b(key.encode(), digest_size=12).hexdigest() + '"'


def shared_answer(
    request: HttpRequest,
    access: GameAccess,
    key: str,
    render: Callable[[str], tuple[HttpResponse, str]],
) -> HttpResponse:
    """The answer for ``key``: from the cache, or made by ``render(csrf_placeholder)``,
    which answers the response and the idempotency key it holds (a ``200`` only is
    kept); with this phone's own token, key and ticket put in."""
    etag = etag_of(key)
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
        response["ETag"] = etag
        return response
    kept = cache.get(key)
    if kept is None:
        made, idempotency = render(CSRF)
        if made.status_code != 200:
            return made
        text = made.content.decode()
        if idempotency:
            text = text.replace(idempotency, KEY)
        text = _EVENTS_AT.sub(f'data-events="{EVENTS}"', text)
        kept = (text, made.get("Content-Type", "text/html; charset=utf-8"))
        cache.set(key, kept, TIMEOUT)
    text, content_type = kept
    if CSRF in text:
        text = text.replace(CSRF, get_token(request))
    if KEY in text:
        text = text.replace(KEY, uuid.uuid4().hex)
    if EVENTS in text:
        text = text.replace(EVENTS, escape(live_events_url(access)))
    response = HttpResponse(text, content_type=content_type)
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response
