"""Players named in a sentence: the words the games' rules hints share.

A hint is said in English (a :class:`Hint` is a ``str``) and keeps its :class:`Words`,
a marked template with its params, so the Django side can say it in the reader's
language (:meth:`Hint.say`)::

    >>> hint = Hint(Words.of(gettext_noop("%(who)s deals."), who=player_words(4, None)))
    >>> hint, hint.say({"%(who)s deals.": "%(who)s gibt.", "Player %(id)s": "Spieler %(id)s"}.get)
    ('Player 4 deals.', 'Spieler 4 gibt.')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.errors import Translate, Words
from games.i18n import gettext_noop, identity

#: How a player without a known name is called in a hint.
PLAYER = gettext_noop("Player %(id)s")
#: The last two of a list of names: "Ana and Ben".
AND = gettext_noop("%(first)s and %(last)s")
#: More of a list of names: "Ana, Ben" (then "… and Cy").
LIST = gettext_noop("%(first)s, %(next)s")


class Hint(str):
    """A line of rules in English (the ``str`` itself), with the :class:`Words` it was
    said from, for saying it in another language."""

    words: Words

    def __new__(cls, words: Words | str) -> Hint:
        said = Words.of(words)
        hint = super().__new__(cls, str(said))
        hint.words = said
        return hint

    def say(self, translate: Translate = identity) -> str:
        """The hint in ``translate``'s language (the English text by default)."""
        return self.words.say({}, translate, capital=False)


def _named(player: object, names: Mapping[Any, str] | None) -> str | None:
    if names:
        for key in (player, str(player)):
            if key in names:
                return names[key]
    return None


def player_name(player: object, names: Mapping[Any, str] | None) -> str:
    """The name ``names`` gives ``player`` (keyed by the id or its text), else "Player 3".

    >>> player_name(3, {"3": "Cy"}), player_name(4, None)
    ('Cy', 'Player 4')
    """
    return str(player_words(player, names))


def player_words(player: object, names: Mapping[Any, str] | None) -> str | Words:
    """As :func:`player_name`, for a :class:`Words` param: the name as it is (a name is
    not translated), else the marked "Player %(id)s"."""
    name = _named(player, names)
    if name is not None:
        return name
    return Words.of(PLAYER, id=player)


def join_words(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``.

    >>> join_words(["Ana", "Ben", "Cy"])
    'Ana, Ben and Cy'
    >>> join_words(["Ana", "Ben", "Cy", "Dee"]), join_words(["Ana"]), join_words([])
    ('Ana, Ben, Cy and Dee', 'Ana', '')
    """
    return str(joined_words(items))


def joined_words(items: Sequence[str | Words]) -> str | Words:
    """As :func:`join_words`, for a :class:`Words` param: "and" is marked for
    translation (the items, names or words, are said each as they are)."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    first: str | Words = items[0]
    for item in items[1:-1]:
        if isinstance(first, str) and isinstance(item, str):
            first = f"{first}, {item}"  # names: said as they are
        else:
            first = Words.of(LIST, first=first, next=item)
    return Words.of(AND, first=first, last=items[-1])
