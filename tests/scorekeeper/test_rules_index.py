"""Searching the rules (scorekeeper.rules_index): the words players use find the right
section, and a hit opens the paragraph that says it. No test here touches the app's
database: the search has its own, in memory."""

from __future__ import annotations

import re

import pytest

from games import RULESETS, rules
from scorekeeper.rules_index import Suggestion, documents, search, suggest


@pytest.mark.parametrize(
    ("query", "ruleset", "expected"),
    [
        ("wild", "dirt", ("dirt", "special-cards")),
        ("wild", "screw-your-neighbour", ("screw-your-neighbour", "special-cards")),
        ("draw five", None, ("dirt", "special-cards")),
        ("draw 5", None, ("dirt", "special-cards")),
        ("Draw Five", "dirt", ("dirt", "special-cards")),
        ("bower", None, ("dirty-deals", "special-cards")),
        ("left bower", None, ("dirty-deals", "special-cards")),
        ("trump", None, ("dirty-deals", "special-cards")),
        ("reverse", "dirt", ("dirt", "special-cards")),
        ("reverse", "dirty-uno", ("dirty-uno", "special-cards")),
        ("reverse", "screw-your-neighbour", ("screw-your-neighbour", "special-cards")),
        ("reversed", "dirt", ("dirt", "special-cards")),
        ("change direction", "dirt", ("dirt", "special-cards")),
        ("skip", "dirt", ("dirt", "special-cards")),
        ("skip", "dirty-uno", ("dirty-uno", "special-cards")),
        ("skip", "screw-your-neighbour", ("screw-your-neighbour", "special-cards")),
        ("miss a turn", None, ("screw-your-neighbour", "special-cards")),
        ("ante", None, ("damn-you", "deal")),
        ("antes", None, ("damn-you", "deal")),
        ("anteing", None, ("damn-you", "deal")),
        ("pot", None, ("damn-you", "scoring")),
        ("widow", None, ("damn-you", "scoring")),
        ("7♦", None, ("damn-you", "play")),
        ("seven of diamonds", None, ("damn-you", "play")),
        ("knock", None, ("dirt", "play")),
        ("last card", "dirt", ("dirt", "play")),
        ("last card", "screw-your-neighbour", ("screw-your-neighbour", "play")),
        ("call uno", None, ("dirty-uno", "play")),
        ("+2", None, ("dirty-uno", "special-cards")),
        ("exactly 500", None, ("dirty-uno", "scoring")),
        ("rubber", None, ("dirty-deals", "scoring")),
        ("partner", None, ("dirt", "variants")),
        ("how many decks", None, ("dirt", "players-and-cards")),
        ("safe card", None, ("screw-your-neighbour", "special-cards")),
        ("dirty deals scoring", None, ("dirty-deals", "scoring")),
    ],
)
def test_player_words_find_the_right_section_first(
    query: str, ruleset: str | None, expected: tuple[str, str]
) -> None:
    hits = search(query, ruleset)
    assert hits, query
    assert (hits[0].ruleset, hits[0].section) == expected, [
        (h.ruleset, h.section) for h in hits[:3]
    ]


@pytest.mark.parametrize(
    ("query", "ruleset", "url", "words"),
    [
        ("widow", None, "/rules/damn-you/#scoring-13", "Widow rule (playing on the house)."),
        ("knock", None, "/rules/dirt/#play-4", "Knock when one card is left."),
        ("ante", None, "/rules/damn-you/#deal-1", "Ante. Before any cards are dealt"),
        ("skip", "dirt", "/rules/dirt/#special-cards-5", "7 · Skips the next player."),
        ("draw five", None, "/rules/dirt/#special-cards-2", "Joker · Wild."),
        ("+2", None, "/rules/dirty-uno/#special-cards-12", "Draw Two (+2)"),
    ],
)
def test_a_hit_links_to_the_paragraph_that_says_it(
    query: str, ruleset: str | None, url: str, words: str
) -> None:
    hit = search(query, ruleset)[0]
    assert hit.url == url
    slug, anchor = url.removeprefix("/rules/").split("/#")
    section = rules.rules_for(slug).section(hit.section)
    assert next(p for p in section.paragraphs if p.id == anchor).text.startswith(words)


