"""What the engine says when an entry breaks a game's rules: :class:`RuleError` (and
:class:`CardError` for cards), each carrying every :class:`Problem` of the entry, in
plain words, with the field and the player it concerns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

JSON = Any


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an entry: the message (plain words; players named
    "player <id>" so a page can put their names in), the input field it concerns and the
    player it belongs to (``None`` for the hand as a whole, such as who went out)."""

    message: str
    field: str = "non_field_errors"
    player: int | None = None

    def as_dict(self) -> dict[str, JSON]:
        return {"field": self.field, "player": self.player, "message": self.message}


class RuleError(ValueError):
    """Input that breaks a game's rules. ``field`` names the input field it concerns
    (``winner``, ``results``, ``options``…), so an API can answer ``{field: [message]}``;
    ``player`` the player it belongs to, if one.

    A hand's entry is checked whole: the error raised is its first problem, and
    :attr:`problems` lists every problem found (see :mod:`games.problems`)."""

    def __init__(
        self, message: str, field: str = "non_field_errors", player: int | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.player = player
        self._problems: tuple[Problem, ...] = ()

    @property
    def problems(self) -> tuple[Problem, ...]:
        """Every problem of the entry, this error's first (at least this one)."""
        return self._problems or (Problem(self.message, self.field, self.player),)

    def with_problems(self, problems: Sequence[Problem]) -> RuleError:
        self._problems = tuple(problems)
        return self

    def as_dict(self) -> dict[str, JSON]:
        """``{field: [message, …]}`` for every problem; when there are several, also
        each one under ``errors`` (``{"field", "player", "message"}``), saying which
        player it concerns."""
        data: dict[str, JSON] = {}
        problems = self.problems
        for problem in problems:
            data.setdefault(problem.field, []).append(problem.message)
        if len(problems) > 1:
            data["errors"] = [problem.as_dict() for problem in problems]
        return data


class CardError(RuleError):
    """A card code that cannot be parsed, or more copies of a card than the decks hold."""

    def __init__(self, message: str, field: str = "cards", player: int | None = None) -> None:
        super().__init__(message, field, player)
