"""The engine's words in the request's language: the active language normalised to one
the rules are written in, and the rules read in it (``games.rules`` with ``gettext``
for its generated tables)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils import formats, translation
from django.utils.translation import gettext

from games import RULESETS, rules

#: The languages the site speaks (a rules document may exist in each).
LANGUAGES = ("en", "de", "es")


@dataclass(frozen=True)
class Speaker:
    """The engine's ``translate`` on the Django side: ``gettext`` in the active
    language, its numbers as that language writes them (:meth:`number`, which
    :func:`games.i18n.say_number` uses: "100,000", "100.000") and, for the game
    ``ruleset``, the house rules' choices as its new-game form names them
    (:meth:`choice`, for :func:`games.i18n.say_choice`: the game's presenter says).
    Equal for the same game, so the engine's rules cached per translate are kept."""

    ruleset: str = ""

    def __call__(self, message: str) -> str:
        return gettext(message)

    @staticmethod
    def number(value: int) -> str:
        return str(formats.number_format(int(value), force_grouping=True))

    def choice(self, value: object, option: str = "") -> str:
        """A house rule's choice as the new-game form names it."""
        from scorekeeper.presenters import presenter_for
        from scorekeeper.presenters.base import CHOICE_WORDS

        if self.ruleset and option and isinstance(value, int | str):
            return presenter_for(self.ruleset).option_choice(option, value)
        return str(CHOICE_WORDS.get(str(value), value))


#: Pass as ``translate`` to the engine: its words and numbers in the active language.
speak = Speaker()


def game_title(ruleset: str, options: Mapping[str, Any] | None = None) -> str:
    """What the table calls a game of ``ruleset``: the name the table gave it as it is,
    else the game's name in the active language ("Ein anderes Spiel")."""
    rules_of = RULESETS[ruleset]
    title = rules_of.game_title(options or {})
    return gettext(title) if title == rules_of.name else title


def language() -> str:
    """The active language as "en", "de" or "es" ("de-at" is "de"; anything else,
    or none, is "en")."""
    active = (translation.get_language() or "en").lower().split("-")[0].split("_")[0]
    return active if active in LANGUAGES else "en"


def rules_for(slug: str, options: Mapping[str, Any] | None = None) -> rules.Rules:
    """The rules of ``slug`` in the active language (English where not translated)."""
    lang = language()
    with translation.override(lang):
        return rules.rules_for(slug, options, language=lang, translate=Speaker(slug))


def all_rules() -> list[rules.Rules]:
    """Every game's rules in the active language."""
    lang = language()
    with translation.override(lang):
        return [rules.rules_for(slug, language=lang, translate=Speaker(slug)) for slug in RULESETS]
