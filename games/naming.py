"""Players named in a sentence: the words the games' rules hints share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def player_name(player: object, names: Mapping[Any, str] | None) -> str:
    """The name ``names`` gives ``player`` (keyed by the id or its text), else "Player 3".

    >>> player_name(3, {"3": "Cy"}), player_name(4, None)
    ('Cy', 'Player 4')
    """
    if names:
        for key in (player, str(player)):
            if key in names:
                return names[key]
    return f"Player {player}"


def join_words(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``.

    >>> join_words(["Ana", "Ben", "Cy"])
    'Ana, Ben and Cy'
    """
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
