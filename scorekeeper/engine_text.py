"""The engine's words in the request's language: the active language normalised to one
the rules are written in, and the rules read in it (``games.rules`` with ``gettext``
for its generated tables)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import formats, translation
from django.utils.translation import gettext

from games import rules

#: The languages the site speaks (a rules document may exist in each).
LANGUAGES = ("en", "de", "es")


class Speaker:
    """The engine's ``translate`` on the Django side: ``gettext`` in the active
    language, and its numbers as that language writes them (:meth:`number`, which
    :func:`games.i18n.say_number` uses: "100,000", "100.000")."""

    def __call__(self, message: str) -> str:
        return gettext(message)

    @staticmethod
    def number(value: int) -> str:
        return str(formats.number_format(int(value), force_grouping=True))


#: Pass as ``translate`` to the engine: its words and numbers in the active language.
speak = Speaker()


def language() -> str:
    """The active language as "en", "de" or "es" ("de-at" is "de"; anything else,
    or none, is "en")."""
    active = (translation.get_language() or "en").lower().split("-")[0].split("_")[0]
    return active if active in LANGUAGES else "en"


def rules_for(slug: str, options: Mapping[str, Any] | None = None) -> rules.Rules:
    """The rules of ``slug`` in the active language (English where not translated)."""
    lang = language()
    with translation.override(lang):
        return rules.rules_for(slug, options, language=lang, translate=speak)


def all_rules() -> list[rules.Rules]:
    """Every game's rules in the active language."""
    lang = language()
    with translation.override(lang):
        return rules.all_rules(language=lang, translate=speak)
