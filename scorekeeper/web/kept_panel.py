"""The entry panel of a new hand, rendered once and kept.

A phone opening a sheet gets the entry panel for the next hand: blank, the same on every
request until a hand is saved, except for two values that must be fresh — the CSRF token
and the idempotency key of the form. :func:`render_kept` renders the panel's template
once with markers in place of those two, keeps the text by everything else it is made
from (the whole ``Panel`` by its dataclass ``repr``, the game, whether it is swapped out
of band, the URL configuration), and puts the request's values in on every later page.
Only a blank new-hand panel is kept (no errors, no question, no history, no preview):
a panel being corrected or refused is rendered every time, as before.

:func:`render_kept_by` does the same for other parts of the sheet (its head, its
actions), kept by the values the template names for them.
"""

from __future__ import annotations

import dataclasses
import secrets
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template import Context
from django.template.base import NodeList
from django.urls import get_script_prefix, get_urlconf
from django.utils import timezone

from scorekeeper.web.sheet_panel import Panel

#: Markers no user text contains (random per process, letters and digits only, so
#: escaping leaves them as they are, as it does the real token and key).
_CSRF_MARK = "csrf" + secrets.token_hex(16)
_KEY_MARK = "idem" + secrets.token_hex(16)
_MAX_KEPT = 512
#: The longest part kept (a grid of the recent hands is about 10 KB).
_MAX_SIZE = 32_000
_kept: dict[tuple[Any, ...], str] = {}


def keepable(panel: Any, context: Context) -> bool:
    """Whether this panel is one that is kept: a blank entry of the next hand."""
    return (
        isinstance(panel, Panel)
        and panel.mode == "new"
        and not panel.errors
        and not panel.field_errors
        and panel.problems is None
        and panel.question is None
        and not panel.history
        and context.get("preview") is None
        and isinstance(panel.idempotency_key, str)
        and panel.idempotency_key.isalnum()
    )


def render_kept(nodelist: NodeList, context: Context) -> str:
    """``nodelist.render(context)``, kept for a blank new-hand panel."""
    panel = context.get("panel")
    csrf = str(context.get("csrf_token") or "")
    if not keepable(panel, context) or not csrf.isalnum() or csrf == "NOTPROVIDED":
        return nodelist.render(context)
    assert isinstance(panel, Panel)
    game = context.get("game")
    marked = dataclasses.replace(panel, idempotency_key=_KEY_MARK)
    key = (
        repr(marked),
        getattr(game, "pk", None),
        bool(context.get("oob")),
        get_urlconf() or settings.ROOT_URLCONF,
        get_script_prefix(),
    )
    try:
        html = _kept[key]
    except KeyError:
        with context.push(panel=marked, csrf_token=_CSRF_MARK):
            html = nodelist.render(context)
        if len(_kept) >= _MAX_KEPT:
            _kept.clear()
        _kept[key] = html
    return html.replace(_CSRF_MARK, csrf).replace(_KEY_MARK, panel.idempotency_key)


def render_kept_by(nodelist: NodeList, context: Context, name: str, values: list[Any]) -> str:
    """``nodelist.render(context)``, kept by ``values`` (what the part shows, resolved in
    this context: the template names them) and ``name``: for parts of the sheet that
    show a few facts of the game and change when those do. The CSRF token is the
    request's own."""
    csrf = str(context.get("csrf_token") or "")
    if not csrf.isalnum() or csrf == "NOTPROVIDED":
        return nodelist.render(context)
    key = (
        name,
        getattr(context.template, "name", None),
        repr(values),
        bool(context.get("oob")),
        get_urlconf() or settings.ROOT_URLCONF,
        get_script_prefix(),
        settings.STATIC_URL,
        timezone.get_current_timezone_name(),
    )
    try:
        html = _kept[key]
    except KeyError:
        with context.push(csrf_token=_CSRF_MARK):
            html = nodelist.render(context)
        if len(html) <= _MAX_SIZE:  # a game's every hand is rendered, not kept
            if len(_kept) >= _MAX_KEPT:
                _kept.clear()
            _kept[key] = html
    return html.replace(_CSRF_MARK, csrf)


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs: Any) -> None:
    if setting in ("ROOT_URLCONF", "STORAGES") or setting.startswith("STATIC"):
        _kept.clear()
