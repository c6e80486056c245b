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


class Count(int):
    """A whole number in a message, said grouped in thousands the English way
    (``str(Count(100000))`` is "100,000"); :func:`say_number` says it the reader's way.

    >>> "at most %(most)s" % {"most": Count(100000)}
    'at most 100,000'
    """

    def __str__(self) -> str:
        return f"{int(self):,}"


def say_number(translate: object, value: int) -> str:
    """``value`` as the language of ``translate`` writes it: a translate that knows
    (the Django side's, with a ``number`` method) groups it as its language does
    ("100.000" in German); any other, as :class:`Count` does.

    >>> say_number(identity, 2500)
    '2,500'
    """
    number = getattr(translate, "number", None)
    return str(number(value)) if callable(number) else str(Count(value))


def say_choice(translate: object, value: object, option: str = "") -> str:
    """A house rule's choice (``"until-playable"`` of the option ``"stuck_draw"``) as
    the reader's language names it: a translate that knows (the Django side's, with a
    ``choice`` method, the words the game's new-game form uses) names it so; any other
    gives the value as it is.

    >>> say_choice(identity, "until-playable", "stuck_draw")
    'until-playable'
    """
    choice = getattr(translate, "choice", None)
    return str(choice(value, option)) if callable(choice) else str(value)


def capital(text: str) -> str:
    """``text`` with its first letter a capital and the rest as it is ("ein Ass" ->
    "Ein Ass"; ``str.capitalize`` would lower the rest).

    >>> capital("ein Ass")
    'Ein Ass'
    """
    return text[:1].upper() + text[1:]
