"""Entries the rules allow but a table rarely means: a hand far above the table's usual.

A slip of the thumb (9,999 for 99) is a valid number, so the engine scores it; the
score sheet asks the table to confirm it first. What counts as *unlikely*, per ruleset:

* **what is compared**: each player's own amount in the hand, as reported — what the
  ruleset's :meth:`~games.base.Ruleset.reported_amounts` gives, in its
  :attr:`~games.base.Ruleset.plausible_unit` (the points left in hand, the passes). A
  game whose amounts cannot be far off has no
  :attr:`~games.base.Ruleset.plausible_ceiling` and never asks.
* **the table's usual**: the median of those amounts in this game's earlier hands
  (players who went out, holding nothing, left aside), over the last
  :data:`HISTORY_HANDS` hands.
* **unlikely**: more than ``max(USUAL_FACTOR × usual, ceiling)``, where the ruleset's
  ceiling is about the most a hand can reasonably hold (with no earlier hands, the
  ceiling alone).

    >>> from games import get_ruleset
    >>> dirt = get_ruleset("dirt")
    >>> config = dirt.configure(players=[1, 2, 3])
    >>> hand = {"winner": 1, "results": [{"player": 2, "points": 9999},
    ...                                  {"player": 3, "cards": ["JK", "4H"]}]}
    >>> [(u.player, u.amount, u.limit) for u in unlikely_amounts(config, 1, hand, [])]
    [(2, 9999, 250)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import median
from typing import Any

from games.base import GameConfig
from games.registry import get_ruleset

#: How far above the table's usual an amount may be before it asks.
USUAL_FACTOR = 3
#: The earlier hands the usual is taken from (the most recent ones).
HISTORY_HANDS = 50


@dataclass(frozen=True)
class Unlikely:
    """A player's amount far above the usual: ``amount`` of ``what`` ("points",
    "passes"), against the table's ``usual`` (None with no earlier hands) and the
    ``limit`` it passed."""

    player: int
    amount: int
    what: str
    usual: int | None
    limit: int

    @property
    def token(self) -> str:
        """What a confirmation of this amount says: the player and the amount."""
        return f"{self.player}:{self.amount}"


def reported_amounts(config: GameConfig, number: int, hand: Mapping[str, Any]) -> dict[int, int]:
    """Each player's amount in hand ``number``'s stored (checked) input, as the ruleset
    reports it: players who went out, and games that never ask, give none."""
    return get_ruleset(config.ruleset).reported_amounts(config, number, hand)


def table_usual(config: GameConfig, earlier: Sequence[tuple[int, Mapping[str, Any]]]) -> int | None:
    """The median amount of the ``earlier`` hands (``(number, input)`` pairs), rounded;
    None when they hold none."""
    values = [
        amount
        for number, hand in earlier[-HISTORY_HANDS:]
        for amount in reported_amounts(config, number, hand).values()
    ]
    return round(median(values)) if values else None


def over_ceiling(config: GameConfig, number: int, hand: Mapping[str, Any]) -> dict[int, int]:
    """The amounts of hand ``number`` above its ruleset's ceiling: the only ones that can
    be unlikely, whatever the earlier hands (the limit is never below the ceiling), so
    a hand with none needs no history read."""
    ceiling = get_ruleset(config.ruleset).plausible_ceiling
    if ceiling is None:
        return {}
    amounts = reported_amounts(config, number, hand)
    return {player: amount for player, amount in amounts.items() if amount > ceiling}


def unlikely_amounts(
    config: GameConfig,
    number: int,
    hand: Mapping[str, Any],
    earlier: Sequence[tuple[int, Mapping[str, Any]]],
) -> list[Unlikely]:
    """The amounts of hand ``number`` (its checked input) far above the table's usual,
    given the ``earlier`` hands of the game as ``(number, input)`` pairs, oldest first."""
    rules = get_ruleset(config.ruleset)
    ceiling = rules.plausible_ceiling
    if ceiling is None:
        return []
    usual = table_usual(config, earlier)
    limit = max(USUAL_FACTOR * usual, ceiling) if usual is not None else ceiling
    what = rules.plausible_unit
    return [
        Unlikely(player, amount, what, usual, limit)
        for player, amount in reported_amounts(config, number, hand).items()
        if amount > limit
    ]
