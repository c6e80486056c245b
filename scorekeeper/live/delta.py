"""Only what changed, for a phone told by an event that a sheet changed from hand N on.

The phone asks ``games/<pk>/live/?v=<shown>&hand=<marker>&from=<N>&to=<version>``. When
the game is still at ``to`` (no other change since the events the phone holds), the
grid is sent with the rows of hands N onwards only — one row for a new hand, none for
an undo, a close or a reopen — plus what sits around them (scoreboard, totals), so what
a change costs a phone does not grow with the game's length. The phone puts those rows
in place of its own from N on (``static/js/live.js``). In any other case the whole grid
goes, as for a poll."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.http import HttpRequest

from scorekeeper.validation import optional_id

if TYPE_CHECKING:
    from scorekeeper.web.sheet import Grid


def delta_from(request: HttpRequest, current: int) -> int | None:
    """The first hand whose row a phone asks for, when a delta is safe (the game is still
    at the version its events told it of), else None: the whole grid goes."""
    first = optional_id(request.GET.get("from"))
    if first is None or request.GET.get("to") != str(current):
        return None
    return first


def grid_delta(grid: Grid, first: int) -> dict[str, Any]:
    """What the live answer's grid says of itself: built from hand ``first`` on."""
    return {"from": first, "first": grid.hidden + 1, "total": grid.total}
