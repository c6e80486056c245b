"""The rules reference: each game's rules text, searchable, plus a one-line hint for the
hand in play.

The text lives beside the engine, one Markdown file per game in ``games/rules/``, split
into sections by ``## Title {#slug}`` headings. Scoring facts are not typed into the text
but generated from the engine: a marker such as ``{{ card_points }}`` becomes the table
:meth:`Ruleset.card_points` returns, so the rules can never disagree with the score sheet.

    >>> rules = rules_for("dirt")
    >>> [s.slug for s in rules.sections][:3]
    ['overview', 'players-and-cards', 'deal']
    >>> "| Joker | 50 |" in rules.section("scoring").body
    True
    >>> hit = search("draw five")[0]
    >>> hit.ruleset, hit.section
    ('dirt', 'special-cards')

Search is deliberately small and dependency-free: a light suffix stemmer, a table of the
words players actually use, and BM25-style scoring over the title, keywords and body of
each section. ``static/js/rules-search.js`` implements the same algorithm over
:func:`search_index` so that search also works offline in the browser; keep the two in
step (the browser tests compare them).
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import markdown

from games.base import Ruleset
from games.registry import RULESETS, get_ruleset

RULES_DIR = Path(__file__).with_name("rules")

#: Every game's rules have these sections, in this order; ``variants`` only where the
#: game has variants.
SECTION_ORDER: tuple[str, ...] = (
    "overview",
    "players-and-cards",
    "deal",
    "play",
    "special-cards",
    "scoring",
    "variants",
    "house-rules",
    "quick-reference",
)
OPTIONAL_SECTIONS = frozenset({"variants"})


class RulesError(ValueError):
    """A rules file that is malformed: a missing or unknown section, an unknown marker."""


# -- sections ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Section:
    """One section of a game's rules. ``body`` is Markdown with every engine marker
    already replaced; ``keywords`` are the player words that should find it."""

    ruleset: str
    slug: str
    title: str
    body: str
    keywords: tuple[str, ...] = ()

    @functools.cached_property
    def html(self) -> str:
        return render_markdown(self.body)

    @functools.cached_property
    def text(self) -> str:
        """The body as plain text (what search reads and quotes)."""
        return plain_text(self.html)

    @property
    def anchor(self) -> str:
        return self.slug

    def as_dict(self) -> dict[str, str]:
        return {"slug": self.slug, "title": self.title, "body": self.body}


@dataclass(frozen=True)
class Rules:
    """A game's whole rules reference."""

    ruleset: str
    name: str
    sections: tuple[Section, ...]

    def section(self, slug: str) -> Section:
        for section in self.sections:
            if section.slug == slug:
                return section
        raise KeyError(slug)

    @property
    def quick_reference(self) -> Section:
        return self.section("quick-reference")

    @property
    def contents(self) -> tuple[Section, ...]:
        """The sections shown in full (the quick reference card is shown apart)."""
        return tuple(s for s in self.sections if s.slug != "quick-reference")


_HEADING_RE = re.compile(r"^##\s+(?P<title>.+?)\s+\{#(?P<slug>[a-z0-9-]+)\}\s*$")
_KEYWORDS_RE = re.compile(r"^\s*<!--\s*keywords:(?P<words>.*?)-->\s*$", re.IGNORECASE)
_MARKER_RE = re.compile(r"\{\{\s*(?P<name>[a-z_]+)(?::(?P<arg>[a-z_]+))?\s*\}\}")


def rules_path(slug: str) -> Path:
    return RULES_DIR / f"{slug}.md"


@functools.cache
def _default_rules(slug: str) -> Rules:
    return build_rules(slug)


def rules_for(slug: str, options: Mapping[str, Any] | None = None) -> Rules:
    """The rules of the game ``slug``. ``options`` (house-rule settings) change the
    generated tables, e.g. the points of a 10 in Dirt; without them the defaults show.
    Raises :class:`~games.base.RuleError` for an unknown game."""
    get_ruleset(slug)
    if not options:
        return _default_rules(slug)
    return build_rules(slug, options)


def all_rules() -> list[Rules]:
    """Every game's rules, in the registry's order."""
    return [rules_for(slug) for slug in RULESETS]


