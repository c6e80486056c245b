"""A hand the rules allow but a table rarely means (:mod:`games.plausible`: far above
this table's usual) is not written until the table confirms it.

A writer that asks passes ``confirm=``: what the table confirmed (the tokens of an
earlier :class:`~scorekeeper.errors.UnlikelyHand`, "" for nothing yet). The same hand
sent again with its token is written; a changed amount asks again. The API never asks
(``confirm=None``)."""

from __future__ import annotations

from collections.abc import Mapping

from games import HandOutcome
from games.plausible import HISTORY_HANDS, over_ceiling, unlikely_amounts
from scorekeeper.errors import UnlikelyHand
from scorekeeper.models import Hand
from scorekeeper.services.locked_game import LockedGame


def earlier_inputs(at: LockedGame, number: int) -> list[tuple[int, Mapping[str, object]]]:
    """The inputs of the game's other hands (the most recent ones), oldest first."""
    rows = (
        Hand.objects.filter(game=at.game)
        .exclude(number=number)
        .order_by("-number")
        .values_list("number", "input")[:HISTORY_HANDS]
    )
    return [(n, data) for n, data in reversed(list(rows))]


def check_likely(at: LockedGame, outcome: HandOutcome, confirm: str | None) -> None:
    """Refuse (:class:`UnlikelyHand`) an unlikely ``outcome`` that ``confirm`` does not
    cover; with ``confirm`` None, ask nothing. The earlier hands are read only when an
    amount passes the ruleset's ceiling (most hands pass none: no query)."""
    if confirm is None or not over_ceiling(at.config, outcome.number, outcome.input):
        return
    earlier = earlier_inputs(at, outcome.number)
    items = unlikely_amounts(at.config, outcome.number, outcome.input, earlier)
    said = set(confirm.split())
    if not all(item.token in said for item in items):
        raise UnlikelyHand(items)
