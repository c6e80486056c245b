from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import CardError, GameConfig, RuleError
from games.cards import parse_uno, uno_deck
from games.dirty_uno import DirtyUno, card_points
from games.registry import get_ruleset
from tests.games.helpers import assert_competition_ranks

GAME = DirtyUno()
A, B, C = 1, 2, 3


def three(scoring: str = "standard") -> GameConfig:
    return GAME.configure(players=[A, B, C], options={"scoring": scoring})


def hand(winner: int, **left: Any) -> dict[str, Any]:
    """``left`` maps "p2" to a list of cards or to counted points."""
    results = []
    for key, value in left.items():
        player = int(key[1:])
        if isinstance(value, list):
            results.append({"player": player, "cards": value})
        else:
            results.append({"player": player, "points": value})
    return {"winner": winner, "results": results}


def test_metadata() -> None:
    meta = get_ruleset("dirty-uno").metadata()
    assert meta["name"] == "Dirty UNO"
    assert (meta["min_players"], meta["max_players"]) == (2, 10)
    assert meta["options"]["scoring"]["default"] == "standard"
    assert meta["options"]["scoring"]["choices"] == ["standard", "penalty"]
    assert meta["wins_with"] == "high"
    assert meta["wins_with_by_option"] == {"scoring": {"standard": "high", "penalty": "low"}}
    assert GAME.wins_with_for({"scoring": "penalty"}) == "low"
    assert GAME.wins_with_for({"scoring": "standard"}) == "high"
    assert GAME.wins_with_for(None) == "high"


@pytest.mark.parametrize(
    ("code", "points"),
    [
        ("R1", 1),
        ("G2", 2),
        ("B3", 3),
        ("Y4", 4),
        ("R5", 5),
        ("G6", 6),
        ("B8", 8),
        ("Y9", 9),
        ("R0", 50),
        ("G7", 50),
        ("W", 50),
        ("W+4", 50),
        ("B+2", 20),
        ("YS", 20),
        ("RR", 20),
    ],
)
def test_card_points(code: str, points: int) -> None:
    assert card_points(parse_uno(code)) == points


def test_card_points_table() -> None:
    table = {row["card"]: row["points"] for row in GAME.card_points()}
    assert table == {
        "1, 2, 3, 4, 5, 6, 8, 9": "face value",
        "0 and 7": 50,
        "Wild, Wild Draw Four": 50,
        "Draw Two, Reverse, Skip": 20,
    }


# -- standard scoring: worked examples -----------------------------------------------


def test_standard_winner_past_500_wins() -> None:
    cfg = three()
    hands = [hand(A, p2=480, p3=0), hand(A, p2=["R5", "G7"], p3=["W+4"])]
    state = GAME.play(cfg, hands)
    last = state.hands[1]
    assert last.points == {A: 105, B: 0, C: 0}
    assert last.totals == {A: 585, B: 0, C: 0}
    assert state.finished
    assert state.ended_by == "score"
    assert state.winners == (A,)
    assert state.standings[0].player == A
    assert state.next_hand is None
    with pytest.raises(RuleError) as err:
        GAME.play(cfg, [*hands, hand(B, p1=1, p3=1)])
    assert "over" in err.value.message


def test_standard_exactly_500_resets_to_0() -> None:
    state = GAME.play(three(), [hand(A, p2=450, p3=0), hand(A, p2=["W"], p3=[])])
    last = state.hands[1]
    assert last.points[A] == 50
    assert last.totals[A] == 0
    assert last.extras["resets"] == [A]
    assert state.hands[0].extras["resets"] == []
    assert state.scores[A] == 0
    assert not state.finished
    assert state.next_hand is not None
    assert state.next_hand["number"] == 3


def test_standard_action_cards_and_zero() -> None:
    state = GAME.play(
        three(), [hand(A, p2=420, p3=0), hand(A, p2=["B+2", "YS", "RR"], p3=["G9", "Y0"])]
    )
    assert state.hands[1].points[A] == 119
    assert state.scores[A] == 539
    assert state.finished
    assert state.winners == (A,)