def test_one_hit_per_section_and_one_game_when_asked() -> None:
    hits = search("joker")
    assert len({(h.ruleset, h.section) for h in hits}) == len(hits) > 3
    in_one = search("joker", "damn-you")
    assert in_one
    assert {h.ruleset for h in in_one} == {"damn-you"}


def test_hits_carry_the_contract_fields() -> None:
    hit = search("bower")[0]
    assert (hit.ruleset, hit.ruleset_name) == ("dirty-deals", "Dirty Deals")
    assert (hit.section, hit.title) == ("special-cards", "Special cards")
    assert hit.url == f"/rules/dirty-deals/#{hit.anchor}"


def test_snippet_marks_the_words_and_escapes_the_rest() -> None:
    assert re.search(r"<mark>draws 5</mark>", search("draw five")[0].snippet)
    assert "<mark>Ante</mark>" in search("antes")[0].snippet
    assert "say &quot;<mark>UNO</mark>&quot;" in search("call uno")[0].snippet
    assert all("<script>" not in h.snippet for h in search("<script>joker</script>"))


def test_nothing_found_comes_with_suggestions() -> None:
    assert search("xyzzy") == search("the") == search("   ") == []
    assert suggest("jokr") == [Suggestion("joker", None, "spelling")]
    assert search("bower", "dirt") == []
    assert Suggestion("bower", None, "all-games") in suggest("bower", "dirt")
    assert suggest("xyzzy") == []


def header_rows() -> set[str]:
    """Every table header row of the rules, as document ids."""
    return {
        f"{slug}#{anchor}"
        for slug in RULESETS
        for s in rules.rules_for(slug).contents
        for anchor in re.findall(r'<tr id="([^"]+)">\s*<th', s.anchored_html)
    }


def test_every_paragraph_of_every_game_is_a_document() -> None:
    found = documents()
    assert {d["game"] for d in found} == set(RULESETS)
    headers = header_rows()
    assert headers  # the tables have header rows: they answer nothing and are left out
    assert len(found) == sum(
        len(s.paragraphs) for slug in RULESETS for s in rules.rules_for(slug).contents
    ) - len(headers)
    assert not headers & {d["id"] for d in found}
    assert len({d["id"] for d in found}) == len(found)


@pytest.mark.parametrize(
    ("query", "url", "words"),
    [
        # Dirty Deals: "To trump is to play the Jack of the same colour ... as the suit
        # led - otherwise known as the bower."
        ("bower", "/rules/dirty-deals/#special-cards-1", "The bower of a suit is the jack"),
        ("what is a bower", "/rules/dirty-deals/#special-cards-1", "The bower of a suit is"),
        # D$%n You!: "In the unlikely event that only one player has chips, the game
        # ends immediately and they win".
        ("early end", "/rules/damn-you/#scoring-14", "Early end. The original"),
    ],
)
def test_a_hit_lands_on_the_sentence_that_answers(query: str, url: str, words: str) -> None:
    hit = search(query)[0]
    assert hit.url == url
    slug, anchor = url.removeprefix("/rules/").split("/#")
    section = rules.rules_for(slug).section(hit.section)
    assert next(p for p in section.paragraphs if p.id == anchor).text.startswith(words)


def test_a_bold_term_is_what_its_paragraph_defines() -> None:
    bower = next(d for d in documents() if d["id"] == "dirty-deals#special-cards-1")
    assert bower["defines"] == "The bower"
    early = next(d for d in documents() if d["id"] == "damn-you#scoring-14")
    assert early["defines"] == "Early end"
