"""Only what changed, for a phone told by an event that a sheet changed from hand N on.

The phone asks ``games/<pk>/live/?v=<shown>&hand=<marker>&from=<N>&to=<version>``. When
the game is still at ``to`` (no other change since the events the phone holds), the
grid is sent with the rows of hands N onwards only — one row for a new hand, none for
an undo, a close or a reopen — plus what sits around them (scoreboard, totals), so what
a change costs a phone does not grow with the game's length. The phone puts those rows
in place of its own from N on (``static/js/live.js``). In any other case the whole grid
goes, as for a poll."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.http import HttpRequest

from scorekeeper.validation import optional_id


def grid_delta(request: HttpRequest, context: dict[str, Any], current: int) -> dict[str, Any]:
    """What to add to the live answer's context: ``grid_delta`` (and the grid cut to the
    changed rows) when a delta is safe, else nothing."""
    first = optional_id(request.GET.get("from"))
    if first is None or request.GET.get("to") != str(current):
        return {}
    grid = context["grid"]
    rows = [row for row in grid.rows if row.number >= first]
    shown_from = grid.hidden + 1
    return {
        "grid": dataclasses.replace(grid, rows=rows),
        "grid_delta": {"from": first, "first": shown_from, "total": grid.total},
    }
