"""What the engine says when an entry breaks a game's rules: :class:`RuleError` (and
:class:`CardError` for cards), each carrying every :class:`Problem` of the entry, in
plain words (:class:`Words`), with the field and the player it concerns.

A message names players by id, "player 3", so the API reads the same for every client;
it also keeps those ids, so a page can say it with the table's names instead::

    >>> error = RuleError(mention(3) + " is seated twice", "players")
    >>> error.message, error.players
    ('player 3 is seated twice', (3,))
    >>> error.text({3: "Bob"}), error.text({})
    ('Bob is seated twice', 'Player 3 is seated twice')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

JSON = Any


@dataclass(frozen=True)
class Words:
    """A message in plain words naming players: the text around each player's id
    (``texts`` has one more item than ``players``). Build one by adding text to
    :func:`mention`; ``str()`` says "player <id>", :meth:`text` says names."""

    texts: tuple[str, ...]
    players: tuple[int, ...] = ()

    @classmethod
    def of(cls, message: str | Words) -> Words:
        return message if isinstance(message, Words) else cls((message,))

    def __add__(self, other: str | Words) -> Words:
        more = Words.of(other)
        joined = self.texts[-1] + more.texts[0]
        return Words((*self.texts[:-1], joined, *more.texts[1:]), self.players + more.players)

    def __radd__(self, other: str) -> Words:
        return Words.of(other) + self

    def _say(self, names: Mapping[int, str]) -> str:
        return self.texts[0] + "".join(
            names.get(p, f"player {p}") + text
            for p, text in zip(self.players, self.texts[1:], strict=True)
        )

    def __str__(self) -> str:
        return self._say({})

    def text(self, names: Mapping[int, str]) -> str:
        """Said with the players' ``names`` (one without a name stays "player <id>"),
        starting with a capital, as a page shows it."""
        said = self._say(names)
        return said[:1].upper() + said[1:]


def mention(player: object) -> Words | str:
    """``player`` in a message: a player id, said with a name where one is known, or
    what was typed instead of an id, as typed (``"player 'x'"``)."""
    if isinstance(player, int) and not isinstance(player, bool):
        return Words(("", ""), (player,))
    return f"player {player!r}"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an entry: its words, the input field it concerns and the
    player it belongs to (``None`` for the hand as a whole, such as who went out)."""

    words: Words
    field: str = "non_field_errors"
    player: int | None = None

    @property
    def message(self) -> str:
        """The message, players named "player <id>" (the API's words)."""
        return str(self.words)

    @property
    def players(self) -> tuple[int, ...]:
        """The ids of the players the message names, in order."""
        return self.words.players

    def text(self, names: Mapping[int, str]) -> str:
        """The message with the players' ``names``, starting with a capital."""
        return self.words.text(names)

    def as_dict(self) -> dict[str, JSON]:
        return {"field": self.field, "player": self.player, "message": self.message}


class RuleError(ValueError):
    """Input that breaks a game's rules. ``field`` names the input field it concerns
    (``winner``, ``results``, ``options``…), so an API can answer ``{field: [message]}``;
    ``player`` the player it belongs to, if one; ``players`` every player the message
    names, so :meth:`text` can say their names.

    A hand's entry is checked whole: the error raised is its first problem, and
    :attr:`problems` lists every problem found (see :mod:`games.problems`)."""

    def __init__(
        self,
        message: str | Words,
        field: str = "non_field_errors",
        player: int | None = None,
    ) -> None:
        self.words = Words.of(message)
        super().__init__(str(self.words))
        self.field = field
        self.player = player
        self._problems: tuple[Problem, ...] = ()

    @property
    def message(self) -> str:
        """The message, players named "player <id>" (the API's words)."""
        return str(self.words)

    @property
    def players(self) -> tuple[int, ...]:
        """The ids of the players the message names, in order."""
        return self.words.players

    def text(self, names: Mapping[int, str]) -> str:
        """The message with the players' ``names``, starting with a capital."""
        return self.words.text(names)

    @property
    def problems(self) -> tuple[Problem, ...]:
        """Every problem of the entry, this error's first (at least this one)."""
        return self._problems or (Problem(self.words, self.field, self.player),)

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

    def __init__(
        self, message: str | Words, field: str = "cards", player: int | None = None
    ) -> None:
        super().__init__(message, field, player)
