"""The table's shared tools each game's document calls for (issues 18 and 27).

A sheet's phones share a few tools of the hand in play: a countdown (Dirty Deals'
negotiations), a draw-penalty counter (Dirt's jokers and dirt cards), the direction of
play where a card reverses it, and who plays first. Which a game has follows its
document, and nothing else: a tool the document has no use for is refused (the API and
the sheet answer 400 naming ``action``). The sheet words them (``scorekeeper.presenters``);
the timer's length is :meth:`games.base.Ruleset.table_timer_seconds`.

    >>> from games import get_ruleset
    >>> kit = table_kit("dirty-uno")
    >>> kit.reverses, sorted(kit.tools())
    ('a Reverse', ['direction'])
    >>> refusal(get_ruleset("damn-you"), "penalty-add", {})
    'action: D$%n You! has no draw penalty (its actions: leader)'
    >>> refusal(get_ruleset("dirt"), "direction-flip", {}) is None
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.base import Ruleset

TIMER = "timer"
PENALTY = "penalty"
DIRECTION = "direction"
LEADER = "leader"

#: The tool each action of the table (``scorekeeper.services.table``) works.
ACTION_TOOLS = {
    "timer-start": TIMER,
    "timer-pause": TIMER,
    "timer-reset": TIMER,
    "penalty-add": PENALTY,
    "penalty-clear": PENALTY,
    "direction-flip": DIRECTION,
    "leader": LEADER,
}

#: How a refusal names each tool.
TOOL_WORDS = {
    TIMER: "timer",
    PENALTY: "draw penalty",
    DIRECTION: "direction of play to reverse",
    LEADER: "leader to name",
}


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


#: Each game's tools. Dirt: a joker makes the next player draw five, a dirt card as
#: many as its rank, an ace switches the direction; play begins on the dealer's left,
#: and a first card turned up acts as if the dealer played it. Screw Your Neighbour:
#: jacks reverse, black aces pass hands "in the direction of play". D$%n You!: the
#: holder of the seven of diamonds lays it first. Dirty UNO: a Reverse reverses, a 0
#: passes hands "in the current direction". Dirty Deals: the negotiations' timer, and
#: the holder of the nine of clubs leads to the first trick.
KITS: dict[str, TableKit] = {
    "dirt": TableKit(
        penalty=True,
        reverses="an ace",
        first_after_dealer=1,
        turned_up=(
            TurnedUp("an ace", -1, "and play goes counter-clockwise"),
            TurnedUp("a seven", 2, "(the player on the dealer's left is skipped)"),
        ),
    ),
    "screw-your-neighbour": TableKit(
        reverses="a jack",
        follows_direction="Black aces pass every hand this way; the Bomb's pick-ups go "
        "round this way.",
    ),
    "damn-you": TableKit(lead_card="7♦", lead_does="lay it in the centre and play first"),
    "dirty-uno": TableKit(
        reverses="a Reverse",
        follows_direction="A 0 passes every hand to the next player this way. A Reverse "
        "turned up first: play starts counter-clockwise, on the dealer's right.",
    ),
    "dirty-deals": TableKit(
        timer="negotiation timer", lead_card="9♣", lead_does="lead the first trick"
    ),
}


def table_kit(slug: str) -> TableKit:
    """The shared tools of the game ``slug`` (none for a game not listed)."""
    return KITS.get(slug, TableKit())


def actions_of(rules: Ruleset, options: Mapping[str, Any]) -> list[str]:
    """The table actions the game ``rules`` takes with these ``options``.

    >>> from games import get_ruleset
    >>> actions_of(get_ruleset("screw-your-neighbour"), {})
    ['direction-flip']
    """
    timer = rules.table_timer_seconds(options) is not None
    tools = table_kit(rules.slug).tools(timer=timer)
    return [a for a, t in ACTION_TOOLS.items() if t in tools]


def refusal(rules: Ruleset, action: str, options: Mapping[str, Any]) -> str | None:
    """Why the game ``rules`` (with these ``options``) has no use for ``action``
    ("action: …"), or None when it has the tool."""
    tool = ACTION_TOOLS.get(action)
    allowed = actions_of(rules, options)
    if tool is None or action in allowed:
        return None
    has = f"its actions: {', '.join(allowed)}" if allowed else "it has no shared tools"
    return f"action: {rules.name} has no {TOOL_WORDS[tool]} ({has})"
