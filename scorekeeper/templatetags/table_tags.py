"""``{% table_tools_state %}``: the table tools' shared state as JSON in the page, for
``static/js/table-tools.js`` (``games/_table_tools_state.html``), rendered from the
sheet's context (its access, state and names: nothing is read again but the tools'
row, which the sheet's page reads with the game). In the page it stands outside the
sheet's ``{% cache %}`` fragments: the state carries the server's clock
(``server_now``), by which each phone counts the timer down. The live answer keeps it
in its fragment, whose key holds the tools' revision (``web.live_answer.answer_key``)."""

from __future__ import annotations

from typing import Any

from django import template

from scorekeeper.selectors.table import shares_tools
from scorekeeper.web.table import answer

register = template.Library()


@register.inclusion_tag("games/_table_tools_state.html", takes_context=True)
def table_tools_state(context: template.Context) -> dict[str, Any]:
    """Nothing for a game whose tools share nothing; an empty holder when the game has
    no hand in play (over), so that the page always has the element a live answer
    swaps out of band (a game reopened by an undo brings its tools back);
    ``oob`` in the context: swapped out of band."""
    state = context.get("state")
    if state is None or not shares_tools(state.config.ruleset):
        return {"data": None, "holder": False}
    oob = context.get("oob", False)
    if context.get("table_tools") is None:
        return {"data": None, "holder": True, "oob": oob}
    row = context.get("tools_row", False)  # the sheet's page reads it with the game
    tools = context["table_tools"]
    data = answer(context["access"], context["state"], context["names"], tools, row)
    return {"data": data, "holder": True, "oob": oob}
