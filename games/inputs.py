"""Reading what a table typed: whole numbers (ASCII digits only, 64-bit at most),
counts that cannot be negative, and player ids of this game. Each refusal is a
:class:`~games.errors.RuleError` naming the field and, where known, the player."""

from __future__ import annotations

from collections.abc import Collection

from games.errors import RuleError, Words, mention
from games.i18n import Count
from games.i18n import gettext_noop as _

#: The most digits a whole number typed as text may have: 64-bit numbers have 19, and
#: ``int()`` of a longer string costs time for nothing.
MAX_DIGITS = 19


def whole_number(value: object) -> int | None:
    """``value`` as a whole number: an int (not a bool), or text of ASCII digits with an
    optional leading minus sign and surrounding spaces. ``None`` for anything else,
    ``int()``'s other digits ("²", "٣") and over-long digit strings included."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if not isinstance(value, str):
        return None
    text = value.strip()
    digits = text[1:] if text.startswith("-") else text
    if not digits or len(digits) > MAX_DIGITS or not (digits.isascii() and digits.isdigit()):
        return None
    return int(text)


def as_player_id(value: object, players: Collection[int], field_name: str) -> int:
    """Check that ``value`` is the id of one of ``players`` (this game's)."""
    number = whole_number(value)
    if number is None:
        raise RuleError(Words.of(_("%(typed)s is not a player id"), typed=repr(value)), field_name)
    if number not in players:
        raise RuleError(
            Words.of(_("%(player)s is not in this game"), player=mention(number)), field_name
        )
    return number


def as_count(
    value: object,
    field_name: str,
    what: str,
    *,
    maximum: int | None = None,
    player: int | None = None,
) -> int:
    """A whole number that cannot be negative. ``what`` names it in words; a refusal
    says whose it is first, when it is a ``player``'s ("player 3: the passes …")."""
    if type(value) is int and value >= 0 and (maximum is None or value <= maximum):
        return value  # the common case, as a phone sends it
    # "what" is a marked word of the caller's (said in the page's language too).
    said = (
        Words.of(what)
        if player is None
        else Words.of(_("%(player)s: %(what)s"), player=mention(player), what=Words.of(what))
    )

    def refuse(template: str, **params: object) -> RuleError:
        return RuleError(Words.of(template, said=said, **params), field_name, player)

    if isinstance(value, bool) or not isinstance(value, int | str):
        raise refuse(_("%(said)s must be a whole number"))
    number = whole_number(value)
    if number is None:
        raise refuse(_("%(said)s must be a whole number (got %(typed)s)"), typed=repr(value))
    if number < 0:
        raise refuse(_("%(said)s cannot be negative"))
    if maximum is not None and number > maximum:
        raise refuse(_("%(said)s cannot be more than %(most)s"), most=Count(maximum))
    return number
