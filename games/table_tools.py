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

from collections.abc import Callable, Mapping
from typing import Any

from games.base import Ruleset
from games.i18n import gettext_noop, identity
from games.kit import DIRECTION, LEADER, PENALTY, TIMER, TableKit, TurnedUp
from games.registry import get_ruleset

__all__ = [
    "ACTION_TOOLS",
    "TOOL_WORDS",
    "TableKit",
    "TurnedUp",
    "actions_of",
    "refusal",
    "table_kit",
]

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
    TIMER: gettext_noop("timer"),
    PENALTY: gettext_noop("draw penalty"),
    DIRECTION: gettext_noop("direction of play to reverse"),
    LEADER: gettext_noop("leader to name"),
}


def table_kit(slug: str) -> TableKit:
    """The shared tools of the game ``slug`` (its ruleset's
    :attr:`~games.base.Ruleset.table_kit`); :class:`~games.errors.RuleError` for a slug
    that is no game."""
    return get_ruleset(slug).table_kit


def actions_of(rules: Ruleset, options: Mapping[str, Any]) -> list[str]:
    """The table actions the game ``rules`` takes with these ``options``.

    >>> from games import get_ruleset
    >>> actions_of(get_ruleset("screw-your-neighbour"), {})
    ['direction-flip']
    """
    timer = rules.table_timer_seconds(options) is not None
    tools = rules.table_kit.tools(timer=timer)
    return [a for a, t in ACTION_TOOLS.items() if t in tools]


def refusal(
    rules: Ruleset,
    action: str,
    options: Mapping[str, Any],
    translate: Callable[[str], str] = identity,
) -> str | None:
    """Why the game ``rules`` (with these ``options``) has no use for ``action``
    ("action: …"), or None when it has the tool; said through ``translate``."""
    tool = ACTION_TOOLS.get(action)
    allowed = actions_of(rules, options)
    if tool is None or action in allowed:
        return None
    said = {"game": translate(rules.name), "tool": translate(TOOL_WORDS[tool])}
    if allowed:
        template = gettext_noop("action: %(game)s has no %(tool)s (its actions: %(actions)s)")
        said["actions"] = ", ".join(allowed)
    else:
        template = gettext_noop("action: %(game)s has no %(tool)s (it has no shared tools)")
    return translate(template) % said
