"""Hands the rules could never produce, refused when they are entered.

The hand parsers check each value on its own (a card is a card, a count is a whole
number); some entries pass every such check and still describe a hand that cannot
happen:

* **Dirt, Dirty UNO** — a player who did not go out holds at least one card, and every
  card of these games scores at least 1 point, so "no cards" or "0 points" for such a
  player is impossible. (In partner Dirt the partners of the player who went out may be
  entered at 0: their team's points do not count that hand.)

These are checked on a *new* entry (a hand recorded or corrected), not when the stored
hands are replayed, so a game entered before the check came in still reads as it was.

    >>> from games import get_ruleset
    >>> dirt = get_ruleset("dirt")
    >>> config = dirt.configure(players=[1, 2, 3])
    >>> [e.player for e in impossible(config, {"winner": 1, "results": [
    ...     {"player": 2, "points": 0}, {"player": 3, "cards": ["4H"]}]})]
    [2]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.config import GameConfig
from games.errors import RuleError, Words, mention
from games.i18n import gettext_noop
from games.problems import Problems

#: The games whose hands are scored from the cards left, every card worth at least 1.
SCORED_FROM_CARDS_LEFT = frozenset({"dirt", "dirty-uno"})

NO_CARDS = gettext_noop(
    "%(player)s did not go out, so holds at least one card, and every card scores at "
    "least 1 point: no cards is impossible"
)
NO_POINTS = gettext_noop(
    "%(player)s did not go out, so holds at least one card, and every card scores at "
    "least 1 point: 0 points is impossible"
)


def impossible(config: GameConfig, hand: Mapping[str, Any]) -> list[RuleError]:
    """The problems of a checked (normalised) hand input that no real hand can have."""
    if config.ruleset in SCORED_FROM_CARDS_LEFT:
        return _nothing_left(config, hand)
    return []


def check_possible(config: GameConfig, hand: Mapping[str, Any]) -> None:
    """Raise the first :func:`impossible` problem, carrying every one of them."""
    found = Problems()
    for error in impossible(config, hand):
        found.add(error)
    found.raise_if_any()


def _nothing_left(config: GameConfig, hand: Mapping[str, Any]) -> list[RuleError]:
    winner = hand.get("winner")
    partners: set[int] = set()
    for team in config.teams or ():
        if winner in team:
            partners = set(team)
    errors: list[RuleError] = []
    for row in hand.get("results") or []:
        player = row.get("player")
        if player == winner or player in partners:
            continue
        if row.get("cards") is not None and not row["cards"]:
            message = NO_CARDS
        elif row.get("points") is not None and row["points"] == 0:
            message = NO_POINTS
        else:
            continue
        errors.append(RuleError(Words.of(message, player=mention(player)), "results", player))
    return errors
