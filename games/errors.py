"""What the engine says when an entry breaks a game's rules: :class:`RuleError` (and
:class:`CardError` for cards), each carrying every :class:`Problem` of the entry, in
plain words (:class:`Words`), with the field and the player it concerns.

A message names players by id, "player 3", so the API reads the same for every client;
it also keeps those ids, so a page can say it with the table's names instead::

    >>> error = RuleError(Words.of("%(player)s is seated twice", player=mention(3)), "players")
    >>> error.message, error.players
    ('player 3 is seated twice', (3,))
    >>> error.text({3: "Bob"}), error.text({})
    ('Bob is seated twice', 'Player 3 is seated twice')

A message is one English template with named %-placeholders (marked with
:func:`games.i18n.gettext_noop`), so :meth:`Words.say` can say it in another language
given a ``translate`` callable (the Django side passes ``gettext``)::

    >>> error.say({}, translate={"%(player)s is seated twice": "%(player)s sitzt doppelt",
    ...     "player %(id)s": "Spieler %(id)s"}.get)
    'Spieler 3 sitzt doppelt'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.i18n import Count, gettext_noop, identity, say_number
from games.i18n import capital as capitalised

JSON = Any

Translate = Callable[[str], str]

#: How a player without a known name is said (translated by :meth:`Words.say`).
PLAYER = gettext_noop("player %(id)s")

_MARK = "\x00"


def _translated(translate: Translate, message: str) -> str:
    """``translate(message)``, or ``message`` itself when the translation is empty or
    missing (a ``dict.get`` works as ``translate``)."""
    if not message:
        return message  # gettext("") would be the catalog's header
    return translate(message) or message


@dataclass(frozen=True)
class Words:
    """A message in plain words naming players: the text around each player's id
    (``texts`` has one more item than ``players``). Build one by adding text to
    :func:`mention`; ``str()`` says "player <id>", :meth:`text` says names."""

    texts: tuple[str, ...]
    players: tuple[int, ...] = ()
    #: The English template with named %-placeholders, when built by :meth:`of` with
    #: params (``None`` for plain text or text joined with ``+``).
    template: str | None = None
    #: The template's params, in order: a :class:`Words` (a player) or plain text.
    params: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, message: str | Words, /, **params: object) -> Words:
        """``message`` as words; with ``params``, ``message`` is a template with named
        %-placeholders (``"%(player)s is seated twice"``) and a param that is a
        :class:`Words` (from :func:`mention`) names its players."""
        if isinstance(message, Words):
            return message
        if not params:
            return cls((message,))
        marked = {
            # A typed value that holds the mark itself (a NUL) must not split the words.
            key: f"{_MARK}{key}{_MARK}"
            if isinstance(value, Words)
            else value.replace(_MARK, "\ufffd")
            if isinstance(value, str)
            else value
            for key, value in params.items()
        }
        pieces = (message % marked).split(_MARK)
        words = Words((pieces[0],))
        for i in range(1, len(pieces), 2):
            value = params[pieces[i]]
            assert isinstance(value, Words)
            words = words + value + pieces[i + 1]
        return cls(words.texts, words.players, message, tuple(params.items()))

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
        return capitalised(self._say(names))

    def _said(self, names: Mapping[int, str], translate: Translate) -> str:
        if self.template is not None:
            values = {
                key: value._said(names, translate)
                if isinstance(value, Words)
                else say_number(translate, value)
                if isinstance(value, Count)
                else value
                for key, value in self.params
            }
            return _translated(translate, self.template) % values
        if not self.players:
            return _translated(translate, self.texts[0]) if len(self.texts) == 1 else ""
        if self.texts == ("", ""):
            player = self.players[0]
            if player in names:
                return names[player]
            return _translated(translate, PLAYER) % {"id": player}
        return self._say(names)  # text joined with "+": said as it is

    def say(
        self, names: Mapping[int, str], translate: Translate = identity, *, capital: bool = True
    ) -> str:
        """Said in another language: ``translate(template) % params``, the players by
        their ``names`` (one without a name ``translate("player %(id)s")``), starting
        with a capital as :meth:`text` (unless not ``capital``: as the API says it).
        Plain text is translated as it is (no %-formatting without params). With the
        default ``translate``, :meth:`text`."""
        said = self._said(names, translate)
        return capitalised(said) if capital else said


def mention(player: object) -> Words | str:
    """``player`` in a message: a player id, said with a name where one is known, or
    what was typed instead of an id, as typed (``"player 'x'"``)."""
    if isinstance(player, int) and not isinstance(player, bool):
        return Words(("", ""), (player,))
    return Words.of(gettext_noop("player %(typed)s"), typed=repr(player))


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

    def say(self, names: Mapping[int, str], translate: Translate = identity) -> str:
        """The message said with ``translate`` (see :meth:`Words.say`)."""
        return self.words.say(names, translate)

    def as_dict(self, translate: Translate | None = None) -> dict[str, JSON]:
        """``{"field", "player", "message"}``; with ``translate``, the message in its
        language (players named "player <id>", translated, as the API says them)."""
        message = (
            self.message if translate is None else self.words.say({}, translate, capital=False)
        )
        return {"field": self.field, "player": self.player, "message": message}


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

    def say(self, names: Mapping[int, str], translate: Translate = identity) -> str:
        """The message said with ``translate`` (see :meth:`Words.say`)."""
        return self.words.say(names, translate)

    @property
    def problems(self) -> tuple[Problem, ...]:
        """Every problem of the entry, this error's first (at least this one)."""
        return self._problems or (Problem(self.words, self.field, self.player),)

    def with_problems(self, problems: Sequence[Problem]) -> RuleError:
        self._problems = tuple(problems)
        return self

    def as_dict(self, translate: Translate | None = None) -> dict[str, JSON]:
        """``{field: [message, …]}`` for every problem; when there are several, also
        each one under ``errors`` (``{"field", "player", "message"}``), saying which
        player it concerns. With ``translate``, the messages in its language."""
        data: dict[str, JSON] = {}
        problems = self.problems
        dicts = [problem.as_dict(translate) for problem in problems]
        for problem, said in zip(problems, dicts, strict=True):
            data.setdefault(problem.field, []).append(said["message"])
        if len(problems) > 1:
            data["errors"] = dicts
        return data


class CardError(RuleError):
    """A card code that cannot be parsed, or more copies of a card than the decks hold."""

    def __init__(
        self, message: str | Words, field: str = "cards", player: int | None = None
    ) -> None:
        super().__init__(message, field, player)
