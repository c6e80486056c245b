from __future__ import annotations

from typing import Any

import pytest

from games.base import GameConfig, RuleError
from games.damn_you import DamnYou, deal_sizes, short_players
from games.registry import get_ruleset

GAME = DamnYou()
A, B, C, D = 1, 2, 3, 4


def result(player: int, passes: int, cards_left: int) -> dict[str, int]:
    return {"player": player, "passes": passes, "cards_left": cards_left}


#: The worked example of the spec: dealer A, B goes out.
EXAMPLE: dict[str, Any] = {
    "winner": B,
    "results": [result(A, 2, 5), result(B, 0, 0), result(C, 1, 3), result(D, 3, 7)],
}


def four(**options: Any) -> GameConfig:
    return GAME.configure(players=[A, B, C, D], options=options or None)


def rows(rows: list[dict[str, Any]], field: str) -> dict[int, Any]:
    return {row["player"]: row[field] for row in rows}


def test_metadata() -> None:
    meta = get_ruleset("damn-you").metadata()
    assert meta["name"] == "D$%n You!"
    assert (meta["min_players"], meta["max_players"]) == (3, 8)
    option = meta["options"]["starting_chips"]
    assert option["default"] == 20
    assert (option["min"], option["max"]) == (1, 1000)
    assert meta["wins_with"] == "high"
    assert meta["score_label"] == "chips"
    table = {row["card"]: row["points"] for row in GAME.card_points()}
    assert table["Ante"] == 1
    assert table["Short hand"] == 1
    assert table["Pass"] == 1
    assert table["Each card left in hand"] == 1
    assert "The pot" in table


def test_starting_chips_accepts_any_number_in_range() -> None:
    assert four(starting_chips="35").options["starting_chips"] == 35
    for bad in (0, 1001, "lots", 2.5):
        with pytest.raises(RuleError) as err:
            four(starting_chips=bad)
        assert err.value.field == "options"


def test_worked_example() -> None:
    state = GAME.play(four(), [EXAMPLE])
    hand = state.hands[0]
    assert hand.dealer == A
    assert hand.winner == B
    assert rows(hand.extras["ante"], "paid") == {A: 2, B: 1, C: 1, D: 2}
    assert hand.extras["short"] == [A, D]
    assert rows(hand.extras["deal"], "cards") == {A: 13, B: 14, C: 14, D: 13}
    # Ante 2 + passes 2 + cards 5 for A, and so on; B takes the pot of 27.
    assert rows(hand.extras["chips"], "paid") == {A: 9, B: 1, C: 5, D: 12}
    assert rows(hand.extras["chips"], "received") == {A: 0, B: 27, C: 0, D: 0}
    assert hand.points == {A: -9, B: 26, C: -5, D: -12}
    assert hand.totals == {A: 11, B: 46, C: 15, D: 8}
    assert hand.extras["pot"] == 0
    assert hand.extras["early_end"] is False
    assert sum(hand.totals.values()) == 80
    assert state.scores == {A: 11, B: 46, C: 15, D: 8}
    assert [(r.player, r.score, r.rank) for r in state.standings] == [
        (B, 46, 1),
        (C, 15, 2),
        (A, 11, 3),
        (D, 8, 4),
    ]
    assert state.extras["pot"] == 0
    assert hand.as_dict()["chips"][0] == {"player": A, "paid": 9, "received": 0}


def test_next_hand_before_the_first() -> None:
    state = GAME.play(four(), [])
    assert state.next_hand == {
        "number": 1,
        "dealer": A,
        "short": [A, D],
        "deal": [
            {"player": A, "cards": 13},
            {"player": B, "cards": 14},
            {"player": C, "cards": 14},
            {"player": D, "cards": 13},
        ],
        "ante": [
            {"player": A, "amount": 2},
            {"player": B, "amount": 1},
            {"player": C, "amount": 1},
            {"player": D, "amount": 2},
        ],
        "opens": "whoever holds the 7♦ opens",
    }
    assert state.extras == {"pot": 0, "starting_chips": 20, "hands_total": 4, "closing_ante": None}