# -- penalty scoring: worked examples ------------------------------------------------


def penalty_start() -> list[dict[str, Any]]:
    """Two hands that leave A 470, B 300, C 100 under penalty scoring."""
    return [hand(C, p1=470, p2=300), hand(A, p2=0, p3=100)]


def test_penalty_scores_own_cards() -> None:
    cfg = three("penalty")
    hands = [*penalty_start(), hand(C, p1=["Y3", "R+2"], p2=["W+4", "G4"])]
    state = GAME.play(cfg, hands)
    assert state.hands[1].totals == {A: 470, B: 300, C: 100}
    assert state.hands[2].points == {A: 23, B: 54, C: 0}
    assert state.scores == {A: 493, B: 354, C: 100}
    assert not state.finished
    # Lowest leads.
    assert [r.player for r in state.standings] == [C, B, A]
    assert state.extras["wins_with"] == "low"


def test_penalty_game_over_lowest_wins() -> None:
    cfg = three("penalty")
    hands = [
        *penalty_start(),
        hand(C, p1=["Y3", "R+2"], p2=["W+4", "G4"]),
        hand(B, p1=["G7"], p3=["R1"]),
    ]
    state = GAME.play(cfg, hands)
    assert state.scores == {A: 543, B: 354, C: 101}
    assert state.finished
    assert state.ended_by == "score"
    assert state.winners == (C,)
    assert [(r.player, r.rank) for r in state.standings] == [(C, 1), (B, 2), (A, 3)]


def test_penalty_exactly_500_resets_to_0() -> None:
    state = GAME.play(
        three("penalty"), [hand(B, p1=480, p3=0), hand(B, p1=["B8", "R6", "Y6"], p3=["R1"])]
    )
    assert state.hands[1].points[A] == 20
    assert state.scores == {A: 0, B: 0, C: 1}
    assert state.hands[1].extras["resets"] == [A]


def test_penalty_ties_share_the_win() -> None:
    state = GAME.play(three("penalty"), [hand(A, p2=501, p3=0)])
    assert state.finished
    assert state.winners == (A, C)
    assert [r.rank for r in state.standings] == [1, 1, 3]


def test_standard_close_ranks_by_score_descending() -> None:
    state = GAME.play(three(), [hand(A, p2=10, p3=0), hand(B, p1=10, p3=0)], closed=True)
    assert state.ended_by == "closed"
    assert state.winners == (A, B)
    assert [(r.player, r.score, r.rank) for r in state.standings] == [
        (A, 10, 1),
        (B, 10, 1),
        (C, 0, 3),
    ]
    assert state.extras == {"scoring": "standard", "wins_with": "high", "target": 500}
    with pytest.raises(RuleError) as err:
        GAME.play(three(), [], closed=True)
    assert err.value.field == "closed"


def test_next_hand_reminds_about_penalty_cards() -> None:
    cfg = GAME.configure(players=[A, B, C], first_dealer=B)
    state = GAME.play(cfg, [hand(A, p2=5, p3=5)])
    assert state.hands[0].dealer == B
    assert state.next_hand is not None
    assert state.next_hand["dealer"] == C
    reminder = state.next_hand["reminder"]
    for words in ("Draw Two", "Wild Draw Four", "next player", "previous player", "0"):
        assert words in reminder


def test_input_is_normalised() -> None:
    state = GAME.play(
        three(),
        [
            {
                "winner": "1",
                "results": [{"player": 3, "cards": "w+4, g7"}, {"player": 2, "points": "12"}],
            }
        ],
    )
    assert state.hands[0].input == {
        "winner": 1,
        "results": [{"player": 2, "points": 12}, {"player": 3, "cards": ["W+4", "G7"]}],
    }
    assert state.scores[A] == 112


