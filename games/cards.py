"""Card codes and decks shared by the games.

French-suited cards are written rank then suit: ``AS``, ``10H``, ``QD``; ``T`` stands for
ten, the suit symbols ``♠ ♥ ♦ ♣`` stand for ``S H D C``, and ``JK`` is a joker.
UNO cards are colour then value: ``G7``, ``BS`` (skip), ``RR`` (reverse), ``Y+2``
(draw two), and the wilds ``W`` and ``W+4``. Parsing ignores case and spaces.

Where suits (or UNO colours) score nothing, a game may also take a card by its rank (or
value) alone, when nobody noted the suit: ``parse_french(code, suit_optional=True)``
reads ``4``, ``10``, ``T`` or ``K`` as a card with no suit, and
``parse_uno(code, colour_optional=True)`` reads ``7``, ``S``, ``R`` or ``+2`` as a card
with no colour (a bare ``R`` is a Reverse; ``RR`` is the red one, ``R7`` the red 7).
Such a card's code is just the rank or value, and :func:`check_copies` counts it against
every copy of its rank in the deck.

    >>> parse_french("t♥").code
    '10H'
    >>> parse_uno("y+2").points_key
    'draw'
    >>> parse_french("t", suit_optional=True).code
    '10'
    >>> parse_uno("+2", colour_optional=True).label
    'Draw Two (any colour)'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache

from games.errors import CardError, Words
from games.i18n import gettext_noop

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_NAMES: Mapping[str, str] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS: Mapping[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES: Mapping[str, str] = {
    "A": "Ace",
    "J": "Jack",
    "Q": "Queen",
    "K": "King",
    "JK": "Joker",
    **{r: r for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10")},
}
JOKER = "JK"

_SYMBOL_TO_SUIT = {
    "♠": "S",
    "♤": "S",
    "♥": "H",
    "♡": "H",
    "♦": "D",
    "♢": "D",
    "♣": "C",
    "♧": "C",
}
_JOKER_SPELLINGS = {"JK", "JOKER", "JKR", "🃏"}


@dataclass(frozen=True)
class FrenchCard:
    """A card of a French-suited deck. A joker has rank ``"JK"`` and no suit; a card
    entered by its rank alone (see :func:`parse_french`) has a rank and no suit either."""

    rank: str
    suit: str | None

    @cached_property
    def code(self) -> str:
        return JOKER if self.is_joker else f"{self.rank}{self.suit or ''}"

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def rank_only(self) -> bool:
        """True for a card whose suit was not given (never for a joker, which has none)."""
        return self.suit is None and not self.is_joker

    @property
    def label(self) -> str:
        if self.is_joker:
            return "Joker"
        if self.suit is None:
            return self.rank
        return f"{self.rank}{SUIT_SYMBOLS[self.suit]}"

    def __str__(self) -> str:
        return self.code


def parse_french(code: object, *, suit_optional: bool = False) -> FrenchCard:
    """Parse one French-suited card code, forgivingly; :class:`CardError` names a bad one.

    With ``suit_optional`` a rank alone (``"4"``, ``"10"``, ``"T"``, ``"k"``) is a card
    whose suit was not given, for games where suits score nothing.
    """
    if not isinstance(code, str):
        raise CardError(
            Words.of(
                gettext_noop("%(code)s is not a card code (expected text such as 'AS' or '10H')"),
                code=repr(code),
            )
        )
    # Cards are immutable and a sheet repeats the same few codes: parse each once.
    return _parse_french(code, suit_optional)


@lru_cache(maxsize=4096)
def _parse_french(code: str, suit_optional: bool) -> FrenchCard:
    text = "".join(code.split()).upper()
    for symbol, suit in _SYMBOL_TO_SUIT.items():
        text = text.replace(symbol, suit)
    if text in _JOKER_SPELLINGS:
        return FrenchCard(JOKER, None)
    if suit_optional:
        alone = "10" if text == "T" else text
        if alone in RANKS:
            return FrenchCard(alone, None)
    if len(text) < 2:
        if suit_optional:
            message = gettext_noop(
                "'%(code)s' is not a card: write rank then suit, such as 'AS' or '10H', "
                "or the rank alone such as '4'"
            )
        else:
            message = gettext_noop(
                "'%(code)s' is not a card: write rank then suit, such as 'AS' or '10H'"
            )
        raise CardError(Words.of(message, code=code))
    rank, suit = text[:-1], text[-1]
    if rank == "T":
        rank = "10"
    if suit not in SUITS:
        # Accept the suit first too ("H10", "♥Q"): people type what they see.
        rank, suit = text[1:], text[0]
        if rank == "T":
            rank = "10"
        if suit not in SUITS or rank not in RANKS:
            raise CardError(
                Words.of(
                    gettext_noop(
                        "'%(code)s' is not a card: the suit must be S, H, D or C (or ♠ ♥ ♦ ♣)"
                    ),
                    code=code,
                )
            )
    if rank not in RANKS:
        raise CardError(
            Words.of(
                gettext_noop(
                    "'%(code)s' is not a card: '%(rank)s' is not a rank (A 2–10 J Q K, or JK)"
                ),
                code=code,
                rank=rank,
            )
        )
    return FrenchCard(rank, suit)


def french_rank(code: str) -> str:
    """The rank of a French card code, suited or not (``"10H"`` and ``"10"`` give
    ``"10"``; a joker gives ``"JK"``): the ``rank_of`` of :func:`check_copies`."""
    return _parse_french(code, True).rank


def french_deck(
    decks: int = 1, *, jokers_per_deck: int = 2, ranks: Iterable[str] = RANKS
) -> Counter[str]:
    """How many copies of each card code ``decks`` shuffled-together decks hold."""
    deck: Counter[str] = Counter()
    for rank in ranks:
        for suit in SUITS:
            deck[f"{rank}{suit}"] = decks
    if jokers_per_deck:
        deck[JOKER] = decks * jokers_per_deck
    return deck


UNO_COLOURS: tuple[str, ...] = ("R", "Y", "G", "B")
UNO_COLOUR_NAMES: Mapping[str, str] = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
UNO_ACTIONS: tuple[str, ...] = ("S", "R", "+2")
UNO_ACTION_NAMES: Mapping[str, str] = {"S": "Skip", "R": "Reverse", "+2": "Draw Two"}
UNO_WILDS: tuple[str, ...] = ("W", "W+4")
_UNO_VALUE_ALIASES = {
    "SKIP": "S",
    "REVERSE": "R",
    "REV": "R",
    "D2": "+2",
    "DRAW2": "+2",
    "DT": "+2",
}
_UNO_WILD_ALIASES = {
    "W": "W",
    "WILD": "W",
    "W+4": "W+4",
    "WD4": "W+4",
    "+4": "W+4",
    "WILD+4": "W+4",
    "W4": "W+4",
}


@dataclass(frozen=True)
class UnoCard:
    """A card of the 108-card UNO deck. Wilds (``W``, ``W+4``) have no colour; a number
    or action entered without its colour (see :func:`parse_uno`) has none either, and is
    not wild."""

    colour: str | None
    value: str

    @cached_property
    def code(self) -> str:
        return self.value if self.colour is None else f"{self.colour}{self.value}"

    @property
    def is_wild(self) -> bool:
        return self.value in UNO_WILDS

    @property
    def value_only(self) -> bool:
        """True for a number or action card whose colour was not given."""
        return self.colour is None and not self.is_wild

    @property
    def points_key(self) -> str:
        """The row of a points table this card falls in: a digit, ``draw``, ``action`` or a wild."""
        if self.is_wild:
            return self.value
        if self.value == "+2":
            return "draw"
        if self.value in ("S", "R"):
            return "action"
        return self.value

    @property
    def label(self) -> str:
        if self.value == "W":
            return "Wild"
        if self.value == "W+4":
            return "Wild Draw Four"
        name = UNO_ACTION_NAMES.get(self.value, self.value)
        if self.colour is None:
            return f"{name} (any colour)"
        return f"{UNO_COLOUR_NAMES[self.colour].capitalize()} {name}"

    def __str__(self) -> str:
        return self.code


def _uno_value(text: str) -> str | None:
    """The value a text names (``"7"``, ``"SKIP"`` → ``"S"``), or None."""
    value = _UNO_VALUE_ALIASES.get(text, text)
    if value in UNO_ACTIONS or (len(value) == 1 and value.isascii() and value.isdigit()):
        return value
    return None


def parse_uno(code: object, *, colour_optional: bool = False) -> UnoCard:
    """Parse one UNO card code, forgivingly; :class:`CardError` names a bad one.

    With ``colour_optional`` a value alone (``"7"``, ``"S"``, ``"R"``, ``"+2"``) is a card
    whose colour was not given, for games where colours score nothing. A bare ``R`` is
    then a Reverse: the red cards are ``RR`` (Reverse), ``R7`` and so on.
    """
    if not isinstance(code, str):
        raise CardError(
            Words.of(
                gettext_noop("%(code)s is not a card code (expected text such as 'G7' or 'W+4')"),
                code=repr(code),
            )
        )
    return _parse_uno(code, colour_optional)


@lru_cache(maxsize=4096)
def _parse_uno(code: str, colour_optional: bool) -> UnoCard:
    text = "".join(code.split()).upper()
    if text in _UNO_WILD_ALIASES:
        return UnoCard(None, _UNO_WILD_ALIASES[text])
    if colour_optional:
        alone = _uno_value(text)
        if alone is not None:
            return UnoCard(None, alone)
    if len(text) < 2 or text[0] not in UNO_COLOURS:
        if colour_optional:
            message = gettext_noop(
                "'%(code)s' is not an UNO card: write colour (R, Y, G, B) then value, "
                "such as 'G7', 'BS' or 'Y+2', a value alone such as '7' or 'S', "
                "or a wild 'W' / 'W+4'"
            )
        else:
            message = gettext_noop(
                "'%(code)s' is not an UNO card: write colour (R, Y, G, B) then value, "
                "such as 'G7', 'BS' or 'Y+2', or a wild 'W' / 'W+4'"
            )
        raise CardError(Words.of(message, code=code))
    colour, value = text[0], _uno_value(text[1:])
    if value is None:
        raise CardError(
            Words.of(
                gettext_noop(
                    "'%(code)s' is not an UNO card: '%(value)s' is not a value (0–9, S, R, +2)"
                ),
                code=code,
                value=text[1:],
            )
        )
    return UnoCard(colour, value)


def uno_value(code: str) -> str:
    """The value of an UNO card code, coloured or not (``"G7"`` and ``"7"`` give ``"7"``;
    wilds give ``"W"`` / ``"W+4"``): the ``rank_of`` of :func:`check_copies`."""
    return _parse_uno(code, True).value


def uno_deck() -> Counter[str]:
    """The 108-card UNO deck: per colour one 0, two each of 1–9, Skip, Reverse and
    Draw Two; plus four Wild and four Wild Draw Four."""
    deck: Counter[str] = Counter()
    for colour in UNO_COLOURS:
        deck[f"{colour}0"] = 1
        for value in (*"123456789", *UNO_ACTIONS):
            deck[f"{colour}{value}"] = 2
    deck["W"] = 4
    deck["W+4"] = 4
    return deck


#: What a rank (or UNO value) is called in the plural, for messages.
_PLURALS: Mapping[str, str] = {
    "A": gettext_noop("aces"),
    "J": gettext_noop("jacks"),
    "Q": gettext_noop("queens"),
    "K": gettext_noop("kings"),
    "0": gettext_noop("zeros"),
    "1": gettext_noop("ones"),
    "2": gettext_noop("twos"),
    "3": gettext_noop("threes"),
    "4": gettext_noop("fours"),
    "5": gettext_noop("fives"),
    "6": gettext_noop("sixes"),
    "7": gettext_noop("sevens"),
    "8": gettext_noop("eights"),
    "9": gettext_noop("nines"),
    "10": gettext_noop("tens"),
    "S": gettext_noop("Skips"),
    "R": gettext_noop("Reverses"),
    "+2": gettext_noop("Draw Twos"),
}
CARDS_OF_RANK = gettext_noop("cards of rank %(rank)s")

#: "A card entered too often", by (the deck's name is plural, only one copy held).
TOO_MANY_COPIES: Mapping[tuple[bool, bool], str] = {
    (False, True): gettext_noop(
        "%(code)s is entered %(count)s times, but %(deck)s holds only %(held)s copy"
    ),
    (False, False): gettext_noop(
        "%(code)s is entered %(count)s times, but %(deck)s holds only %(held)s copies"
    ),
    (True, True): gettext_noop(
        "%(code)s is entered %(count)s times, but %(deck)s hold only %(held)s copy"
    ),
    (True, False): gettext_noop(
        "%(code)s is entered %(count)s times, but %(deck)s hold only %(held)s copies"
    ),
}
#: "A rank entered too often", by (the deck's name is plural, the codes are listed).
TOO_MANY_OF_RANK: Mapping[tuple[bool, bool], str] = {
    (False, False): gettext_noop(
        "%(rank)s is entered %(total)s times, but %(deck)s holds only %(held)s %(plural)s"
    ),
    (False, True): gettext_noop(
        "%(rank)s is entered %(total)s times (%(parts)s), but %(deck)s holds only "
        "%(held)s %(plural)s"
    ),
    (True, False): gettext_noop(
        "%(rank)s is entered %(total)s times, but %(deck)s hold only %(held)s %(plural)s"
    ),
    (True, True): gettext_noop(
        "%(rank)s is entered %(total)s times (%(parts)s), but %(deck)s hold only "
        "%(held)s %(plural)s"
    ),
}
THE_DECK = gettext_noop("the deck")
NOT_IN_DECK = gettext_noop("%(code)s is not in %(deck)s")


def _plural_deck(deck_name: str | Words) -> bool:
    """Whether the deck's (English) name is a plural ("2 decks with jokers")."""
    return "decks" in str(deck_name).split()