def test_deal_sizes() -> None:
    cfg4 = four()
    # N=4: two players get 14, the dealer and the player on the dealer's right get 13.
    assert deal_sizes(cfg4, A) == {B: 14, C: 14, D: 13, A: 13}
    assert short_players(cfg4, B) == [A, B]
    cfg5 = GAME.configure(players=[1, 2, 3, 4, 5])
    assert deal_sizes(cfg5, 1) == {2: 11, 3: 11, 4: 11, 5: 11, 1: 10}
    assert short_players(cfg5, 3) == [3]
    for n in (3, 6):
        cfg = GAME.configure(players=list(range(1, n + 1)))
        assert short_players(cfg, 1) == []
        assert set(deal_sizes(cfg, 1).values()) == {54 // n}
    cfg7 = GAME.configure(players=list(range(1, 8)))
    assert sorted(deal_sizes(cfg7, 1).values()) == [7, 7, 8, 8, 8, 8, 8]
    cfg8 = GAME.configure(players=list(range(1, 9)))
    assert sorted(deal_sizes(cfg8, 1).values()) == [6, 6, 7, 7, 7, 7, 7, 7]
    for cfg in (cfg4, cfg5, cfg7, cfg8):
        assert sum(deal_sizes(cfg, 2).values()) == 54


def test_the_deal_and_first_dealer_rotate() -> None:
    cfg = GAME.configure(players=[A, B, C, D], first_dealer=C)
    state = GAME.play(cfg, [])
    assert state.next_hand is not None
    assert state.next_hand["dealer"] == C
    assert state.next_hand["short"] == [B, C]


def test_widow_pays_only_what_is_left() -> None:
    # Hand 1: A (short) ends with 1 chip: 20 - 2 ante - 12 passes - 5 cards.
    hand1 = {
        "winner": B,
        "results": [result(A, 12, 5), result(B, 0, 0), result(C, 0, 1), result(D, 0, 1)],
    }
    state = GAME.play(four(), [hand1])
    assert state.scores[A] == 1
    assert state.next_hand is not None
    # Hand 2 is dealt by B: A is short and owes 2, but holds only 1.
    assert state.next_hand["short"] == [A, B]
    assert rows(state.next_hand["ante"], "amount")[A] == 1
    hand2 = {
        "winner": C,
        "results": [result(A, 3, 4), result(B, 0, 2), result(C, 0, 0), result(D, 1, 1)],
    }
    state = GAME.play(four(), [hand1, hand2])
    hand = state.hands[1]
    assert rows(hand.extras["ante"], "paid")[A] == 1
    assert rows(hand.extras["chips"], "paid")[A] == 1
    assert hand.totals[A] == 0
    assert sum(hand.totals.values()) == 80


def test_early_end_after_the_passes_leaves_the_pot() -> None:
    cfg = GAME.configure(players=[1, 2, 3], options={"starting_chips": 3})
    hand = {"winner": 1, "results": [result(1, 5, 0), result(2, 5, 4), result(3, 0, 6)]}
    state = GAME.play(cfg, [hand])
    assert state.finished
    assert state.ended_by == "early"
    assert state.winners == (3,)
    assert state.scores == {1: 0, 2: 0, 3: 2}
    assert state.extras["pot"] == 7
    outcome = state.hands[0]
    # Nobody went out: the game stopped mid-hand and the pot was not awarded.
    assert outcome.winner is None
    assert outcome.input["winner"] == 1
    assert outcome.extras["early_end"] is True
    assert outcome.extras["pot"] == 7
    assert rows(outcome.extras["chips"], "received") == {1: 0, 2: 0, 3: 0}
    assert sum(outcome.totals.values()) + outcome.extras["pot"] == 9
    assert state.next_hand is None
    with pytest.raises(RuleError) as err:
        GAME.play(cfg, [hand, hand])
    assert err.value.message == "the game is over: only player 3 holds chips since hand 1"
    assert err.value.text({3: "Cy"}) == "The game is over: only Cy holds chips since hand 1"


def test_early_end_after_the_settlement() -> None:
    # With 1 chip each, the ante empties everyone; nobody holding chips is not an end,
    # so the hand goes on and B takes the pot, then B alone holds chips.
    cfg = four(starting_chips=1)
    hand = {
        "winner": B,
        "results": [result(A, 4, 3), result(B, 2, 0), result(C, 0, 1), result(D, 9, 9)],
    }
    state = GAME.play(cfg, [hand])
    outcome = state.hands[0]
    assert rows(outcome.extras["ante"], "paid") == {A: 1, B: 1, C: 1, D: 1}
    assert outcome.winner == B
    assert outcome.totals == {A: 0, B: 4, C: 0, D: 0}
    assert outcome.extras["early_end"] is True
    assert outcome.extras["pot"] == 0
    assert state.finished
    assert state.ended_by == "early"
    assert state.winners == (B,)


def test_early_end_at_the_next_ante() -> None:
    cfg = GAME.configure(players=[1, 2, 3], options={"starting_chips": 3})
    hand = {"winner": 1, "results": [result(1, 0, 0), result(2, 0, 1), result(3, 2, 5)]}
    state = GAME.play(cfg, [hand])
    assert state.hands[0].totals == {1: 8, 2: 1, 3: 0}
    assert state.hands[0].extras["early_end"] is False
    # Hand 2's ante takes player 2's last chip: only player 1 holds chips.
    assert state.finished
    assert state.ended_by == "early"
    assert state.winners == (1,)
    assert state.scores == {1: 7, 2: 0, 3: 0}
    assert state.extras["pot"] == 2
    assert state.extras["closing_ante"] == [
        {"player": 1, "paid": 1},
        {"player": 2, "paid": 1},
        {"player": 3, "paid": 0},
    ]
    assert state.next_hand is None
    with pytest.raises(RuleError) as err:
        GAME.play(cfg, [hand, hand])
    assert err.value.message == (
        "the game is over: after the ante of hand 2 only player 1 holds chips"
    )
    assert err.value.players == (1,)


def test_game_is_one_hand_per_dealer_and_ties_share_the_win() -> None:
    cfg = GAME.configure(players=[1, 2, 3])
    hands = [
        {"winner": w, "results": [result(p, 0, 0 if p == w else 1) for p in (1, 2, 3)]}
        for w in (1, 2, 3)
    ]
    state = GAME.play(cfg, hands[:2])
    assert not state.finished
    assert state.next_hand is not None
    assert state.next_hand["dealer"] == 3
    state = GAME.play(cfg, hands)
    assert [h.dealer for h in state.hands] == [1, 2, 3]
    assert state.finished
    assert state.ended_by == "hands"
    assert state.scores == {1: 20, 2: 20, 3: 20}
    assert state.winners == (1, 2, 3)
    assert [r.rank for r in state.standings] == [1, 1, 1]
    with pytest.raises(RuleError) as err:
        GAME.play(cfg, [*hands, hands[0]])
    assert err.value.message == "the game is over after hand 3 (one hand dealt by each player)"


def test_closing_early_ranks_by_chips() -> None:
    state = GAME.play(four(), [EXAMPLE], closed=True)
    assert state.finished
    assert state.ended_by == "closed"
    assert state.winners == (B,)
    assert [p.players for p in state.placements()] == [(B,), (C,), (A,), (D,)]
    with pytest.raises(RuleError) as err:
        GAME.play(four(), [], closed=True)
    assert err.value.field == "closed"


def test_input_is_normalised_in_seat_order() -> None:
    hand = {
        "winner": "2",
        "results": [
            {"player": 4, "passes": "3", "cards_left": "7"},
            {"player": 2},
            {"player": 3, "passes": 1, "cards_left": 3},
            {"player": 1, "passes": 2, "cards_left": 5},
        ],
    }
    state = GAME.play(four(), [hand])
    assert state.hands[0].input == EXAMPLE
    assert state.scores[B] == 46


def with_result(player: int, **changes: object) -> dict[str, Any]:
    hand: dict[str, Any] = {
        "winner": EXAMPLE["winner"],
        "results": [dict(r) for r in EXAMPLE["results"]],
    }
    for entry in hand["results"]:
        if entry["player"] == player:
            entry.update(changes)
            for key, value in list(entry.items()):
                if value is None:
                    del entry[key]
    return hand


@pytest.mark.parametrize(
    ("hand", "field", "words"),
    [
        ({"results": EXAMPLE["results"]}, "winner", "who went out"),
        ({"winner": 9, "results": EXAMPLE["results"]}, "winner", "not in this game"),
        ({"winner": B}, "results", "one entry per player"),
        ({"winner": B, "results": EXAMPLE["results"][:2]}, "results", "player 3: nothing entered"),
        (
            {"winner": B, "results": [*EXAMPLE["results"], result(A, 0, 1)]},
            "results",
            "player 1 is listed twice",
        ),
        (
            {"winner": B, "results": [*EXAMPLE["results"][:3], result(9, 0, 1)]},
            "results",
            "player 9 is not in this game",
        ),
        (with_result(B, cards_left=2), "results", "went out, so has 0 cards left"),
        (with_result(A, cards_left=0), "results", "only the player who went out"),
        (with_result(A, cards_left=None), "results", "give the cards left"),
        (with_result(A, cards_left=14), "results", "dealt 13 cards"),
        (with_result(C, cards_left=15), "results", "dealt 14 cards"),
        (with_result(C, passes=501), "results", "more than 500"),
        (with_result(C, passes=-1), "results", "cannot be negative"),
        (with_result(C, passes="many"), "results", "whole number"),
        ("B won", "non_field_errors", "must be an object"),
    ],
)
def test_bad_input_is_rejected(hand: Any, field: str, words: str) -> None:
    with pytest.raises(RuleError) as err:
        GAME.play(four(), [hand])
    assert err.value.field == field
    assert words in err.value.message


def test_cards_left_limit_follows_each_hands_deal() -> None:
    # In hand 2 (dealer B) player C is dealt 14: 14 left is allowed; A is short (13).
    hand2 = {
        "winner": D,
        "results": [result(A, 0, 13), result(B, 0, 1), result(C, 0, 14), result(D, 0, 0)],
    }
    state = GAME.play(four(), [EXAMPLE, hand2])
    assert state.hands[1].dealer == B
    with pytest.raises(RuleError) as err:
        GAME.play(four(), [{"winner": 1}, hand2])
    assert err.value.message.startswith("hand 1: ")
