"""Player counts as the documents allow them: "3+" for Dirt and Screw Your Neighbour,
up to what their decks can deal."""

from __future__ import annotations

import pytest

from games import get_ruleset
from games.base import RuleError
from games.dirt import decks_needed, default_decks


def test_dirt_seats_as_many_as_eight_decks_deal() -> None:
    # Dirt: "3+ players, the game is ideal with 4 to 6 (for larger groups, add additional
    # decks)" and "each player is delt seven cards. The next card is turned face up".
    dirt = get_ruleset("dirt")
    assert dirt.max_players == (8 * 54 - 1) // 7 == 61
    config = dirt.configure(players=list(range(1, 62)))
    assert config.options["decks"] == 8 == decks_needed(61)
    with pytest.raises(RuleError) as err:
        dirt.configure(players=list(range(1, 63)))
    assert err.value.field == "players"


def test_dirt_refuses_too_few_decks_for_the_table() -> None:
    # Dirt: "For more players, you will need to use additional decks".
    dirt = get_ruleset("dirt")
    assert default_decks(7) == 4
    assert default_decks(31) == 5
    with pytest.raises(RuleError) as err:
        dirt.configure(players=list(range(1, 20)), options={"decks": 2})
    assert err.value.field == "options"
    assert "19 players need at least 3 decks" in err.value.message
    assert dirt.configure(players=list(range(1, 16)), options={"decks": 2}).options["decks"] == 2


def test_screw_seats_as_many_as_its_deck_deals() -> None:
    # Screw Your Neighbour: "for three or more players"; "Use two 52 card decks plus 4
    # Jokers. Each player is dealt 8 cards ... The top card is turned over".
    screw = get_ruleset("screw-your-neighbour")
    assert screw.max_players == (108 - 1) // 8 == 13
    screw.configure(players=list(range(1, 14)))
    with pytest.raises(RuleError):
        screw.configure(players=list(range(1, 15)))


def test_the_rules_text_marks_the_caps_as_house_readings() -> None:
    from games import rules

    dirt = " ".join(rules.rules_for("dirt").section("players-and-cards").text.split())
    assert "Players: 3 or more." in dirt
    assert "House reading: the sheet seats up to 61" in dirt
    screw = " ".join(
        rules.rules_for("screw-your-neighbour").section("players-and-cards").text.split()
    )
    assert "Players: 3 or more. House reading: the sheet seats up to 13" in screw
