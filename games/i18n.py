"""Marking the engine's user-visible text for translation, without Django.

:func:`gettext_noop` returns its message unchanged; it only tells ``xgettext`` (Django's
``makemessages``) to put the message in the catalogs. The Django side translates the
text where it shows it (``gettext(value)``)."""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """``message`` unchanged: marks it for the translation catalogs."""
    return message


def identity(message: str) -> str:
    """The "translate" that keeps English: the default of every ``translate=``."""
    return message
