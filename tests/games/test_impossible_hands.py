"""Hands no deal can produce are refused, naming the player and the reason."""

from __future__ import annotations

import pytest

from games import get_ruleset
from games.base import RuleError
from games.impossible import check_possible, impossible

A, B, C, D = 1, 2, 3, 4


@pytest.mark.parametrize("slug", ["dirt", "dirty-uno"])
@pytest.mark.parametrize("row", [{"points": 0}, {"cards": []}])
def test_a_player_who_did_not_go_out_holds_something(slug: str, row: dict[str, object]) -> None:
    # Dirt: "When someone goes out by getting rid of all their cards, play ends and the
    # other players score points for all the cards remaining in their hands" — face
    # cards are "only 1 point", nothing less. Dirty UNO: "The hand ends when one of the
    # players has played the last card in their hand"; every UNO card scores 1 or more.
    config = get_ruleset(slug).configure(players=[A, B, C])
    hand = {"winner": A, "results": [{"player": B, **row}, {"player": C, "points": 4}]}
    with pytest.raises(RuleError) as err:
        check_possible(config, hand)
    assert err.value.field == "results"
    assert err.value.players == (B,)
    assert "player 2 did not go out, so holds at least one card" in err.value.message


def test_every_impossible_line_is_named() -> None:
    config = get_ruleset("dirt").configure(players=[A, B, C])
    hand = {"winner": A, "results": [{"player": B, "points": 0}, {"player": C, "cards": []}]}
    assert [e.player for e in impossible(config, hand)] == [B, C]


def test_a_partner_of_the_player_who_went_out_may_be_zero() -> None:
    # Partner Dirt: "Team members of the person that went out don't count their points
    # (team score is zero together)".
    config = get_ruleset("dirt").configure(players=[A, B, C, D], teams=[[A, C], [B, D]])
    hand = {
        "winner": A,
        "results": [
            {"player": B, "points": 3},
            {"player": C, "points": 0},
            {"player": D, "points": 2},
        ],
    }
    assert impossible(config, hand) == []


def test_dirty_deals_surplus_of_eighteen_holds_the_bower() -> None:
    # Dirty Deals: tricks taken merge into the winner's hand; six claimed cards plus a
    # surplus of 18 are all 24 cards, so "the bower held by another player" cannot be.
    game = get_ruleset("dirty-deals")
    config = game.configure(players=[A, B, C, D])
    for extra in ({"bower_holder": B}, {}):
        hand = {"winner": A, "suit": "H", "surplus_count": 18, **extra}
        with pytest.raises(RuleError) as err:
            game.play(config, [hand])
        assert err.value.field == "surplus_count"
        assert "player 1: a surplus of 18 means the claimant holds all 24 cards" in (
            err.value.message
        )
    state = game.play(
        config, [{"winner": A, "suit": "H", "surplus_count": 18, "bower_in_surplus": True}]
    )
    assert state.hands[0].points[A] == 0
    state = game.play(config, [{"winner": A, "suit": "H", "surplus_count": 17, "bower_holder": B}])
    assert state.hands[0].points[B] == 3
