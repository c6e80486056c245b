"""The words of the rules search: tokens, a light suffix stemmer, stop words, number
words and the words players actually use for the same thing.

    >>> terms("Drawing fives")
    ['draw', '5']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

# -- words: tokens, stems, the words players use -----------------------------------------

#: Ignored in queries and text.
_STOPWORD_TEXT = (
    "a an the and or of to in on at by for with from into onto as is are be been "
    "being was were it its this that these those if then than so but not no nor you "
    "your yours yourself they them their theirs he she him his her hers we us our i "
    "me my do does did doing have has had having can could may might shall should "
    "will would what which who whom whose how when where why there here s t re ll ve "
    "d m don doesn didn isn aren also just very too some such happen happens happened "
    "about get gets got rule rules "
)
STOPWORDS: frozenset[str] = frozenset(_STOPWORD_TEXT.split())

#: Irregular word forms, mapped to a form the stemmer treats like the regular ones.
IRREGULAR: dict[str, str] = {
    "drew": "draw",
    "drawn": "draw",
    "dealt": "deal",
    "won": "win",
    "went": "go",
    "gone": "go",
    "going": "go",
    "goes": "go",
    "paid": "pay",
    "held": "hold",
    "tied": "tie",
    "led": "lead",
    "laid": "lay",
    "chose": "choose",
    "chosen": "choose",
    "took": "take",
    "taken": "take",
    "gave": "give",
    "given": "give",
    "lost": "lose",
    "caught": "catch",
    "threw": "throw",
    "thrown": "throw",
    "use": "use",
    "uses": "use",
    "used": "use",
    "using": "use",
    "shown": "show",
    "began": "begin",
    "begun": "begin",
}
#: Spelling variants, applied to stems.
SPELLING: dict[str, str] = {
    "color": "colour",
    "neighbor": "neighbour",
    "favor": "favour",
    "jocker": "joker",
}
#: Number words become digits, so "draw five" finds "draw 5".
NUMBER_WORDS: dict[str, str] = {
    "zero": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "twenty": "20",
    "fifty": "50",
}
#: Single letters that name cards ("J♦").
LETTERS: dict[str, str] = {"j": "jack", "q": "queen", "k": "king"}
#: Suit symbols as words.
SYMBOLS: dict[str, str] = {"♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs"}

#: Words players use for the same thing. A query containing one phrase of a group also
#: looks for the others (at a lower weight), so "miss a turn" finds "skip".
SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("draw", "pick up"),
    ("skip", "miss a turn", "lose a turn", "lose your turn"),
    ("reverse", "change direction", "switch direction", "flip direction"),
    ("bower", "trump", "left bower", "right bower"),
    ("ante", "pay in", "buy in", "extra chip"),
    ("pot", "kitty", "pool"),
    ("chips", "coins", "tokens", "counters"),
    ("knock", "last card", "uno", "one card left"),
    ("score", "points", "count", "tally"),
    ("go out", "going out", "empty hand", "out of cards"),
    ("trade hands", "swap hands", "switch hands", "exchange hands"),
    ("team", "partner"),
    ("win", "winner"),
    ("widow", "no chips", "out of chips", "broke", "on the house"),
    ("first card", "upcard", "turn up", "starter"),
    ("stock", "draw pile"),
    ("discard", "throw off"),
    ("negotiate", "negotiation", "bargain", "alliance"),
    ("bomb", "pair of sevens"),
    ("wild", "wild card", "any card", "call a suit", "name a suit"),
)

#: Names of the games as players type them; a query naming a game favours its rules.
GAME_NAMES: dict[str, tuple[str, ...]] = {
    "dirt": ("dirt on your neighbor", "dirt on your neighbour"),
    "screw-your-neighbour": ("screw your neighbour", "screw your neighbor"),
    "damn-you": ("damn you", "d$%n you", "fan tan"),
    "dirty-uno": ("dirty uno",),
    "dirty-deals": ("dirty deals",),
}

#: Offered when a search finds nothing.
TOPICS: tuple[str, ...] = ("scoring", "special cards", "the deal")

_TOKEN_RE = re.compile(r"\+[0-9]+|[a-z0-9]+|[♠♥♦♣]")
_DIGITS_S_RE = re.compile(r"^([0-9]+)s$")


def _strip_suffixes(word: str) -> str:
    if len(word) <= 3 or word.isdigit():
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif (
        word.endswith("es") and len(word) > 4 and (word[-3] in "sxz" or word[-4:-2] in ("ch", "sh"))
    ):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word.endswith("ing") and len(word) > 5:
        word = word[:-3]
    elif word.endswith("ed") and len(word) > 4:
        word = word[:-2]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
        word = word[:-1]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


def stem(word: str) -> str:
    """The search stem of a lower-case word: ``"antes"``, ``"anteing"`` and ``"ante"``
    share one, as do ``"reversed"`` and ``"reverse"``.

        >>> stem("anteing") == stem("antes") == stem("ante")
        True
        >>> stem("drawing"), stem("drawn"), stem("skipped")
        ('draw', 'draw', 'skip')
    """
    word = IRREGULAR.get(word, word)
    stemmed = _strip_suffixes(word)
    return SPELLING.get(stemmed, stemmed)


_NUMBER_STEMS = {stem(w): d for w, d in NUMBER_WORDS.items()}


def _fold(text: str) -> str:
    # "D$%n" has no letters to match; fold it into the word it stands for, keeping the
    # length so that offsets into the original text stay valid.
    return text.lower().replace("d$%n", "damn")


@dataclass(frozen=True)
class Token:
    start: int
    end: int
    terms: tuple[str, ...]


def _terms(raw: str) -> tuple[str, ...]:
    if raw in SYMBOLS:
        return (stem(SYMBOLS[raw]),)
    if raw.startswith("+"):
        return ("draw", raw[1:])
    digits = _DIGITS_S_RE.match(raw)
    if digits:
        return (digits[1],)
    if raw in STOPWORDS:
        return ()
    if len(raw) == 1 and not raw.isdigit():
        return (LETTERS[raw],) if raw in LETTERS else ()
    term = stem(raw)
    return (_NUMBER_STEMS.get(term, term),)


def tokenize(text: str) -> list[Token]:
    """The words of ``text`` with their offsets and search terms (none for stopwords)."""
    return [Token(m.start(), m.end(), _terms(m[0])) for m in _TOKEN_RE.finditer(_fold(text))]


def terms(text: str) -> list[str]:
    """The search terms of ``text``, in order."""
    return [t for token in tokenize(text) for t in token.terms]


def _contains(sequence: Sequence[str], phrase: Sequence[str]) -> bool:
    n = len(phrase)
    if n == 0 or n > len(sequence):
        return False
    return any(list(sequence[i : i + n]) == list(phrase) for i in range(len(sequence) - n + 1))


def _find(sequence: Sequence[str], phrase: Sequence[str]) -> int:
    n = len(phrase)
    for i in range(len(sequence) - n + 1):
        if list(sequence[i : i + n]) == list(phrase):
            return i
    return -1
