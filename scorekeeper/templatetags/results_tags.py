"""``{% result_share %}``: the sheet's "Share the result" section (a finished game).

A tag rather than more sheet context, so the sheet's views need not know about it: it
reads ``request``, ``game`` and ``state`` from the sheet's context.
"""

from __future__ import annotations

from typing import Any

from django import template

from scorekeeper.web.results import share_context

register = template.Library()


@register.inclusion_tag("results/_share.html", takes_context=True)
def result_share(context: template.Context) -> dict[str, Any]:
    state = context.get("state")
    game = context.get("game")
    request = context.get("request")
    if state is None or game is None or request is None or not state.finished:
        return {"hidden": True}
    return share_context(request, game, state)