#: Copies of each rank per deck (and ``rank_of``), kept with the deck they count so an
#: id is never mistaken for another deck's: a game checks every hand against one deck.
_RANK_COPIES: dict[tuple[int, Callable[[str], str]], tuple[Mapping[str, int], Counter[str]]] = {}


def _rank_copies(deck: Mapping[str, int], rank_of: Callable[[str], str]) -> Counter[str]:
    key = (id(deck), rank_of)
    cached = _RANK_COPIES.get(key)
    if cached is not None and cached[0] is deck and sum(cached[1].values()) == sum(deck.values()):
        return cached[1]
    copies: Counter[str] = Counter()
    for code, held in deck.items():
        copies[rank_of(code)] += held
    if len(_RANK_COPIES) >= 64:
        _RANK_COPIES.clear()
    _RANK_COPIES[key] = (deck, copies)
    return copies


def check_copies(
    codes: Iterable[str],
    deck: Mapping[str, int],
    *,
    field: str = "results",
    deck_name: str | Words = THE_DECK,
    rank_of: Callable[[str], str] | None = None,
) -> None:
    """Raise :class:`CardError` if ``codes`` hold a card more often than ``deck`` does.

    Without ``rank_of`` every code must be a card of ``deck``. With it (a function giving
    the rank of a code, such as :func:`french_rank` or :func:`uno_value`), a code may also
    be a rank alone, a card whose suit or colour was not given: then the cards of a rank,
    with and without suit, may not outnumber that rank's copies in ``deck`` either.

        >>> check_copies(["4", "4H", "4"], french_deck(1), rank_of=french_rank)
        >>> check_copies(["4", "4H", "4", "4S", "4"], french_deck(1), rank_of=french_rank)
        Traceback (most recent call last):
        ...
        games.errors.CardError: 4 is entered 5 times (4 ×3, 4H, 4S), but the deck holds only 4 fours
    """
    counts = Counter(codes)
    deck_words = Words.of(deck_name)
    plural_deck = _plural_deck(deck_name)
    alone = False  # a code that is not a card of the deck: a rank alone, or no card
    for code, count in counts.items():
        held = deck.get(code)
        if held is None:
            alone = True
        elif count > held:
            raise CardError(
                Words.of(
                    TOO_MANY_COPIES[plural_deck, held == 1],
                    code=code,
                    count=count,
                    deck=deck_words,
                    held=held,
                ),
                field=field,
            )
    if not alone:
        return
    # Only now count the deck by rank (most hands name every card in full).
    rank_copies = _rank_copies(deck, rank_of) if rank_of is not None else Counter()
    for code in counts:
        if code not in deck and code not in rank_copies:
            raise CardError(Words.of(NOT_IN_DECK, code=code, deck=deck_words), field=field)
    assert rank_of is not None
    # Cards of each rank, by code in the order entered.
    by_rank: dict[str, Counter[str]] = {}
    for code, count in counts.items():
        by_rank.setdefault(code if code not in deck else rank_of(code), Counter())[code] = count
    for rank, entered in by_rank.items():
        if rank in deck or rank not in entered:
            continue  # no card of this rank without its suit: checked above
        total, held = sum(entered.values()), rank_copies[rank]
        if total > held:
            named = _PLURALS.get(rank)
            plural = Words.of(named) if named else Words.of(CARDS_OF_RANK, rank=rank)
            parts = ", ".join(
                code if count == 1 else f"{code} ×{count}" for code, count in entered.items()
            )
            raise CardError(
                Words.of(
                    TOO_MANY_OF_RANK[plural_deck, len(entered) > 1],
                    rank=rank,
                    total=total,
                    parts=parts,
                    deck=deck_words,
                    held=held,
                    plural=plural,
                ),
                field=field,
            )
