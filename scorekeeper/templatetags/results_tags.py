"""``{% result_share %}``: the sheet's "Share the result" section (a finished game).

A tag rather than more sheet context, so the sheet's views need not know about it: it
reads ``request``, ``access`` and ``state`` from the sheet's context.
"""

from __future__ import annotations

from typing import Any

from django import template

from scorekeeper.selectors.games import with_rows
from scorekeeper.web.results import share_context

register = template.Library()


@register.inclusion_tag("results/_share.html", takes_context=True)
def result_share(context: template.Context) -> dict[str, Any]:
    state = context.get("state")
    access = context.get("access")
    request = context.get("request")
    if state is None or access is None or request is None or not state.finished:
        return {"hidden": True}
    with_rows(access.game)  # the sheet may have read its state from the cache
    # In the live answer (oob), shared by every phone, the forms carry no CSRF token.
    return {**share_context(request, access, state), "oob": context.get("oob")}
