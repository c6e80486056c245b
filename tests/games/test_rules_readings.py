"""The rules text says what the original documents say, and marks the readings the
product chose as house readings (with the option that plays them the other way)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games import get_ruleset, rules


@pytest.fixture(autouse=True)
def _fresh_rules() -> Iterator[None]:
    rules.clear_cache()
    yield
    rules.clear_cache()


def text(slug: str, section: str) -> str:
    return " ".join(rules.rules_for(slug).section(section).text.split())


def test_partner_dirt_names_both_six_player_set_ups() -> None:
    variants = text("dirt", "variants")
    assert "Four players make two teams of two." in variants
    assert "Six players can go either way: three teams of two, or two teams of three." in (variants)
    assert "or at six players three\n" not in rules.rules_for("dirt").section("variants").body


def test_dirt_decks_and_jokers_say_what_the_original_allows() -> None:
    cards = text("dirt", "players-and-cards")
    assert "4 · 2 will do; 3 is better" in cards
    assert "the original prefers two jokers per deck, so one will do" in cards
    assert "no more than two jokers per deck (fewer is fine)" in text("dirt", "house-rules")


def test_dirt_drawing_when_stuck_is_a_house_reading_with_its_option() -> None:
    play = text("dirt", "play")
    assert "Nothing to lay? House reading: the original does not say." in play
    assert "`stuck_draw`" in rules.rules_for("dirt").section("play").body
    house = text("dirt", "house-rules")
    assert "Nothing to lay (stuck_draw):" in house  # the generated options list
    assert "choices one, until-playable" in house


def test_screw_joker_switch_and_two_joker_pickup_are_house_readings() -> None:
    special = text("screw-your-neighbour", "special-cards")
    assert "Joker and the Switch. House reading: the original contradicts itself here." in (special)
    assert "set the joker_switch option to yes" in special
    assert "A joker cannot make this swap" not in special
    assert "2 + joker: four or six? House reading:" in special
    assert "the two_joker_pickup option set to 6" in special
    house = text("screw-your-neighbour", "house-rules")
    assert "Joker laid alone: Switch swap (joker_switch): default no; choices no, yes." in house
    assert "2 + joker Match: cards picked up (two_joker_pickup): default 4; choices 4, 6." in house


def test_screw_red_aces_check_is_the_dealers_count_within_two() -> None:
    house = text("screw-your-neighbour", "house-rules")
    assert "Red-aces check. After the deal, the dealer types into the sheet's red-aces check" in (
        house
    )
    assert "anything from −2 to +2" in house
    assert "never changes a score" in house
    # The original: two or fewer left over, or two or fewer short.
    assert "two or fewer left over, or two or fewer short" in text(
        "screw-your-neighbour", "special-cards"
    )


def test_damn_you_early_end_tells_the_truth_about_checking_per_step() -> None:
    house = text("damn-you", "house-rules")
    assert "same answer as checking at every moment" not in house
    assert "Checking after each step is not always the same as checking at every moment" in (house)
    assert "House reading: nobody left with chips." in house
    assert "Say three players have one chip each: the ante takes all three." in house
    assert "whoever goes out collects all three chips" in house
    # …and the engine does what the text says.
    game = get_ruleset("damn-you")
    config = game.configure(players=[1, 2, 3], options={"starting_chips": 1})
    state = game.play(
        config,
        [
            {
                "winner": 3,
                "results": [
                    {"player": 1, "passes": 0, "cards_left": 2},
                    {"player": 2, "passes": 0, "cards_left": 2},
                    {"player": 3, "passes": 0, "cards_left": 0},
                ],
            }
        ],
    )
    assert state.scores == {1: 0, 2: 0, 3: 3}
    assert state.winners == (3,)


def test_damn_you_game_length_is_generally_one_deal_each_and_an_option() -> None:
    deal = text("damn-you", "deal")
    assert "The original says a game generally runs to one deal by each player" in deal
    house = text("damn-you", "house-rules")
    assert "Game length (game_length). House reading: the original says a game generally" in (house)
    assert "one-deal-each (the default)" in house
    assert "with four players and 2 rounds the game lasts 8 hands" in house
    assert "all-chips plays on until one player holds all the chips" in house
    assert "Game length (game_length): default one-deal-each; choices one-deal-each, rounds, " in (
        house
    )
    assert "Rounds (rounds): default 2; choices any whole number 1–20." in house
    assert "the most chips wins" in text("damn-you", "scoring")


def test_hand_sizes_are_given() -> None:
    assert "Hand size: seven cards each, the standard UNO deal." in text(
        "dirty-uno", "players-and-cards"
    )
    assert "Hand size: the whole deck is dealt out" in text("damn-you", "players-and-cards")


def test_dirty_uno_first_card_wild_draw_four() -> None:
    deal = text("dirty-uno", "deal")
    assert "If it is a Wild Draw Four: house reading." in deal
    assert "the first player draws four cards and misses their turn" in deal
    assert "set the first_wild_draw_four option to reshuffle" in deal
    house = text("dirty-uno", "house-rules")
    assert "First card a Wild Draw Four (first_wild_draw_four): default counts; choices " in (house)
    game = get_ruleset("dirty-uno")
    assert game.configure(players=[1, 2, 3]).options["first_wild_draw_four"] == "counts"
    chosen = game.configure(players=[1, 2, 3], options={"first_wild_draw_four": "reshuffle"})
    assert chosen.options["first_wild_draw_four"] == "reshuffle"


def test_dirty_deals_bower_is_always_somewhere() -> None:
    house = text("dirty-deals", "house-rules")
    assert "The bower is always somewhere." in house
    assert "The sheet refuses a claim that places the bower nowhere" in house
    assert "unless it is in the surplus" in house


def test_damn_you_early_end_in_the_documents_order() -> None:
    # The original: "In the unlikely event that only one player has chips, the game ends
    # immediately and they win (this can happen in the middle of a hand)."
    scoring = text("damn-you", "scoring")
    steps = [
        "After the ante.",
        "After the passes, paid one at a time in turn.",
        "After the payments for cards left, before the pot is taken.",
        "After the pot.",
    ]
    at = [scoring.index(step) for step in steps]
    assert at == sorted(at)
    assert "the player who paid the last chip was the last holder and wins" in scoring
    assert "the pot is not handed over" in scoring
    house = text("damn-you", "house-rules")
    assert 'House reading: the order of "immediately".' in house
    assert "House reading: the pot of a game that stops mid-hand stays in the middle" in house


def test_dirty_uno_who_scores_is_a_house_reading_with_its_option() -> None:
    # Dirty UNO: "The Standard Rules of UNO apply", yet notes 6-7: the cards received
    # "are counted in their score" — the drawing player's own score.
    scoring = text("dirty-uno", "scoring")
    assert "Who scores. The original leaves this open." in scoring
    assert "House reading: by default the sheet follows standard UNO" in scoring
    assert "choose penalty" in scoring
    # "The game ends when one of the players has a score greater than 500": no word
    # on who wins when scores are penalties.
    assert "House reading: the original names no winner for penalty scoring" in scoring
    house = text("dirty-uno", "house-rules")
    assert "House reading: the method (see Who scores)." in house
    assert "lowest score wins (house reading)" in house


@pytest.mark.parametrize("slug", ["dirt", "damn-you", "dirty-uno", "dirty-deals"])
def test_the_first_dealer_is_a_house_reading(slug: str) -> None:
    assert "House reading: the first dealer is the first seat" in text(slug, "house-rules")


def test_every_house_rules_section_marks_its_readings_and_lists_its_options() -> None:
    for slug in ["dirt", "damn-you", "dirty-uno", "dirty-deals", "screw-your-neighbour"]:
        house = text(slug, "house-rules")
        assert "House reading" in house, slug
        assert "Options you can set when creating a game:" in house, slug


def test_dirty_deals_page_names_the_negotiation_timer() -> None:
    # Dirty Deals: "A time limit (say a few minutes) to negotiations should be enforced."
    assert "negotiation timer" in text("dirty-deals", "play")
    house = text("dirty-deals", "house-rules")
    assert "House reading: the negotiation timer." in house
    assert "Negotiation time (minutes) (negotiation_minutes): default 3" in house


def test_dirt_joker_is_not_played_on_dirt() -> None:
    # Dirt: "neither jokers nor jacks can be played on dirt".
    special = text("dirt", "special-cards")
    joker_row = next(line for line in special.split(" Jack ·")[:1])
    assert "anything but dirt waiting to be answered" in joker_row
    assert "| anything |" not in rules.rules_for("dirt").section("special-cards").body
