"""Searching the rules: BM25-style scoring over the title, keywords and body of each
section (:mod:`games.rules`), with snippets, spelling suggestions and the index the
browser searches offline.

    >>> hit = search("draw five")[0]
    >>> hit.ruleset, hit.section
    ('dirt', 'special-cards')

Search is deliberately small and dependency-free: the words come from
:mod:`games.rules_words`. ``static/js/rules-search.js`` implements the same algorithm over
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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.registry import get_ruleset
from games.rules import Rules, Section, all_rules
from games.rules_words import (
    GAME_NAMES,
    IRREGULAR,
    LETTERS,
    NUMBER_WORDS,
    SPELLING,
    STOPWORDS,
    SYMBOLS,
    SYNONYMS,
    TOPICS,
    Token,
    _contains,
    _find,
    _fold,
    terms,
    tokenize,
)

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


def clear_cache() -> None:
    """Forget the search corpus and index (``games.rules.clear_cache`` calls this)."""
    _search_corpus.cache_clear()
    search_index.cache_clear()
