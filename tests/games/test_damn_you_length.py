"""D$%n You!: how long a game lasts (the game_length option) and the early end when the
last chips all go in one step."""

from __future__ import annotations

from typing import Any

import pytest

from games.base import GameConfig, RuleError
from games.damn_you import DamnYou

GAME = DamnYou()
A, B, C = 1, 2, 3


def hand(winner: int, *, passes: int = 0, left: int = 1) -> dict[str, Any]:
    """A hand of three players: ``winner`` goes out, the others hold ``left`` cards."""
    return {
        "winner": winner,
        "results": [
            {"player": p, "passes": passes, "cards_left": 0 if p == winner else left}
            for p in (A, B, C)
        ],
    }


def three(**options: Any) -> GameConfig:
    return GAME.configure(players=[A, B, C], options=options or None)


def test_the_default_is_one_deal_by_each_player() -> None:
    cfg = three()
    assert cfg.options["game_length"] == "one-deal-each"
    state = GAME.play(cfg, [hand(A), hand(B), hand(C)])
    assert state.finished
    assert state.ended_by == "hands"
    assert state.extras["hands_total"] == 3
    with pytest.raises(RuleError) as err:
        GAME.play(cfg, [hand(A), hand(B), hand(C), hand(A)])
    assert err.value.message == "the game is over after hand 3 (one hand dealt by each player)"


def test_a_set_number_of_rounds_deals_round_the_table_that_many_times() -> None:
    cfg = three(game_length="rounds", rounds="2")
    assert cfg.options["rounds"] == 2
    hands = [hand(w) for w in (A, B, C, A, B, C)]
    state = GAME.play(cfg, hands[:3])
    assert not state.finished
    assert state.next_hand is not None
    assert state.next_hand["dealer"] == A  # the second round starts with the first dealer
    assert state.extras["hands_total"] == 6
    state = GAME.play(cfg, hands)
    assert state.finished
    assert state.ended_by == "hands"
    assert [h.dealer for h in state.hands] == [A, B, C, A, B, C]
    with pytest.raises(RuleError) as err:
        GAME.play(cfg, [*hands, hand(A)])
    assert err.value.message == "the game is over after hand 6 (2 hands dealt by each player)"


def test_rounds_count_only_with_the_rounds_length() -> None:
    state = GAME.play(three(rounds=4), [hand(A), hand(B), hand(C)])
    assert state.finished
    assert state.extras["hands_total"] == 3


def test_until_one_player_holds_all_the_chips() -> None:
    cfg = three(game_length="all-chips", starting_chips=5)
    # Three hands of one deal each would end an ordinary game; this one goes on.
    hands = [hand(A), hand(B), hand(C)]
    state = GAME.play(cfg, hands)
    assert not state.finished
    assert state.extras["hands_total"] is None
    assert state.next_hand is not None
    assert state.next_hand["number"] == 4
    assert state.scores == {A: 5, B: 5, C: 5}
    # A goes out while B and C pay out their last chips: A alone holds chips.
    big = hand(A, passes=3, left=9)
    state = GAME.play(cfg, [*hands, big])
    assert state.finished
    assert state.ended_by == "early"
    assert state.winners == (A,)
    assert state.scores == {A: 15, B: 0, C: 0}
    with pytest.raises(RuleError) as err:
        GAME.play(cfg, [*hands, big, hand(B)])
    assert "the game is over" in err.value.message


def test_an_open_game_can_be_ended_by_hand() -> None:
    state = GAME.play(three(game_length="all-chips"), [hand(A)], closed=True)
    assert state.finished
    assert state.ended_by == "closed"
    assert state.winners == (A,)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (
            {"game_length": "forever"},
            "game_length: must be one of one-deal-each, rounds, all-chips",
        ),
        ({"game_length": "rounds", "rounds": 0}, "rounds: must be between 1 and 20"),
        ({"game_length": "rounds", "rounds": 21}, "rounds: must be between 1 and 20"),
        ({"rounds": "two"}, "rounds: must be a whole number"),
    ],
)
def test_bad_game_lengths_are_refused(options: dict[str, Any], words: str) -> None:
    with pytest.raises(RuleError) as err:
        three(**options)
    assert err.value.field == "options"
    assert words in err.value.message


def test_the_last_chips_going_in_one_step_is_not_an_end() -> None:
    # Three players with one chip each: the ante takes every chip at once. Nobody was
    # the last to hold chips (a table pays the ante in no set order), so the hand is
    # played and whoever goes out takes the pot of 3, and with it the game.
    cfg = three(starting_chips=1)
    assert cfg.options["starting_chips"] == 1
    state = GAME.play(cfg, [])
    assert not state.finished
    assert state.next_hand is not None
    assert [a["amount"] for a in state.next_hand["ante"]] == [1, 1, 1]
    state = GAME.play(cfg, [hand(B, passes=2, left=4)])
    outcome = state.hands[0]
    assert [a["paid"] for a in outcome.extras["ante"]] == [1, 1, 1]
    assert outcome.winner == B
    assert outcome.totals == {A: 0, B: 3, C: 0}
    assert outcome.extras["pot"] == 0
    assert state.finished
    assert state.ended_by == "early"
    assert state.winners == (B,)