def clear_cache() -> None:
    """Forget the parsed rules (after the engine or a rules file changed)."""
    _default_rules.cache_clear()
    _search_corpus.cache_clear()
    search_index.cache_clear()


def build_rules(slug: str, options: Mapping[str, Any] | None = None) -> Rules:
    """Read and expand ``games/rules/<slug>.md`` (uncached)."""
    ruleset = get_ruleset(slug)
    source = rules_path(slug).read_text(encoding="utf-8")
    name = ruleset.name
    chunks: list[tuple[str, str, list[str]]] = []
    for line in source.splitlines():
        if line.startswith("# ") and not chunks:
            name = line[2:].strip()
            continue
        heading = _HEADING_RE.match(line)
        if heading:
            chunks.append((heading["slug"], heading["title"], []))
        elif line.startswith("## "):
            raise RulesError(f"{slug}: heading without a {{#slug}}: {line!r}")
        elif chunks:
            chunks[-1][2].append(line)
        elif line.strip():
            raise RulesError(f"{slug}: text before the first section: {line!r}")
    expand = functools.partial(_expand_markers, ruleset, options or {})
    sections = []
    for section_slug, title, lines in chunks:
        keywords: list[str] = []
        body_lines = []
        for line in lines:
            found = _KEYWORDS_RE.match(line)
            if found:
                keywords.extend(w.strip() for w in found["words"].split(",") if w.strip())
            else:
                body_lines.append(line)
        body = expand("\n".join(body_lines).strip())
        sections.append(Section(slug, section_slug, title, body, tuple(keywords)))
    _check_sections(ruleset, [s.slug for s in sections])
    return Rules(ruleset=slug, name=name, sections=tuple(sections))


def _check_sections(ruleset: Ruleset, slugs: list[str]) -> None:
    unknown = [s for s in slugs if s not in SECTION_ORDER]
    if unknown:
        raise RulesError(f"{ruleset.slug}: unknown section {unknown[0]!r}")
    if len(set(slugs)) != len(slugs):
        raise RulesError(f"{ruleset.slug}: a section appears twice")
    required = [s for s in SECTION_ORDER if s not in OPTIONAL_SECTIONS]
    if ruleset.variants:
        required = list(SECTION_ORDER)
    missing = [s for s in required if s not in slugs]
    if missing:
        raise RulesError(f"{ruleset.slug}: missing section {missing[0]!r}")
    if slugs != sorted(slugs, key=SECTION_ORDER.index):
        raise RulesError(f"{ruleset.slug}: sections out of order")


# -- markers: text generated from the engine ------------------------------------------


