"""A game's shared table tools, as its document describes its play (issues 18 and 27):
what each ruleset declares in :attr:`games.base.Ruleset.table_kit`. What the table does
with them (the actions, the refusals) is :mod:`games.table_tools`."""

from __future__ import annotations

from dataclasses import dataclass

TIMER = "timer"
PENALTY = "penalty"
DIRECTION = "direction"
LEADER = "leader"


@dataclass(frozen=True)
class TurnedUp:
    """A first card turned up that changes who plays first: ``steps`` seats clockwise
    of the dealer (negative: counter-clockwise), and what else it means."""

    card: str
    steps: int
    means: str = ""


@dataclass(frozen=True)
class TableKit:
    """The shared tools of one game, as its document describes its play."""

    #: The shared countdown's name ("negotiation timer"); empty: none.
    timer: str = ""
    #: Whether the table counts a draw penalty (the cards that add to it differ by hand:
    #: the presenter's buttons).
    penalty: bool = False
    #: What reverses the direction of play ("an ace"); empty: nothing does, no tool.
    reverses: str = ""
    #: What else goes the way play goes, in the document's terms (shown by the tool).
    follows_direction: str = ""
    #: The card whose holder plays first ("9♣"): the table says who that is.
    lead_card: str = ""
    #: What its holder does with it, after "They" ("lead the first trick").
    lead_does: str = ""
    #: Who plays first when the deal decides it: this many seats clockwise of the
    #: dealer (0: the deal does not decide it), and the first cards that change that.
    first_after_dealer: int = 0
    turned_up: tuple[TurnedUp, ...] = ()

    def tools(self, *, timer: bool = True) -> frozenset[str]:
        """The shared tools (``timer``: whether the game's options give it a timer)."""
        found = set()
        if self.timer and timer:
            found.add(TIMER)
        if self.penalty:
            found.add(PENALTY)
        if self.reverses:
            found.add(DIRECTION)
        if self.lead_card:
            found.add(LEADER)
        return frozenset(found)
