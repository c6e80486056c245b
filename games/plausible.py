"""Entries the rules allow but a table rarely means: a hand far above the table's usual.

A slip of the thumb (9,999 for 99) is a valid number, so the engine scores it; the
score sheet asks the table to confirm it first. What counts as *unlikely*, per ruleset:

* **what is compared**: each player's own amount in the hand, as reported —
  Dirt and Dirty UNO the points of the cards left in hand (counted or from the cards),
  D$%n You! the passes. Dirty Deals (a claim scores at most 9, a bower 3) and Screw Your
  Neighbour (one hand win) cannot be far off, so they never ask.
* **the table's usual**: the median of those amounts in this game's earlier hands
  (players who went out, holding nothing, left aside), over the last
  :data:`HISTORY_HANDS` hands.
* **unlikely**: more than ``max(USUAL_FACTOR × usual, CEILING[ruleset])``, where the
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

from games.base import GameConfig, whole_number
from games.cards import parse_french, parse_uno
from games.dirt import DIRT_RANKS, card_points
from games.dirty_uno import card_points as uno_points

#: About the most one player's hand can reasonably hold, per ruleset (the unit is
#: :data:`WHAT`). Dirt: seven cards, jokers (50) and dirt cards (25) among them, rarely
#: pass 250. Dirty UNO: a long hand after draws (wilds, 0s and 7s at 50) can be big, but
#: not more than the 500 a whole game is played to. D$%n You!: a player passes once a
#: turn, and a hand rarely lasts 30 of their turns.
CEILING: Mapping[str, int] = {"dirt": 250, "dirty-uno": 500, "damn-you": 30}
#: What is compared, in words, per ruleset.
WHAT: Mapping[str, str] = {"dirt": "points", "dirty-uno": "points", "damn-you": "passes"}
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
    """Each player's amount in hand ``number``'s stored (checked) input, per
    :data:`WHAT`: players who went out, and games that never ask, give none."""
    ruleset = config.ruleset
    winner = hand.get("winner")
    amounts: dict[int, int] = {}
    if ruleset == "damn-you":
        for row in hand.get("results") or []:
            passes = whole_number(row.get("passes"))
            if passes is not None:
                amounts[int(row["player"])] = passes
        return amounts
    if ruleset not in ("dirt", "dirty-uno"):
        return amounts
    points_of = _card_points(config, number)
    for row in hand.get("results") or []:
        player = int(row["player"])
        if player == winner:
            continue
        if row.get("points") is not None:
            points = whole_number(row["points"])
            if points is not None:
                amounts[player] = points
        elif row.get("cards") is not None:
            amounts[player] = sum(points_of(code) for code in row["cards"])
    return amounts


def _card_points(config: GameConfig, number: int) -> Any:
    if config.ruleset == "dirt":
        ranks = DIRT_RANKS.get(config.variant or "baby", DIRT_RANKS["baby"])
        rank = ranks[min(number, len(ranks)) - 1]
        ten = int(config.options.get("ten_points", 1))
        return lambda code: card_points(
            parse_french(code, suit_optional=True), rank, ten_points=ten
        )
    return lambda code: uno_points(parse_uno(code, colour_optional=True))


def table_usual(config: GameConfig, earlier: Sequence[tuple[int, Mapping[str, Any]]]) -> int | None:
    """The median amount of the ``earlier`` hands (``(number, input)`` pairs), rounded;
    None when they hold none."""
    values = [
        amount
        for number, hand in earlier[-HISTORY_HANDS:]
        for amount in reported_amounts(config, number, hand).values()
    ]
    return round(median(values)) if values else None


def unlikely_amounts(
    config: GameConfig,
    number: int,
    hand: Mapping[str, Any],
    earlier: Sequence[tuple[int, Mapping[str, Any]]],
) -> list[Unlikely]:
    """The amounts of hand ``number`` (its checked input) far above the table's usual,
    given the ``earlier`` hands of the game as ``(number, input)`` pairs, oldest first."""
    ceiling = CEILING.get(config.ruleset)
    if ceiling is None:
        return []
    usual = table_usual(config, earlier)
    limit = max(USUAL_FACTOR * usual, ceiling) if usual is not None else ceiling
    what = WHAT[config.ruleset]
    return [
        Unlikely(player, amount, what, usual, limit)
        for player, amount in reported_amounts(config, number, hand).items()
        if amount > limit
    ]
