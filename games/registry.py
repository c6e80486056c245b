"""The registry of games, keyed by slug (like python-chess's ``VARIANTS``)."""

from __future__ import annotations

from games.base import RuleError, Ruleset
from games.custom import Custom
from games.damn_you import DamnYou
from games.dirt import Dirt
from games.dirty_deals import DirtyDeals
from games.dirty_uno import DirtyUno
from games.errors import Words
from games.i18n import gettext_noop
from games.screw_your_neighbour import ScrewYourNeighbour

RULESETS: dict[str, Ruleset] = {
    r.slug: r for r in (Dirt(), ScrewYourNeighbour(), DamnYou(), DirtyUno(), DirtyDeals(), Custom())
}


def get_ruleset(slug: str) -> Ruleset:
    """The game with this slug; :class:`RuleError` (field ``ruleset``) if there is none."""
    try:
        return RULESETS[slug]
    except (KeyError, TypeError):
        allowed = ", ".join(RULESETS)
        words = Words.of(
            gettext_noop("'%(slug)s' is not a game here (choose %(allowed)s)"),
            slug=str(slug),
            allowed=allowed,
        )
        raise RuleError(words, "ruleset") from None
