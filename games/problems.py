"""Every problem of a hand's entry at once, not just the first.

A game's hand parser checks each player's part of the entry in turn and notes what is
wrong in a :class:`Problems` instead of stopping at the first error; at the end,
:meth:`Problems.raise_if_any` raises the first error with the whole list attached
(:attr:`games.errors.RuleError.problems`). So a table that typed two bad values sees both,
each beside its player, and an API client gets all of them in one answer.

    >>> from games import get_ruleset
    >>> dirt = get_ruleset("dirt")
    >>> config = dirt.configure(players=[1, 2, 3])
    >>> for p in entry_problems(dirt, config, [], {"winner": 1, "results": [
    ...         {"player": 2, "points": -4}, {"player": 3, "cards": ["ZZ"]}]}):
    ...     print(p.player, p.message)
    2 player 2: the points cannot be negative
    3 player 3: 'ZZ' is not a card: the suit must be S, H, D or C (or ♠ ♥ ♦ ♣)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from games.errors import Problem, RuleError

if TYPE_CHECKING:
    from games.base import Ruleset
    from games.config import GameConfig


class Problems:
    """The problems found so far in one entry."""

    def __init__(self) -> None:
        self.errors: list[RuleError] = []

    def __bool__(self) -> bool:
        return bool(self.errors)

    def add(self, error: RuleError, player: int | None = None) -> None:
        """Note ``error``; ``player`` is whose part of the entry it concerns (when the
        error does not say already)."""
        if error.player is None and player is not None:
            error.player = player
        self.errors.extend(
            [error]
            if not error._problems
            else [type(error)(p.words, p.field, p.player) for p in error.problems]
        )

    @contextmanager
    def check(self, player: int | None = None) -> Iterator[None]:
        """Run a check, noting its :class:`RuleError` rather than letting it stop the
        others."""
        try:
            yield
        except RuleError as error:
            self.add(error, player)

    def problems(self) -> tuple[Problem, ...]:
        return tuple(Problem(e.words, e.field, e.player) for e in self.errors)

    def raise_if_any(self) -> None:
        """Raise the first error, carrying every problem, if there is any."""
        if self.errors:
            raise self.errors[0].with_problems(self.problems())


def entry_problems(
    rules: Ruleset,
    config: GameConfig,
    hands: Sequence[Mapping[str, Any]],
    entry: Mapping[str, Any],
) -> tuple[Problem, ...]:
    """Every problem of ``entry`` as the next hand after ``hands`` (stored inputs); an
    empty tuple when the engine accepts it."""
    try:
        state = rules.play(config, [*hands, entry])
        rules.check_entry(config, state.hands[-1])
    except RuleError as error:
        return error.problems
    return ()
