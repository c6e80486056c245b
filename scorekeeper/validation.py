"""Checks of untrusted values that every edge shares (API serializers, services, forms),
so a bad id, name or key is refused the same way everywhere: a :class:`RuleError`
naming the field (a 400, or a form message), never a database error (a 500).

* Ids are whole numbers in the 64-bit id columns, typed as an int or as ASCII digits.
  Python's ``int()`` also reads "٣" and other Unicode digits, and a number beyond 64
  bits overflows SQLite and PostgreSQL rather than just matching nothing.
* Text never holds NUL (PostgreSQL refuses it in text columns) or lone surrogates (not
  encodable as UTF-8).
* Names are normalised (NFC, runs of spaces made one) and must show something: names of
  only invisible characters, and names with text-direction controls (U+202E turns
  "Ana" + "gnp.exe" around) or other invisible format characters, are refused.
"""

from __future__ import annotations

import unicodedata

from django.core.validators import RegexValidator
from django.utils.translation import gettext as _

from games import RuleError
from games.base import whole_number

#: The largest id the (64-bit) id columns hold.
MAX_ID = 2**63 - 1

#: Characters that change the direction of the text around them.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
#: Format characters a name may hold: zero-width (non-)joiners shape emoji sequences and
#: Indic or Persian words; tag characters spell the subdivision flags (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
ALLOWED_FORMAT = frozenset("\u200c\u200d") | frozenset(map(chr, range(0xE0020, 0xE0080)))
#: Letters (by Unicode category) that render as nothing.
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Categories of characters that show nothing on their own.
_INVISIBLE_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Mn", "Me"})


def parse_id(value: object, field: str, what: str = "player") -> int:
    """An id from an API body, a form or a query: an int, or ASCII digits."""
    number = whole_number(value)
    if number is None:
        raise RuleError(
            _("%(value)s is not a %(what)s id") % {"value": _shown(value), "what": what}, field
        )
    if not 1 <= number <= MAX_ID:
        raise RuleError(
            _("%(what)s %(number)s does not exist") % {"what": what, "number": number}, field
        )
    return number


def optional_id(value: object) -> int | None:
    """An id from a page's query string or form, or None when it is missing or not an
    id (a page then shows its default rather than an error)."""
    try:
        return parse_id(value, "id")
    except RuleError:
        return None


#: No list has this many pages; a bigger ``?page=`` would overflow the query's OFFSET.
MAX_PAGE = 2**31


def page_number(value: object) -> int:
    """A page's ``?page=``: from 1 (garbage means the first page), at most
    :data:`MAX_PAGE` (a page past the end is simply empty)."""
    text = value.strip() if isinstance(value, str) else ""
    if text.isascii() and text.isdigit() and len(text) > len(str(MAX_PAGE)):
        return MAX_PAGE
    number = whole_number(value)
    if number is None or number < 1:
        return 1
    return min(number, MAX_PAGE)


def check_text(value: str, field: str) -> str:
    """Refuse text a database cannot store: NUL and lone surrogates."""
    if "\x00" in value:
        raise RuleError(_("NUL characters are not allowed"), field)
    if any("\ud800" <= ch <= "\udfff" for ch in value):
        raise RuleError(_("lone surrogate characters are not allowed (not valid Unicode)"), field)
    return value


def clean_name(value: object, field: str = "name", limit: int = 60) -> str:
    """A player's or a league's name: NFC, single spaces, something visible, no
    control, text-direction or other invisible format characters."""
    if not isinstance(value, str):
        raise RuleError(_("a name is required"), field)
    check_text(value, field)
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not name:
        raise RuleError(_("a name is required"), field)
    if "\ufffd" in name:
        # What a browser's broken text (or a lone surrogate sent as UTF-8) turns into.
        raise RuleError(_("a name cannot hold U+FFFD, the sign of text that was not UTF-8"), field)
    for ch in name:
        category = unicodedata.category(ch)
        if ch in BIDI_CONTROLS:
            raise RuleError(
                _("a name cannot hold text-direction controls (U+%(code)s)")
                % {"code": f"{ord(ch):04X}"},
                field,
            )
        if category == "Cc" or (category == "Cf" and ch not in ALLOWED_FORMAT):
            raise RuleError(
                _("a name cannot hold invisible characters (U+%(code)s)")
                % {"code": f"{ord(ch):04X}"},
                field,
            )
    if not any(_visible(ch) for ch in name):
        raise RuleError(_("a name needs at least one visible character"), field)
    if len(name) > limit:
        raise RuleError(_("a name can have at most %(limit)s characters") % {"limit": limit}, field)
    return name


def _visible(ch: str) -> bool:
    return unicodedata.category(ch) not in _INVISIBLE_CATEGORIES and ch not in BLANK_LETTERS


def _shown(value: object) -> str:
    """A refused value in a message: quoted, and short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


#: The most hands a game holds (api.md "Limits"): a longer sheet is abuse, not a game
#: night. Recording the next one answers 409; an import with more is refused.
MAX_HANDS = 1000


#: An ``Idempotency-Key``: 1 to 255 printable ASCII characters (a UUID fits well).
IDEMPOTENCY_KEY_MAX = 255
#: The one check of a key, the API's header and the sheet's form field alike.
validate_idempotency_key = RegexValidator(
    rf"\A[ -~]{{1,{IDEMPOTENCY_KEY_MAX}}}\Z",
    f"give from 1 to {IDEMPOTENCY_KEY_MAX} printable ASCII characters (a UUID works well)",
)
