"""``reverse()`` for the links a page repeats, at the cost of a string join.

A score sheet links a dozen times to the game's own pages (every hand's correction, the
undo, close and delete forms, the live poll…), and Django's ``reverse()`` costs more
than the rest of a grid row. :func:`fast_reverse` asks ``reverse()`` once per URL name
(per URL configuration and script prefix), with marker numbers for the arguments, and
keeps the text around them; later calls put the numbers in. Only whole-number
arguments take that way (what the game pages use); anything else is ``reverse()``'s.
The ``{% url %}`` of ``{% load sheet_html %}`` uses it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse

_MARK = 987_654_321
#: (URL configuration, script prefix, name, number of arguments) → the URL's text around
#: its arguments, or None when the name does not reverse that way.
_kept: dict[tuple[Any, str, str, int], tuple[str, ...] | None] = {}


def _pieces(name: str, count: int) -> tuple[str, ...] | None:
    marks = [str(_MARK + i) for i in range(count)]
    try:
        rest = reverse(name, args=marks)
    except NoReverseMatch:
        return None
    pieces = []
    for mark in marks:
        head, found, rest = rest.partition(mark)
        if not found:
            return None
        pieces.append(head)
    pieces.append(rest)
    return tuple(pieces)


def fast_reverse(name: str, args: Sequence[Any] = ()) -> str:
    """``reverse(name, args=args)``."""
    return reverser(name, len(args))(*args)


def reverser(name: str, count: int) -> Callable[..., str]:
    """``reverse`` for one URL name taking ``count`` arguments, looked up once: for the
    links of every row of a table."""
    key = (get_urlconf() or settings.ROOT_URLCONF, get_script_prefix(), name, count)
    try:
        pieces = _kept[key]
    except KeyError:
        pieces = _kept[key] = None if ":" in name else _pieces(name, count)
    if pieces is None:
        return lambda *args: reverse(name, args=args)
    head, tails = pieces[0], pieces[1:]

    def join(*args: Any) -> str:
        if not all(type(a) is int and a >= 0 for a in args):
            return reverse(name, args=args)
        return head + "".join(f"{arg}{tail}" for arg, tail in zip(args, tails, strict=True))

    return join


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs: Any) -> None:
    if setting == "ROOT_URLCONF":
        _kept.clear()