def test_cards_without_colours_score_as_with_them() -> None:
    # The spec's example (B+2 YS RR and G9 Y0 against 420) with no colours reported.
    hands = [hand(A, p2=420, p3=0), hand(A, p2=["+2", "S", "R"], p3=["9", "0"])]
    state = GAME.play(three(), hands)
    assert state.hands[1].points[A] == 119
    assert state.scores[A] == 539
    assert state.finished
    penalty = GAME.play(three("penalty"), [hand(C, p1=["3", "+2"], p2=["W+4", "g4"])])
    assert penalty.hands[0].points == {A: 23, B: 54, C: 0}


def test_a_value_alone_is_stored_without_a_colour() -> None:
    state = GAME.play(three(), [hand(A, p2=["7", "skip", "r", "RR", "d2"], p3=["w+4", "0"])])
    assert state.hands[0].input["results"] == [
        {"player": B, "cards": ["7", "S", "R", "RR", "+2"]},
        {"player": C, "cards": ["W+4", "0"]},
    ]
    assert state.hands[0].points[A] == 50 + 20 + 20 + 20 + 20 + 50 + 50
    again = GAME.play(three(), [state.hands[0].input])
    assert again.hands[0].input == state.hands[0].input


def test_five_zeros_without_colours_are_rejected_naming_the_zero() -> None:
    # The deck holds one 0 per colour: four in all.
    with pytest.raises(CardError) as err:
        GAME.play(three(), [hand(A, p2=["0", "0", "0"], p3=["0", "0"])])
    assert err.value.field == "results"
    assert err.value.message == (
        "0 is entered 5 times, but the 108-card UNO deck holds only 4 zeros"
    )
    GAME.play(three(), [hand(A, p2=["0", "0"], p3=["0", "0"])])


def test_zeros_with_and_without_colours_together_over_the_deck_are_rejected() -> None:
    with pytest.raises(CardError) as err:
        GAME.play(three(), [hand(A, p2=["0", "0", "R0"], p3=["0", "G0"])])
    assert "0 is entered 5 times (0 ×3, R0, G0)" in err.value.message
    assert "only 4 zeros" in err.value.message
    GAME.play(three(), [hand(A, p2=["0", "R0"], p3=["0", "G0"])])
    # A coloured card over its own copies is named even with room for its value.
    with pytest.raises(CardError, match="R0 is entered 2 times"):
        GAME.play(three(), [hand(A, p2=["R0"], p3=["R0"])])


def test_nine_reverses_without_colours_are_rejected() -> None:
    GAME.play(three(), [hand(A, p2=["R"] * 4, p3=["R"] * 3 + ["RR"])])
    with pytest.raises(CardError, match="only 8 Reverses"):
        GAME.play(three(), [hand(A, p2=["R"] * 5, p3=["R"] * 3 + ["RR"])])