def _expand_markers(ruleset: Ruleset, options: Mapping[str, Any], text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        name, arg = match["name"], match["arg"]
        renderer = _MARKERS.get(name)
        if renderer is None:
            raise RulesError(f"{ruleset.slug}: unknown marker {match[0]!r}")
        return renderer(ruleset, options, arg)

    return _MARKER_RE.sub(replace, text)


def _points_text(points: object, signed: bool = False) -> str:
    if isinstance(points, int) and not isinstance(points, bool):
        if points < 0:
            return f"−{-points}"
        return f"+{points}" if signed and points > 0 else str(points)
    return str(points)


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _card_points_rows(ruleset: Ruleset, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    effective = {**ruleset.default_options(4), **options}
    return ruleset.card_points(effective)


def card_points_table(ruleset: Ruleset, options: Mapping[str, Any] | None = None) -> str:
    """The engine's card-points table as Markdown."""
    rows = _card_points_rows(ruleset, options or {})
    if not rows:
        return "*This game scores no cards.*"
    signed = any(isinstance(r["points"], int) and r["points"] < 0 for r in rows)
    lines = ["| Card | Points | Note |", "|---|---|---|"]
    lines += [
        f"| {_cell(r['card'])} | {_points_text(r['points'], signed)} | {_cell(r['note'])} |"
        for r in rows
    ]
    return "\n".join(lines)


def _marker_card_points(ruleset: Ruleset, options: Mapping[str, Any], arg: str | None) -> str:
    return card_points_table(ruleset, options)


def _marker_card_points_inline(
    ruleset: Ruleset, options: Mapping[str, Any], arg: str | None
) -> str:
    rows = _card_points_rows(ruleset, options)
    signed = any(isinstance(r["points"], int) and r["points"] < 0 for r in rows)
    return " · ".join(f"{r['card']} = {_points_text(r['points'], signed)}" for r in rows)


def _marker_variants(ruleset: Ruleset, options: Mapping[str, Any], arg: str | None) -> str:
    lines = ["| Variant | Hands | Details |", "|---|---|---|"]
    for v in ruleset.variants:
        name = f"{v.name} (default)" if v.slug == ruleset.default_variant else v.name
        hands = "open" if v.hands is None else str(v.hands)
        lines.append(f"| {_cell(name)} | {hands} | {_cell(v.description)} |")
    return "\n".join(lines)


def _marker_variants_inline(ruleset: Ruleset, options: Mapping[str, Any], arg: str | None) -> str:
    parts = []
    for v in ruleset.variants:
        detail = v.description
        # "Dirt ranks 6 4 2" reads better in a one-liner without the repeated label.
        detail = re.sub(r"^[A-Z][a-z]+ ranks ", "", detail)
        parts.append(f"{v.name} {detail}".strip())
    return " · ".join(parts)


def _option_choices(option: Mapping[str, Any]) -> str:
    if "min" in option:
        return f"any whole number {option['min']}–{option['max']}"
    choices = list(option["choices"])
    if (
        len(choices) > 4
        and all(isinstance(c, int) for c in choices)
        and choices == list(range(choices[0], choices[-1] + 1))
    ):
        return f"{choices[0]}–{choices[-1]}"
    return ", ".join(str(c) for c in choices)


def options_table(ruleset: Ruleset) -> str:
    """The game's house-rule options, as the engine defines them, as a Markdown list
    (a table is too wide for a phone)."""
    options = ruleset.metadata()["options"]
    if not options:
        return "*This game has no house-rule options.*"
    lines = ["Options you can set when creating a game:", ""]
    for name, option in options.items():
        default = option["default"]
        shown = "set by the number of players" if default is None else f"**{default}**"
        lines.append(
            f"- **{option['label']}** (`{name}`): default {shown}; "
            f"choices {_option_choices(option)}. {option['help']}"
        )
    return "\n".join(lines)


def _marker_options(ruleset: Ruleset, options: Mapping[str, Any], arg: str | None) -> str:
    return options_table(ruleset)


def _marker_default(ruleset: Ruleset, options: Mapping[str, Any], arg: str | None) -> str:
    known = ruleset.metadata()["options"]
    if arg not in known:
        raise RulesError(f"{ruleset.slug}: no option {arg!r} for {{{{ default:{arg} }}}}")
    value = options.get(arg or "", known[arg]["default"])
    return str(value)


def _marker_deal_sizes(ruleset: Ruleset, options: Mapping[str, Any], arg: str | None) -> str:
    from games.base import GameConfig
    from games.damn_you import deal_sizes

    lines = ["| Players | Cards dealt | Short hands |", "|---|---|---|"]
    for n in range(ruleset.min_players, ruleset.max_players + 1):
        players = tuple(range(1, n + 1))
        sizes = deal_sizes(GameConfig(ruleset.slug, players, None, {}), players[0])
        counts = Counter(sizes.values())
        big, small = max(counts), min(counts)
        if big == small:
            lines.append(f"| {n} | {big} | none |")
        else:
            lines.append(
                f"| {n} | {counts[big]} get {big}, {counts[small]} get {small} | {counts[small]} |"
            )
    return "\n".join(lines)


_SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_NAME = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def _card_label(code: str) -> str:
    return f"{code[:-1]}{_SUIT_SYMBOL[code[-1]]}"


def bowers() -> list[tuple[str, str]]:
    """(suit code, bower code) pairs of Dirty Deals, from the engine."""
    from games.dirty_deals import BOWER

    return [(suit, BOWER[suit]) for suit in ("H", "D", "C", "S")]


def _marker_bowers(ruleset: Ruleset, options: Mapping[str, Any], arg: str | None) -> str:
    return "\n".join(
        f"| {_SUIT_SYMBOL[suit]} {_SUIT_NAME[suit]} | {_card_label(jack)} |"
        for suit, jack in bowers()
    )


def _marker_bowers_inline(ruleset: Ruleset, options: Mapping[str, Any], arg: str | None) -> str:
    return " · ".join(f"{_SUIT_SYMBOL[s]} {_card_label(j)}" for s, j in bowers())


_MARKERS: dict[str, Callable[[Ruleset, Mapping[str, Any], str | None], str]] = {
    "card_points": _marker_card_points,
    "card_points_inline": _marker_card_points_inline,
    "variants": _marker_variants,
    "variants_inline": _marker_variants_inline,
    "options": _marker_options,
    "default": _marker_default,
    "deal_sizes": _marker_deal_sizes,
    "bowers": _marker_bowers,
    "bowers_inline": _marker_bowers_inline,
}


# -- rendering --------------------------------------------------------------------------


def render_markdown(text: str) -> str:
    """Markdown to HTML (tables and plain lists; the text is the project's own), with
    the red suits in red."""
    rendered = markdown.markdown(text, extensions=["tables", "sane_lists"], output_format="html")
    return re.sub("([♥♦])", r'<span class="suit-red">\1</span>', rendered)


class _TextExtractor(HTMLParser):
    _BLOCKS = frozenset(
        {
            "p",
            "li",
            "td",
            "th",
            "tr",
            "h1",
            "h2",
            "h3",
            "h4",
            "br",
            "ul",
            "ol",
            "table",
            "div",
            "blockquote",
        }
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._BLOCKS:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th"):
            self.parts.append(" · ")
        elif tag in self._BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        # Line breaks inside a paragraph are the source's wrapping, not the text's.
        self.parts.append(re.sub(r"\s+", " ", data))


def plain_text(markup: str) -> str:
    """The text of an HTML fragment: one line per block (paragraph, list item, table
    row, with " · " between cells), other whitespace collapsed."""
    parser = _TextExtractor()
    parser.feed(markup)
    parser.close()
    lines = (" ".join(line.split()).strip(" ·") for line in "".join(parser.parts).split("\n"))
    return "\n".join(line for line in lines if line)


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


# -- search -------------------------------------------------------------------------------

TITLE_WEIGHT = 3.0
KEYWORD_WEIGHT = 3.0
SYNONYM_WEIGHT = 0.5
PHRASE_BONUS = 2.0
QUICK_REFERENCE_FACTOR = 0.6
GAME_NAME_FACTOR = 2.0
K1 = 1.2
B = 0.75
MIN_RELATIVE_SCORE = 0.2
SNIPPET_TOKENS = 30
SNIPPET_LOOKBACK = 10
MAX_HITS = 10


@dataclass(frozen=True)
class Hit:
    ruleset: str
    ruleset_name: str
    section: str
    title: str
    snippet: str
    url: str
    score: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "ruleset_name": self.ruleset_name,
            "section": self.section,
            "title": self.title,
            "snippet": self.snippet,
            "url": self.url,
        }


@dataclass(frozen=True)
class Suggestion:
    """Something to try when a search finds nothing. ``reason`` is ``spelling`` (a
    corrected query), ``all-games`` (the same query without the game filter) or
    ``topic`` (a starting point)."""

    q: str
    ruleset: str | None
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {"q": self.q, "ruleset": self.ruleset, "reason": self.reason}


@dataclass
class _Doc:
    index: int
    ruleset: str
    ruleset_name: str
    section: str
    title: str
    text: str
    url: str
    title_terms: list[str]
    keyword_phrases: list[list[str]]
    keyword_terms: set[str]
    body_tokens: list[Token]
    body_terms: list[str]
    tf: Counter[str] = field(default_factory=Counter)

    @property
    def length(self) -> int:
        return len(self.body_terms)

    def has(self, term: str) -> bool:
        return term in self.tf or term in self.keyword_terms or term in self.title_terms


@dataclass
class _Corpus:
    docs: list[_Doc]
    df: Counter[str]
    avg_length: float
    vocabulary: Counter[str]
    synonyms: list[list[list[str]]]
    game_names: dict[str, list[list[str]]]

    def idf(self, term: str) -> float:
        n = len(self.docs)
        df = self.df.get(term, 0)
        return math.log(1 + (n - df + 0.5) / (df + 0.5))


def rules_url(ruleset: str, section: str | None = None) -> str:
    """The page of a game's rules (the web app serves it there)."""
    return f"/rules/{ruleset}/" + (f"#{section}" if section else "")


def _make_doc(index: int, rules: Rules, section: Section) -> _Doc:
    body_tokens = tokenize(section.text)
    body_terms = [t for token in body_tokens for t in token.terms]
    keyword_phrases = [terms(k) for k in section.keywords]
    return _Doc(
        index=index,
        ruleset=rules.ruleset,
        ruleset_name=rules.name,
        section=section.slug,
        title=section.title,
        text=section.text,
        url=rules_url(rules.ruleset, section.slug),
        title_terms=terms(section.title),
        keyword_phrases=keyword_phrases,
        keyword_terms={t for p in keyword_phrases for t in p},
        body_tokens=body_tokens,
        body_terms=body_terms,
        tf=Counter(body_terms),
    )


@functools.cache
def _search_corpus() -> _Corpus:
    docs: list[_Doc] = []
    vocabulary: Counter[str] = Counter()
    for rules in all_rules():
        for section in rules.sections:
            docs.append(_make_doc(len(docs), rules, section))
            for source in (section.title, section.text, *section.keywords):
                vocabulary.update(
                    w
                    for w in re.findall(r"[a-z]+", _fold(source))
                    if len(w) >= 3 and w not in STOPWORDS
                )
    df: Counter[str] = Counter()
    for doc in docs:
        df.update(set(doc.tf) | doc.keyword_terms | set(doc.title_terms))
    avg = sum(d.length for d in docs) / len(docs)
    return _Corpus(
        docs=docs,
        df=df,
        avg_length=avg,
        vocabulary=vocabulary,
        synonyms=[[terms(p) for p in group] for group in SYNONYMS],
        game_names={slug: [terms(n) for n in names] for slug, names in GAME_NAMES.items()},
    )


@dataclass
class _Query:
    #: the query's own terms, in order, without repeats
    originals: list[str]
    #: original term -> synonym phrases that can stand in for it
    alternatives: dict[str, list[list[str]]]
    #: the whole query when it has several words: a bonus where it appears as written
    phrases: list[list[str]]
    games: set[str]

    def highlight_terms(self) -> set[str]:
        """What the snippet marks: the query's words and one-word synonyms (a synonym
        such as "pick up" would mark every "up")."""
        found = set(self.originals)
        for phrases in self.alternatives.values():
            found.update(p[0] for p in phrases if len(p) == 1)
        return found


def _parse_query(q: str, corpus: _Corpus) -> _Query:
    query_terms = terms(q)
    games: set[str] = set()
    for slug, names in corpus.game_names.items():
        for name in names:
            at = _find(query_terms, name) if name else -1
            if at >= 0 and len(query_terms) > len(name):
                games.add(slug)
                query_terms = query_terms[:at] + query_terms[at + len(name) :]
                break
    originals = list(dict.fromkeys(query_terms))
    alternatives: dict[str, list[list[str]]] = {t: [] for t in originals}
    phrases: list[list[str]] = []
    if len(query_terms) >= 2:
        phrases.append(list(query_terms))
    for group in corpus.synonyms:
        present = [p for p in group if p and _contains(query_terms, p)]
        if not present:
            continue
        replaced = {t for p in present for t in p}
        for phrase in group:
            if phrase in present or not phrase:
                continue
            for original in replaced:
                if phrase not in alternatives[original]:
                    alternatives[original].append(phrase)
    return _Query(originals=originals, alternatives=alternatives, phrases=phrases, games=games)


def _has_phrase(doc: _Doc, phrase: Sequence[str]) -> bool:
    """Whether the doc has these terms one after the other (a synonym like "pick up"
    means nothing when its words are apart)."""
    if len(phrase) == 1:
        return doc.has(phrase[0])
    return (
        _contains(doc.body_terms, phrase)
        or _contains(doc.title_terms, phrase)
        or any(_contains(k, phrase) for k in doc.keyword_phrases)
    )


def _term_score(doc: _Doc, term: str, corpus: _Corpus) -> float:
    tf = doc.tf.get(term, 0)
    norm = K1 * (1 - B + B * doc.length / corpus.avg_length)
    field_score = (
        (TITLE_WEIGHT if term in doc.title_terms else 0.0)
        + (KEYWORD_WEIGHT if term in doc.keyword_terms else 0.0)
        + (tf * (K1 + 1) / (tf + norm) if tf else 0.0)
    )
    return corpus.idf(term) * field_score


def _score(doc: _Doc, query: _Query, corpus: _Corpus) -> float:
    # Each query word counts once: as written, or (at a lower weight) through the best
    # of its synonyms. A word found only through a synonym also counts half towards
    # coverage, so "draw five" prefers rules saying "draw 5" to those saying "pick up 5".
    score = 0.0
    covered = 0.0
    for term in query.originals:
        direct = _term_score(doc, term, corpus)
        via_synonym = max(
            (
                SYNONYM_WEIGHT * sum(_term_score(doc, t, corpus) for t in phrase) / len(phrase)
                for phrase in query.alternatives[term]
                if _has_phrase(doc, phrase)
            ),
            default=0.0,
        )
        score += max(direct, via_synonym)
        if direct > 0:
            covered += 1.0
        elif via_synonym > 0:
            covered += SYNONYM_WEIGHT
    if score == 0.0:
        return 0.0
    for phrase in query.phrases:
        if _has_phrase(doc, phrase):
            score += PHRASE_BONUS * sum(corpus.idf(t) for t in phrase)
    coverage = covered / len(query.originals)
    score *= coverage * coverage
    if doc.section == "quick-reference":
        score *= QUICK_REFERENCE_FACTOR
    if doc.ruleset in query.games:
        score *= GAME_NAME_FACTOR
    return score


def snippet(
    text: str,
    match_terms: Iterable[str],
    tokens: Sequence[Token] | None = None,
    width: int = SNIPPET_TOKENS,
) -> str:
    """An excerpt of ``text`` around the best cluster of matching words, HTML-escaped,
    with the matching words in ``<mark>``."""
    wanted = set(match_terms)
    tokens = tokenize(text) if tokens is None else tokens
    if not tokens:
        return html.escape(text)
    hits = [bool(wanted.intersection(t.terms)) for t in tokens]
    best_start, best_key = 0, (-1, -1)
    for start in range(max(1, len(tokens) - width + 1)):
        window = range(start, min(start + width, len(tokens)))
        distinct = {term for i in window if hits[i] for term in tokens[i].terms} & wanted
        key = (len(distinct), sum(1 for i in window if hits[i]))
        if key > best_key:
            best_start, best_key = start, key
    first = next((i for i in range(best_start, len(tokens)) if hits[i]), best_start)
    # Begin at the start of the sentence (or table cell, list item) of the first match
    # when it is close by, else a few words before the match.
    start = max(0, first - 6)
    for back in range(first, max(-1, first - SNIPPET_LOOKBACK - 1), -1):
        if back == 0 or any(
            c in ".!?:;\n" for c in text[tokens[back - 1].end : tokens[back].start]
        ):
            start = back
            break
    start = max(0, min(start, len(tokens) - width))
    end = min(len(tokens), start + width)
    out = ["…" if start > 0 else ""]
    cursor = tokens[start].start
    for i in range(start, end):
        token = tokens[i]
        out.append(html.escape(text[cursor : token.start]))
        word = html.escape(text[token.start : token.end])
        out.append(f"<mark>{word}</mark>" if hits[i] else word)
        cursor = token.end
    if end < len(tokens):
        out.append("…")
    else:
        out.append(html.escape(text[cursor:]))
    return "".join(out).strip()


def search(q: str, ruleset: str | None = None, *, limit: int = MAX_HITS) -> list[Hit]:
    """Sections matching ``q``, best first, each with a highlighted snippet. ``ruleset``
    (a slug) limits the search to one game."""
    if ruleset:
        get_ruleset(ruleset)
    corpus = _search_corpus()
    query = _parse_query(q, corpus)
    if not query.originals:
        return []
    scored = [
        (round(_score(doc, query, corpus), 6), doc)
        for doc in corpus.docs
        if not ruleset or doc.ruleset == ruleset
    ]
    scored = [(s, d) for s, d in scored if s > 0]
    if not scored:
        return []
    scored.sort(key=lambda pair: (-pair[0], pair[1].index))
    top = scored[0][0]
    wanted = query.highlight_terms()
    return [
        Hit(
            ruleset=doc.ruleset,
            ruleset_name=doc.ruleset_name,
            section=doc.section,
            title=doc.title,
            snippet=snippet(doc.text, wanted, doc.body_tokens),
            url=doc.url,
            score=s,
        )
        for s, doc in scored[:limit]
        if s >= top * MIN_RELATIVE_SCORE
    ]


def _edit_distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def _correct(word: str, vocabulary: Counter[str]) -> str:
    if len(word) < 3 or word in vocabulary or word in STOPWORDS or word.isdigit():
        return word
    allowed = 1 if len(word) <= 5 else 2
    best: tuple[int, int, str] | None = None
    for candidate, count in vocabulary.items():
        if abs(len(candidate) - len(word)) > allowed:
            continue
        distance = _edit_distance(word, candidate)
        if distance <= allowed:
            key = (distance, -count, candidate)
            if best is None or key < best:
                best = key
    return best[2] if best else word


def suggest(q: str, ruleset: str | None = None) -> list[Suggestion]:
    """What to try instead when ``search(q, ruleset)`` finds nothing: a spelling fix
    that finds something, the same words across all games, then a few topics."""
    corpus = _search_corpus()
    suggestions: list[Suggestion] = []
    words = re.findall(r"[a-z0-9]+", _fold(q))
    corrected = " ".join(_correct(w, corpus.vocabulary) for w in words)
    if corrected and corrected != " ".join(words) and search(corrected, ruleset, limit=1):
        suggestions.append(Suggestion(corrected, ruleset, "spelling"))
    if ruleset and search(q, None, limit=1):
        suggestions.append(Suggestion(q.strip(), None, "all-games"))
    for topic in TOPICS:
        if search(topic, ruleset, limit=1):
            suggestions.append(Suggestion(topic, ruleset, "topic"))
    return suggestions


@functools.cache
def search_index() -> dict[str, Any]:
    """Everything the browser needs to search offline exactly as :func:`search` does:
    the word tables and each section's title, keywords and plain text."""
    docs = [
        {
            "ruleset": rules.ruleset,
            "ruleset_name": rules.name,
            "section": s.slug,
            "title": s.title,
            "keywords": list(s.keywords),
            "text": s.text,
            "url": rules_url(rules.ruleset, s.slug),
        }
        for rules in all_rules()
        for s in rules.sections
    ]
    data: dict[str, Any] = {
        "stopwords": sorted(STOPWORDS),
        "irregular": IRREGULAR,
        "spelling": SPELLING,
        "numbers": NUMBER_WORDS,
        "letters": LETTERS,
        "symbols": SYMBOLS,
        "synonyms": [list(g) for g in SYNONYMS],
        "game_names": {k: list(v) for k, v in GAME_NAMES.items()},
        "topics": list(TOPICS),
        "weights": {
            "title": TITLE_WEIGHT,
            "keyword": KEYWORD_WEIGHT,
            "synonym": SYNONYM_WEIGHT,
            "phrase": PHRASE_BONUS,
            "quick_reference": QUICK_REFERENCE_FACTOR,
            "game_name": GAME_NAME_FACTOR,
            "k1": K1,
            "b": B,
            "min_relative": MIN_RELATIVE_SCORE,
            "snippet_lookback": SNIPPET_LOOKBACK,
            "snippet_tokens": SNIPPET_TOKENS,
            "max_hits": MAX_HITS,
        },
        "rulesets": [
            {"slug": r.ruleset, "name": r.name, "url": rules_url(r.ruleset)} for r in all_rules()
        ],
        "docs": docs,
    }
    payload = json.dumps(data, sort_keys=True, ensure_ascii=False)
    data["version"] = hashlib.sha256(payload.encode()).hexdigest()[:16]
    return data


# -- the hint for the hand in play --------------------------------------------------------


def _name(player: object, names: Mapping[Any, str] | None) -> str:
    if names:
        for key in (player, str(player)):
            if key in names:
                return names[key]
    return f"Player {player}"


def _join(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _dirt_hint(next_hand: Mapping[str, Any], names: Mapping[Any, str] | None) -> str:
    from games.dirt import DIRT_POINTS

    rank = str(next_hand["dirt_rank"])
    number = next_hand.get("number")
    left = next_hand.get("hands_left")
    prefix = ""
    if number is not None and left is not None:
        prefix = f"Hand {number} of {int(number) + int(left) - 1}: "
    effect = (
        f"a {rank} skips the next player and the one after draws {rank}"
        if rank == "7"
        else f"a {rank} makes the next player draw {rank}"
    )
    return (
        f"{prefix}{rank}s are dirt. Laid in suit, {effect} per dirt card unless they "
        f"answer with a {rank}; each {rank} left in a hand scores {DIRT_POINTS}."
    )


def _damn_you_hint(next_hand: Mapping[str, Any], names: Mapping[Any, str] | None) -> str:
    short = [_name(p, names) for p in next_hand.get("short", [])]
    dealer = next_hand.get("dealer")
    parts = []
    if dealer is not None:
        parts.append(f"{_name(dealer, names)} deals.")
    parts.append("Whoever holds the 7♦ opens.")
    if short:
        verb = "antes" if len(short) == 1 else "ante"
        parts.append(f"{_join(short)} {verb} an extra chip (one card short).")
    else:
        parts.append("The cards come out even: no extra ante.")
    return " ".join(parts)


def _dirty_uno_hint(next_hand: Mapping[str, Any], names: Mapping[Any, str] | None) -> str:
    return (
        "Settle the last card before counting: after a +2 or Wild +4 the next player "
        "draws, after an identical card the previous player draws, after a 0 no hands "
        "pass."
    )


def _dirty_deals_hint(next_hand: Mapping[str, Any], names: Mapping[Any, str] | None) -> str:
    pairs = next_hand.get("bowers") or dict(bowers())
    order = [s for s in ("H", "D", "C", "S") if s in pairs]
    listed = " · ".join(f"{_SUIT_SYMBOL[s]} {_card_label(pairs[s])}" for s in order)
    return f"Bowers: {listed}."


def _syn_hint(next_hand: Mapping[str, Any], names: Mapping[Any, str] | None) -> str:
    from games.screw_your_neighbour import RED_ACES_MARGIN

    dealer = next_hand.get("dealer")
    who = _name(dealer, names) if dealer is not None else "the dealer"
    return (
        f"{who} deals 8 each. Red aces are live for {who} alone if the grabbed portion "
        f"ends within {RED_ACES_MARGIN} cards of exact."
    )


_HINTS: dict[str, Callable[[Mapping[str, Any], Mapping[Any, str] | None], str]] = {
    "dirt": _dirt_hint,
    "damn-you": _damn_you_hint,
    "dirty-uno": _dirty_uno_hint,
    "dirty-deals": _dirty_deals_hint,
    "screw-your-neighbour": _syn_hint,
}


def context_hint(
    slug: str, next_hand: Mapping[str, Any] | None, names: Mapping[Any, str] | None = None
) -> str:
    """One line of rules that matters for the hand about to be played (``next_hand`` as
    :meth:`Ruleset.play` returns it), with player ids replaced by ``names``. Empty when
    the game is over.

        >>> context_hint("damn-you", {"number": 1, "dealer": 1, "short": [4, 1]},
        ...              {1: "Ana", 4: "Dee"})
        'Ana deals. Whoever holds the 7♦ opens. Dee and Ana ante an extra chip (one card short).'
    """
    get_ruleset(slug)
    if not next_hand:
        return ""
    hint = _HINTS.get(slug)
    return hint(next_hand, names) if hint else ""
