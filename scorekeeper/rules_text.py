"""The rules in the reader's language: :mod:`games.rules` (which knows no Django) asked
for the active language's documents, the parts the engine fills in said by ``gettext``.
Every page and answer that shows rules text asks here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils import translation

from games import rules


def language() -> str:
    """The active language, as one of ``LANGUAGES`` (English outside a request)."""
    code = translation.get_language() or settings.LANGUAGE_CODE
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return str(settings.LANGUAGE_CODE)


def rules_for(slug: str, options: Mapping[str, Any] | None = None) -> rules.Rules:
    """The rules of ``slug`` in the reader's language (kept per language)."""
    return rules.rules_for(slug, options, language=language(), translate=translation.gettext)


def all_rules() -> list[rules.Rules]:
    return rules.all_rules(language=language(), translate=translation.gettext)
