"""The rules reference: sections and their paragraphs, engine-generated tables, hints."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import games.dirt
from games import get_ruleset, rules, rules_hints
from games.registry import RULESETS

# The original rule documents sit in ../shared beside the checkout (CI clones there).
SEED_CANDIDATES = [
    Path(__file__).resolve().parents[3] / "shared" / "seeds",
    Path("/work/shared/seeds"),
]
SEEDS = next((p for p in SEED_CANDIDATES if p.is_dir()), SEED_CANDIDATES[0])
REQUIRED = (
    "overview",
    "players-and-cards",
    "deal",
    "play",
    "special-cards",
    "scoring",
    "house-rules",
    "quick-reference",
)


@pytest.fixture(autouse=True)
def _fresh_rules() -> Iterator[None]:
    rules.clear_cache()
    yield
    rules.clear_cache()


# -- sections ---------------------------------------------------------------------------


@pytest.mark.parametrize("slug", list(RULESETS))
def test_every_game_has_every_section_in_order(slug: str) -> None:
    found = [s.slug for s in rules.rules_for(slug).sections]
    assert [s for s in found if s in REQUIRED] == list(REQUIRED)
    if get_ruleset(slug).variants:
        assert "variants" in found
    for section in rules.rules_for(slug).sections:
        assert section.title
        assert len(section.text.split()) >= 20, f"{slug}#{section.slug} is too thin"
        assert "{{" not in section.body, f"unexpanded marker in {slug}#{section.slug}"
        assert "<!--" not in section.body


def test_section_bodies_render_to_html() -> None:
    scoring = rules.rules_for("dirt").section("scoring")
    assert "<table>" in scoring.html
    assert "<td>Joker</td>" in scoring.html
    assert scoring.as_dict().keys() == {"slug", "title", "body"}


@pytest.mark.parametrize("slug", list(RULESETS))
def test_every_paragraph_has_an_id_on_the_page(slug: str) -> None:
    for section in rules.rules_for(slug).sections:
        ids = [p.id for p in section.paragraphs]
        assert ids == [f"{section.slug}-{n}" for n in range(1, len(ids) + 1)]
        assert re.findall(r' id="([^"]+)"', section.anchored_html) == ids
        assert all(p.text for p in section.paragraphs)


def test_paragraphs_are_the_text_in_blocks() -> None:
    scoring = rules.rules_for("damn-you").section("scoring")
    widow = scoring.paragraphs[12]
    assert widow.id == "scoring-13"
    assert widow.text.startswith("Widow rule (playing on the house). A player who has run out")
    assert '<p id="scoring-13"><strong>Widow rule' in scoring.anchored_html
    assert scoring.paragraphs[2].text == "Ante · 1 · Every player, into the pot before the deal."
    assert scoring.text.splitlines() == [p.text for p in scoring.paragraphs]


def test_unknown_game_is_a_rule_error() -> None:
    with pytest.raises(games.RuleError) as raised:
        rules.rules_for("poker")
    assert raised.value.field == "ruleset"


def test_a_malformed_rules_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = rules.rules_path("dirt").read_text(encoding="utf-8")
    broken = source.replace("## Play {#play}", "## Play")
    (tmp_path / "dirt.md").write_text(broken, encoding="utf-8")
    monkeypatch.setattr(rules, "RULES_DIR", tmp_path)
    with pytest.raises(rules.RulesError, match="heading without"):
        rules.build_rules("dirt")
    (tmp_path / "dirt.md").write_text(
        source.replace("## Play {#play}", "## Play {#plya}"), encoding="utf-8"
    )
    with pytest.raises(rules.RulesError, match="unknown section 'plya'"):
        rules.build_rules("dirt")
    (tmp_path / "dirt.md").write_text(source + "\n{{ no_such_marker }}\n", encoding="utf-8")
    with pytest.raises(rules.RulesError, match="unknown marker"):
        rules.build_rules("dirt")


# -- the tables come from the engine -----------------------------------------------------


@pytest.mark.parametrize("slug", list(RULESETS))
def test_card_points_table_is_the_engines(slug: str) -> None:
    ruleset = get_ruleset(slug)
    scoring = rules.rules_for(slug).section("scoring")
    for row in ruleset.card_points(ruleset.default_options(4)):
        points = row["points"]
        shown = f"−{-points}" if isinstance(points, int) and points < 0 else str(points)
        assert re.search(
            rf"\| {re.escape(row['card'])} \| \+?{re.escape(shown)} \|", scoring.body
        ), row


def test_dirt_ten_points_option_changes_the_table() -> None:
    default = rules.rules_for("dirt").section("scoring").body
    tens = rules.rules_for("dirt", {"ten_points": 10}).section("scoring").body
    assert "| 10 | 1 |" in default
    assert "| 10 | 10 |" in tens
    assert "10 = 10" in rules.rules_for("dirt", {"ten_points": 10}).quick_reference.body


def test_a_change_in_the_engine_changes_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games.dirt, "JOKER_POINTS", 60)
    rules.clear_cache()
    text = rules.rules_for("dirt")
    assert "| Joker | 60 |" in text.section("scoring").body
    assert "Joker = 60" in text.quick_reference.body


def test_options_and_variants_tables_come_from_the_engine() -> None:
    house = rules.rules_for("dirt").section("house-rules").body
    assert "(`ten_points`)" in house
    assert "(`decks`)" in house
    variants = rules.rules_for("dirt").section("variants").body
    for variant in get_ruleset("dirt").variants:
        assert variant.name in variants
        assert variant.description in variants
    assert "`target_wins`" in rules.rules_for("screw-your-neighbour").section("house-rules").body
    assert "`scoring`" in rules.rules_for("dirty-uno").section("house-rules").body
    assert "`starting_chips`" in rules.rules_for("damn-you").section("house-rules").body


def test_generated_game_facts() -> None:
    deal = rules.rules_for("damn-you").section("deal").body
    assert "| 4 | 2 get 14, 2 get 13 | 2 |" in deal
    assert "| 6 | 9 | none |" in deal
    bowers = rules.rules_for("dirty-deals").section("special-cards").body
    assert "| ♥ hearts | J♦ |" in bowers
    assert "| ♠ spades | J♣ |" in bowers


def test_worked_examples_in_the_text_agree_with_the_engine() -> None:
    dirt = get_ruleset("dirt")
    config = dirt.configure(players=[1, 2, 3, 4])
    hands = [
        {"winner": 1, "results": [{"player": p, "points": 0} for p in (2, 3, 4)]},
        {
            "winner": 1,
            "results": [
                {"player": 2, "cards": ["JK", "4H", "4S", "KD"]},
                {"player": 3, "cards": ["AS", "7C", "10D", "3H"]},
                {"player": 4, "points": 0},
            ],
        },
    ]
    points = dirt.play(config, hands).hands[1].points
    text = rules.rules_for("dirt").section("scoring").text
    assert f"= {points[2]}" in text
    assert f"= {points[3]}" in text

    deals = get_ruleset("dirty-deals")
    config = deals.configure(players=[1, 2, 3, 4])
    claims = deals.play(
        config,
        [
            {"winner": 1, "suit": "H", "surplus": ["JD", "9C", "QS"], "bower_holder": None},
            {"winner": 1, "suit": "S", "surplus": ["10H"], "bower_holder": 3},
        ],
    ).hands
    text = rules.rules_for("dirty-deals").section("scoring").text
    assert f"= {claims[0].points[1]}." in text
    assert f"scores {claims[1].points[1]}, and the J♣ is then in another player's hand" in text
    assert f"gets {claims[1].points[3]}." in text

    damn = get_ruleset("damn-you")
    config = damn.configure(players=[1, 2, 3, 4])
    state = damn.play(
        config,
        [
            {
                "winner": 2,
                "results": [
                    {"player": 1, "passes": 2, "cards_left": 5},
                    {"player": 2, "passes": 0, "cards_left": 0},
                    {"player": 3, "passes": 1, "cards_left": 3},
                    {"player": 4, "passes": 3, "cards_left": 7},
                ],
            }
        ],
    )
    pot = state.scores[2] - 20 + 1  # the winner paid one chip of ante into it
    scoring = rules.rules_for("damn-you").section("scoring").text
    assert f"collects a final pot of {pot}." in scoring
    # The sheet's two words for the pot, each explained where the chips are counted.
    house = rules.rules_for("damn-you").section("house-rules").text
    assert "pot so far" in house
    assert "final pot" in house


# -- our own words -------------------------------------------------------------------------


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower().replace("’", "").replace("'", ""))


def test_no_twelve_word_run_is_copied_from_the_seeds() -> None:
    assert SEEDS.is_dir(), "the seed documents are needed for this check"
    span = 12
    seed_runs: dict[tuple[str, ...], str] = {}
    for seed in SEEDS.glob("*.txt"):
        words = _words(seed.read_text(encoding="utf-8"))
        for i in range(len(words) - span + 1):
            seed_runs[tuple(words[i : i + span])] = seed.name
    copied = []
    for slug in RULESETS:
        words = _words(rules.rules_path(slug).read_text(encoding="utf-8"))
        for s in rules.rules_for(slug).sections:
            words += _words(s.text)
        for i in range(len(words) - span + 1):
            run = tuple(words[i : i + span])
            if run in seed_runs:
                copied.append(f"{slug}: '{' '.join(run)}' ({seed_runs[run]})")
    assert copied == []


# -- the hint for the hand in play ------------------------------------------------------


def test_dirt_hint_says_what_this_hands_dirt_does() -> None:
    dirt = get_ruleset("dirt")
    config = dirt.configure(players=[1, 2, 3, 4])
    state = dirt.play(
        config, [{"winner": 1, "results": [{"player": p, "points": 0} for p in (2, 3, 4)]}]
    )
    hint = rules_hints.context_hint("dirt", state.next_hand)
    assert hint.startswith("Hand 2 of 6: 4s are dirt.")
    assert "draw 4" in hint
    assert "25" in hint
    seven = rules_hints.context_hint("dirt", {"number": 6, "hands_left": 1, "dirt_rank": "7"})
    assert "skips the next player" in seven


def test_damn_you_hint_names_the_short_players() -> None:
    damn = get_ruleset("damn-you")
    config = damn.configure(players=[1, 2, 3, 4])
    state = damn.play(config, [])
    names = {1: "Ana", 2: "Bo", 3: "Cy", 4: "Di"}
    hint = rules_hints.context_hint("damn-you", state.next_hand, names)
    assert hint == (
        "Ana deals. Whoever holds the 7♦ opens. Ana and Di ante an extra chip (one card short)."
    )
    even = damn.play(damn.configure(players=[1, 2, 3]), []).next_hand
    assert "no extra ante" in rules_hints.context_hint("damn-you", even, names)


def test_uno_and_deals_hints() -> None:
    assert "+2" in rules_hints.context_hint("dirty-uno", {"number": 1, "dealer": 1})
    deals = get_ruleset("dirty-deals")
    state = deals.play(deals.configure(players=[1, 2, 3, 4]), [])
    assert rules_hints.context_hint("dirty-deals", state.next_hand) == (
        "Bowers: ♥ J♦ · ♦ J♥ · ♣ J♠ · ♠ J♣."
    )


def test_no_hint_once_the_game_is_over() -> None:
    assert rules_hints.context_hint("dirt", None) == ""
