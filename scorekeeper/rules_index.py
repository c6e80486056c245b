"""Searching the rules: SQLite's full-text search (FTS5) over every paragraph of the
rules, ranked by ``bm25()``, with ``snippet()`` for the excerpt.

The index is an in-memory SQLite database built once per process from
:mod:`games.rules`, apart from the app's own database (so it is the same on
PostgreSQL). A document is a paragraph, list item or table row with its section's title
and keywords, and a hit links to the paragraph itself. The same documents make
``/rules/index.json``, which the browser searches offline with MiniSearch
(``static/js/rules-offline.js``). ``search("widow")`` finds, first, the paragraph at
``/rules/damn-you/#scoring-13``.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import html
import json
import re
import sqlite3
from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils import translation

from games import RULESETS, rules
from scorekeeper import engine_text

MAX_HITS = 10
#: A hit scoring under this share of the best one only shares a common word with the query.
MIN_RELATIVE_SCORE = 0.25
#: Not looked for, per language: "what does a jack do" looks for jacks.
_STOPWORDS = {
    "en": "a an and are as at be by can do does for from how i if in is it my of on or the "
    "to what when where which who why with you your",
    "de": "ab am an auf aus bei bin bis da darf das dass dem den der des die du ein eine "
    "einem einen einer es für hat ich im in ist kann man mein meine mit muss oder sind "
    "tut von wann warum was welche welcher welches wenn wer wie wo zu zum zur",
    "es": "a al cómo como con cuál cual cuándo cuando de del dónde donde el en es hace la "
    "las lo los mi mis o para por porque puede puedo que qué quién quien se si son su sus "
    "tu tus un una unas unos y yo",
}
STOPWORDS = {language: frozenset(words.split()) for language, words in _STOPWORDS.items()}
#: Number words also look for their digits: "draw five" finds "draws 5".
_NUMBERS = {
    "en": "zero one two three four five six seven eight nine ten",
    "de": "null eins zwei drei vier fünf sechs sieben acht neun zehn",
    "es": "cero uno dos tres cuatro cinco seis siete ocho nueve diez",
}
NUMBERS = {
    language: {word: str(n) for n, word in enumerate(words.split())}
    for language, words in _NUMBERS.items()
}
#: Suit symbols and "+" are part of a word, so "7♦" and "+2" find exactly that.
_WORD_RE = re.compile(r"[\w+♠♥♦♣]+")


@dataclass(frozen=True)
class Hit:
    """The best paragraph of a section for a query (the API's fields, and ``anchor``:
    the paragraph's id)."""

    ruleset: str
    ruleset_name: str
    section: str
    title: str
    anchor: str
    snippet: str
    url: str


@dataclass(frozen=True)
class Suggestion:
    """What to try when nothing matched: ``reason`` is ``spelling`` (the query with its
    words corrected) or ``all-games`` (the same query without the game filter)."""

    q: str
    ruleset: str | None
    reason: str


#: A table's header row: its column names answer nothing.
_HEADER_ROW_RE = re.compile(r'<tr id="([^"]+)">\s*<th\b')
#: A paragraph or list item that opens with a bold term says what that term is ("The
#: bower of a suit is …", "Widow rule …"): the term is indexed apart, weighted most.
_LEAD_RE = re.compile(r'<(?:p|li) id="([^"]+)">\s*(?:<p>\s*)?<strong>(.*?)</strong>', re.S)
_TAG_RE = re.compile(r"<[^>]+>")


def _header_rows(section: rules.Section) -> set[str]:
    return set(_HEADER_ROW_RE.findall(section.anchored_html))


#: A bold opening longer than this is a sentence in bold, not a term.
MOST_TERM_WORDS = 4


def _leads(section: rules.Section) -> dict[str, str]:
    """Each paragraph's bold opening term, by paragraph id; "House reading:" (or its
    mark in another language) is the mark of a choice, not part of the term."""
    found: dict[str, str] = {}
    for anchor, lead in _LEAD_RE.findall(section.anchored_html):
        term = html.unescape(_TAG_RE.sub("", lead)).strip(" .:")
        for mark in rules.HOUSE_READING.values():
            term = term.removeprefix(mark).strip(" .:")
        if term and len(term.split()) <= MOST_TERM_WORDS:
            found[anchor] = term
    return found


def documents(language: str | None = None) -> tuple[dict[str, str], ...]:
    """Every paragraph of the rules (in ``language``, by default the active one) as a
    search document, with ``defines``: the term its bold opening says what it is (the
    quick reference card only repeats the sections, and a table's header row only names
    its columns, so they are left out)."""
    return _documents(language or engine_text.language())


@functools.cache
def _documents(language: str) -> tuple[dict[str, str], ...]:
    found: list[dict[str, str]] = []
    with translation.override(language):
        games = engine_text.all_rules()
    for game in games:
        for section in game.contents:
            headers = _header_rows(section)
            leads = _leads(section)
            found.extend(
                {
                    "id": f"{game.ruleset}#{paragraph.id}",
                    "game": game.ruleset,
                    "game_name": game.name,
                    "section": section.slug,
                    "title": section.title,
                    "keywords": ", ".join(section.keywords),
                    "defines": leads.get(paragraph.id, ""),
                    "anchor": paragraph.id,
                    "text": paragraph.text,
                }
                for paragraph in section.paragraphs
                if paragraph.text and paragraph.id not in headers
            )
    return tuple(found)


def version(language: str | None = None) -> str:
    """Changes whenever the documents (of ``language``, by default the active one) do."""
    return _version(language or engine_text.language())


@functools.cache
def _version(language: str) -> str:
    return hashlib.sha256(json.dumps(_documents(language)).encode()).hexdigest()[:16]


@functools.cache
def _index(language: str) -> sqlite3.Connection:
    # Only read once filled, so one connection serves every thread.
    db = sqlite3.connect(":memory:", check_same_thread=False)
    db.execute(
        "CREATE VIRTUAL TABLE rules USING fts5(game_name, title, keywords, defines, text,"
        " game UNINDEXED, section UNINDEXED, anchor UNINDEXED,"
        " tokenize=\"porter unicode61 remove_diacritics 2 tokenchars '+♠♥♦♣'\")"
    )
    db.executemany(
        "INSERT INTO rules VALUES"
        " (:game_name, :title, :keywords, :defines, :text, :game, :section, :anchor)",
        _documents(language),
    )
    return db


def _words(text: str) -> list[str]:
    return _WORD_RE.findall(text.lower())


def page_url(ruleset: str, anchor: str = "") -> str:
    return reverse("rules_detail", args=[ruleset]) + (f"#{anchor}" if anchor else "")


def search(q: str, ruleset: str | None = None) -> list[Hit]:
    """The best paragraph of each section matching ``q``, best first. Any word of the
    query may match; the words as typed, one after the other, count extra."""
    language = engine_text.language()
    stopwords, numbers = STOPWORDS[language], NUMBERS[language]
    words = _words(q)
    terms = [w for w in words if w not in stopwords]
    if not terms:
        return []
    terms += [numbers[w] for w in terms if w in numbers]
    if len(words) > 1:
        terms += {" ".join(words), " ".join(numbers.get(w, w) for w in words)}
    rows = _index(language).execute(
        "SELECT bm25(rules, 1, 3, 2, 1.5, 4), game, game_name, section, title, anchor,"
        " snippet(rules, 4, char(2), char(3), '…', 24) FROM rules"
        " WHERE rules MATCH ? AND ? IN ('', game) ORDER BY 1, rowid",
        (" OR ".join(f'"{term}"' for term in terms), ruleset or ""),
    )
    hits: dict[tuple[str, str], Hit] = {}
    best = None
    for score, game, game_name, section, title, anchor, snippet in rows:
        best = best or score  # bm25() is negative: the lower, the better
        if score > best * MIN_RELATIVE_SCORE or len(hits) == MAX_HITS:
            break
        if (game, section) not in hits:
            marked = html.escape(snippet).replace("\x02", "<mark>").replace("\x03", "</mark>")
            url = page_url(game, anchor)
            hits[game, section] = Hit(game, game_name, section, title, anchor, marked, url)
    return list(hits.values())


@functools.cache
def _vocabulary(language: str) -> set[str]:
    return {
        w for d in _documents(language) for w in _words(f"{d['title']} {d['keywords']} {d['text']}")
    }


def suggest(q: str, ruleset: str | None = None) -> list[Suggestion]:
    """What to try when ``search(q, ruleset)`` finds nothing: the words spelt as in the
    rules, or the same words in every game."""
    found = []
    words = _words(q)
    fixed = " ".join(
        (difflib.get_close_matches(w, _vocabulary(engine_text.language()), 1, 0.75) or [w])[0]
        for w in words
    )
    if fixed != " ".join(words) and search(fixed, ruleset):
        found.append(Suggestion(fixed, ruleset, "spelling"))
    if ruleset and search(q):
        found.append(Suggestion(q.strip(), None, "all-games"))
    return found


def index_json() -> dict[str, Any]:
    """The documents with their links, and the query words, for the browser to search
    offline as :func:`search` does."""
    pages = {slug: page_url(slug) for slug in RULESETS}
    return {
        "version": version(),
        "games": {slug: engine_text.rules_for(slug).name for slug in RULESETS},
        "stopwords": sorted(STOPWORDS[engine_text.language()]),
        "numbers": NUMBERS[engine_text.language()],
        "documents": [{**d, "url": f"{pages[d['game']]}#{d['anchor']}"} for d in documents()],
    }
