"""The scorekeeper engine: the scoring rules of five house-rule card games.

Pure Python, no Django. Each game is one :class:`~games.base.Ruleset` subclass in its
own module, registered by slug in :data:`RULESETS`::

    >>> from games import get_ruleset
    >>> dirt = get_ruleset("dirt")
    >>> config = dirt.configure(players=[1, 2, 3, 4])
    >>> state = dirt.play(config, [
    ...     {"winner": 1, "results": [{"player": 2, "points": 10},
    ...                               {"player": 3, "cards": ["JK"]},
    ...                               {"player": 4, "cards": ["6H", "KD"]}]},
    ... ])
    >>> [(row.player, row.score, row.rank) for row in state.standings]
    [(1, 0, 1), (2, 10, 2), (4, 26, 3), (3, 50, 4)]
    >>> state.next_hand["dirt_rank"]
    '4'
"""

from games.base import (
    CardError,
    GameConfig,
    GameState,
    HandOutcome,
    Option,
    Placement,
    RuleError,
    Ruleset,
    StandingRow,
    Variant,
)
from games.registry import RULESETS, get_ruleset

__all__ = [
    "RULESETS",
    "CardError",
    "GameConfig",
    "GameState",
    "HandOutcome",
    "Option",
    "Placement",
    "RuleError",
    "Ruleset",
    "StandingRow",
    "Variant",
    "get_ruleset",
]
