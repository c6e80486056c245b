"""The one-line rules hint for the hand in play, shown on the score sheet: what this
hand's dirt is, who deals, what ends it, in the players' names. Each game words its own
(:meth:`games.base.Ruleset.rules_hint`); this looks the game up."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.errors import Translate
from games.i18n import identity
from games.registry import get_ruleset


def context_hint(
    slug: str,
    next_hand: Mapping[str, Any] | None,
    names: Mapping[Any, str] | None = None,
    translate: Translate = identity,
) -> str:
    """One line of rules that matters for the hand about to be played (``next_hand`` as
    :meth:`Ruleset.play` returns it), with player ids replaced by ``names``, said with
    ``translate`` (the Django side's ``gettext``). Empty when the game is over.

        >>> context_hint("damn-you", {"number": 1, "dealer": 1, "short": [4, 1]},
        ...              {1: "Ana", 4: "Dee"})
        'Ana deals. Whoever holds the 7♦ opens. Dee and Ana ante an extra chip (one card short).'
    """
    rules = get_ruleset(slug)
    if not next_hand:
        return ""
    return rules.rules_hint(next_hand, names, translate)