@pytest.mark.parametrize(
    ("raw", "field", "words"),
    [
        (hand(A, p2=["R5"]), "results", "player 3: nothing entered"),
        (hand(A, p2=["X9"], p3=[]), "results", "'X9'"),
        (hand(A, p2=["R0"], p3=["R0"]), "results", "R0"),
        (hand(A, p2=["W", "W", "W"], p3=["W", "W"]), "results", "W is entered 5 times"),
        (hand(A, p1=["R1"], p2=[], p3=[]), "results", "went out"),
        (hand(A, p2=-1, p3=0), "results", "negative"),
        ({"winner": 7, "results": []}, "winner", "not in this game"),
        ({"results": []}, "winner", "who went out"),
    ],
)
def test_bad_input_is_rejected(raw: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(RuleError) as err:
        GAME.play(three(), [raw])
    assert err.value.field == field
    assert words in err.value.message


def test_error_in_an_earlier_hand_names_the_hand() -> None:
    with pytest.raises(CardError) as err:
        GAME.play(three(), [hand(A, p2=["Q5"], p3=[]), hand(B, p1=0, p3=0)])
    assert err.value.message.startswith("hand 1: ")


@settings(max_examples=60, deadline=None)
@given(code=st.sampled_from(sorted(uno_deck())), extra=st.integers(1, 3))
def test_more_copies_than_the_deck_are_rejected(code: str, extra: int) -> None:
    copies = uno_deck()[code] + extra
    cards_b = [code] * (copies // 2)
    cards_c = [code] * (copies - copies // 2)
    with pytest.raises(CardError) as err:
        GAME.play(three(), [hand(A, p2=cards_b, p3=cards_c)])
    assert code in err.value.message
    assert err.value.field == "results"
    # Exactly as many copies as the deck holds is fine.
    allowed = uno_deck()[code]
    GAME.play(three(), [hand(A, p2=[code] * allowed, p3=[])])


@settings(max_examples=150, deadline=None)
@given(
    scoring=st.sampled_from(["standard", "penalty"]),
    n=st.integers(2, 6),
    plays=st.lists(
        st.tuples(
            st.integers(0, 9),
            st.lists(st.sampled_from([0, 5, 20, 50, 100, 250, 500]), min_size=10, max_size=10),
        ),
        max_size=30,
    ),
)
def test_scores_follow_the_hands(scoring: str, n: int, plays: list[tuple[int, list[int]]]) -> None:
    players = list(range(1, n + 1))
    cfg = GAME.configure(players=players, options={"scoring": scoring})
    hands: list[dict[str, Any]] = []
    for pick, amounts in plays:
        if GAME.play(cfg, hands).finished:
            break
        winner = players[pick % n]
        hands.append(
            {
                "winner": winner,
                "results": [
                    {"player": p, "points": amounts[i]}
                    for i, p in enumerate(players)
                    if p != winner
                ],
            }
        )
    state = GAME.play(cfg, hands)
    before = dict.fromkeys(players, 0)
    for outcome in state.hands:
        assert outcome.winner is not None
        assert outcome.points[outcome.winner] >= 0
        for p in players:
            landed = before[p] + outcome.points[p]
            # Exactly 500 never stays on the sheet.
            assert outcome.totals[p] != 500
            if landed == 500:
                assert outcome.totals[p] == 0
                assert p in outcome.extras["resets"]
            else:
                assert outcome.totals[p] == landed
                assert p not in outcome.extras["resets"]
        if scoring == "standard":
            assert all(outcome.points[p] == 0 for p in players if p != outcome.winner)
        else:
            assert outcome.points[outcome.winner] == 0
        before = dict(outcome.totals)
    over = any(s > 500 for s in state.scores.values())
    assert state.finished == over
    if scoring == "penalty":
        assert_competition_ranks(state.standings, key=lambda row: row.score)
    else:
        assert_competition_ranks(state.standings, key=lambda row: -row.score)
    if over:
        best = state.standings[0].score
        assert state.winners == tuple(r.player for r in state.standings if r.score == best)
        if scoring == "standard":
            assert state.scores[state.winners[0]] > 500
            assert len(state.winners) == 1


UNO_VALUES = [*"0123456789", "S", "R", "+2"]


@settings(max_examples=60, deadline=None)
@given(value=st.sampled_from(UNO_VALUES), extra=st.integers(1, 3), coloured=st.integers(0, 2))
def test_more_cards_of_a_value_than_the_deck_are_rejected(
    value: str, extra: int, coloured: int
) -> None:
    total = sum(copies for code, copies in uno_deck().items() if code[1:] == value)
    # Some of them given as a red card, the rest without a colour.
    red = [f"R{value}"] * min(coloured, uno_deck()[f"R{value}"])
    alone = [value] * (total + extra - len(red))
    cards = red + alone
    with pytest.raises(CardError) as err:
        GAME.play(three(), [hand(A, p2=cards[::2], p3=cards[1::2])])
    assert f"{value} is entered {total + extra} times" in err.value.message
    assert f"only {total} " in err.value.message
    fine = red + [value] * (total - len(red))
    GAME.play(three(), [hand(A, p2=fine[::2], p3=fine[1::2])])
