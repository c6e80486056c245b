"""Card codes and decks shared by the games.

French-suited cards are written rank then suit: ``AS``, ``10H``, ``QD``; ``T`` stands for
ten, the suit symbols ``♠ ♥ ♦ ♣`` stand for ``S H D C``, and ``JK`` is a joker.
UNO cards are colour then value: ``G7``, ``BS`` (skip), ``RR`` (reverse), ``Y+2``
(draw two), and the wilds ``W`` and ``W+4``. Parsing ignores case and spaces.

    >>> parse_french("t♥").code
    '10H'
    >>> parse_uno("y+2").points_key
    'draw'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from games.base import CardError

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


@dataclass(frozen=True, order=True)
class FrenchCard:
    """A card of a French-suited deck; a joker has rank ``"JK"`` and no suit."""

    rank: str
    suit: str | None

    @property
    def code(self) -> str:
        return JOKER if self.is_joker else f"{self.rank}{self.suit}"

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def label(self) -> str:
        if self.is_joker:
            return "Joker"
        assert self.suit is not None
        return f"{self.rank}{SUIT_SYMBOLS[self.suit]}"

    def __str__(self) -> str:
        return self.code


def parse_french(code: object) -> FrenchCard:
    """Parse one French-suited card code, forgivingly; :class:`CardError` names a bad one."""
    if not isinstance(code, str):
        raise CardError(f"{code!r} is not a card code (expected text such as 'AS' or '10H')")
    text = "".join(code.split()).upper()
    for symbol, suit in _SYMBOL_TO_SUIT.items():
        text = text.replace(symbol, suit)
    if text in _JOKER_SPELLINGS:
        return FrenchCard(JOKER, None)
    if len(text) < 2:
        raise CardError(f"'{code}' is not a card: write rank then suit, such as 'AS' or '10H'")
    rank, suit = text[:-1], text[-1]
    if rank == "T":
        rank = "10"
    if suit not in SUITS:
        # Accept the suit first too ("H10", "♥Q"): people type what they see.
        rank, suit = text[1:], text[0]
        if rank == "T":
            rank = "10"
        if suit not in SUITS or rank not in RANKS:
            raise CardError(f"'{code}' is not a card: the suit must be S, H, D or C (or ♠ ♥ ♦ ♣)")
    if rank not in RANKS:
        raise CardError(f"'{code}' is not a card: '{rank}' is not a rank (A 2–10 J Q K, or JK)")
    return FrenchCard(rank, suit)


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


@dataclass(frozen=True, order=True)
class UnoCard:
    """A card of the 108-card UNO deck; wilds have no colour."""

    colour: str | None
    value: str

    @property
    def code(self) -> str:
        return self.value if self.colour is None else f"{self.colour}{self.value}"

    @property
    def is_wild(self) -> bool:
        return self.colour is None

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
        assert self.colour is not None
        name = UNO_ACTION_NAMES.get(self.value, self.value)
        return f"{UNO_COLOUR_NAMES[self.colour].capitalize()} {name}"

    def __str__(self) -> str:
        return self.code


def parse_uno(code: object) -> UnoCard:
    """Parse one UNO card code, forgivingly; :class:`CardError` names a bad one."""
    if not isinstance(code, str):
        raise CardError(f"{code!r} is not a card code (expected text such as 'G7' or 'W+4')")
    text = "".join(code.split()).upper()
    if text in _UNO_WILD_ALIASES:
        return UnoCard(None, _UNO_WILD_ALIASES[text])
    if len(text) < 2 or text[0] not in UNO_COLOURS:
        raise CardError(
            f"'{code}' is not an UNO card: write colour (R, Y, G, B) then value, "
            "such as 'G7', 'BS' or 'Y+2', or a wild 'W' / 'W+4'"
        )
    colour, value = text[0], text[1:]
    value = _UNO_VALUE_ALIASES.get(value, value)
    if not (value in UNO_ACTIONS or (len(value) == 1 and value.isdigit())):
        raise CardError(f"'{code}' is not an UNO card: '{value}' is not a value (0–9, S, R, +2)")
    return UnoCard(colour, value)


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


def check_copies(
    codes: Iterable[str],
    deck: Mapping[str, int],
    *,
    field: str = "results",
    deck_name: str = "the deck",
) -> None:
    """Raise :class:`CardError` if ``codes`` hold a card more often than ``deck`` does."""
    counts = Counter(codes)
    for code, count in counts.items():
        held = deck.get(code, 0)
        if held == 0:
            raise CardError(f"{code} is not in {deck_name}", field=field)
        if count > held:
            copies = "copy" if held == 1 else "copies"
            raise CardError(
                f"{code} is entered {count} times, but {deck_name} holds only {held} {copies}",
                field=field,
            )
