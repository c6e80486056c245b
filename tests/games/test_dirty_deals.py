from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import CardError, GameConfig, RuleError
from games.cards import RANKS, SUITS
from games.dirty_deals import BOWER, DECK, DirtyDeals, claim_points, parse_suit
from games.registry import get_ruleset
from tests.games.helpers import assert_competition_ranks

GAME = DirtyDeals()
A, B, C, D = 1, 2, 3, 4


def four(**kwargs: Any) -> GameConfig:
    return GAME.configure(players=[A, B, C, D], **kwargs)


def claim(
    winner: int, suit: str, surplus: list[str] | None = None, holder: int | None = None
) -> dict[str, Any]:
    return {"winner": winner, "suit": suit, "surplus": surplus or [], "bower_holder": holder}


def test_metadata_and_deck() -> None:
    meta = get_ruleset("dirty-deals").metadata()
    assert meta["name"] == "Dirty Deals"
    assert (meta["min_players"], meta["max_players"]) == (4, 4)
    assert list(meta["options"]) == ["negotiation_minutes"]
    assert meta["options"]["negotiation_minutes"]["default"] == 3
    assert (
        meta["options"]["negotiation_minutes"]["min"],
        meta["options"]["negotiation_minutes"]["max"],
    ) == (1, 30)
    assert meta["variants"] == []
    assert sum(DECK.values()) == 24
    assert set(DECK.values()) == {1}
    assert "JK" not in DECK
    assert BOWER == {"H": "JD", "D": "JH", "C": "JS", "S": "JC"}
    table = [(row["card"], row["points"]) for row in GAME.card_points()]
    assert [points for _, points in table] == [9, -3, -1, 3]


@pytest.mark.parametrize("players", [[1, 2, 3], [1, 2, 3, 4, 5]])
def test_exactly_four_players(players: list[int]) -> None:
    with pytest.raises(RuleError) as err:
        GAME.configure(players=players)
    assert "exactly 4" in err.value.message


def test_no_options() -> None:
    with pytest.raises(RuleError) as err:
        four(options={"target": 11})
    assert err.value.field == "options"


# -- worked examples ------------------------------------------------------------------


def test_bower_among_the_surplus_costs_three() -> None:
    state = GAME.play(four(), [claim(A, "H", ["JD", "9C", "QS"])])
    hand = state.hands[0]
    assert hand.points == {A: 4, B: 0, C: 0, D: 0}
    assert hand.extras["claim_points"] == 4
    assert hand.extras["bower"] == "JD"
    assert hand.extras["suit"] == "H"


def test_another_player_holding_the_bower_gets_three() -> None:
    state = GAME.play(four(), [claim(A, "S", ["10H"], holder=C)])
    assert state.hands[0].points == {A: 8, B: 0, C: 3, D: 0}
    assert state.hands[0].extras["bower"] == "JC"


def test_claim_never_scores_below_zero() -> None:
    surplus = ["JS", "9H", "10H", "QH", "KH", "AH", "9D", "10D"]
    state = GAME.play(four(), [claim(A, "C", surplus)])
    assert state.hands[0].points[A] == 0
    assert claim_points(8, True) == 0
    assert claim_points(18, False) == 0


def rubber_example() -> list[dict[str, Any]]:
    return [
        claim(A, "H", ["9C", "10C"], holder=C),  # A 7, C 3
        claim(B, "S", ["9H", "10H", "QH"], holder=D),  # B 6, D 3
        # A claims for 2 while B holds the bower: A 9, B 9.
        claim(A, "H", ["9C", "10C", "QC", "KC", "AC", "9S", "10S"], holder=B),
        claim(A, "D", ["9C", "10C", "QC", "KC", "AC", "9S"], holder=C),  # A claims for 3
    ]


def test_rubber_tie_plays_on_then_resets() -> None:
    hands = rubber_example()
    state = GAME.play(four(), hands[:3])
    assert state.scores == {A: 9, B: 9, C: 3, D: 3}
    assert state.hands[2].points == {A: 2, B: 3, C: 0, D: 0}
    assert state.hands[2].extras["rubber_won_by"] is None
    assert state.extras["rubber"] == 1
    assert [(r.player, r.rank) for r in state.standings][:2] == [(A, 1), (B, 1)]

    state = GAME.play(four(), hands)
    last = state.hands[3]
    assert last.points[A] == 3
    # Hand totals are the scores as the hand ended, before the reset.
    assert last.totals == {A: 12, B: 9, C: 6, D: 3}
    assert last.extras["rubber"] == 1
    assert last.extras["rubber_won_by"] == A
    assert state.scores == {A: 0, B: 0, C: 0, D: 0}
    assert state.extras["rubber"] == 2
    assert state.extras["rubbers"] == [
        {"player": A, "rubbers": 1},
        {"player": B, "rubbers": 0},
        {"player": C, "rubbers": 0},
        {"player": D, "rubbers": 0},
    ]
    assert not state.finished
    assert state.next_hand == {"number": 5, "dealer": A, "rubber": 2, "bowers": BOWER}


def test_first_to_two_rubbers_wins_the_match() -> None:
    hands = [
        *rubber_example(),
        claim(C, "C", holder=D),
        claim(B, "D", ["9S"], holder=A),
        claim(A, "S", holder=D),
    ]
    state = GAME.play(four(), hands)
    assert [h.extras["rubber"] for h in state.hands] == [1, 1, 1, 1, 2, 3, 3]
    assert [h.extras["rubber_won_by"] for h in state.hands][4:] == [C, None, A]
    assert state.finished
    assert state.ended_by == "match"
    assert state.winners == (A,)
    assert state.extras["rubber"] == 3
    assert [(r.player, r.score, r.rank, r.extras) for r in state.standings] == [
        (A, 0, 1, {"rubbers": 2}),
        (C, 0, 2, {"rubbers": 1}),
        (B, 0, 3, {"rubbers": 0}),
        (D, 0, 3, {"rubbers": 0}),
    ]
    assert state.standings[0].as_dict() == {"player": A, "score": 0, "rank": 1, "rubbers": 2}
    assert state.next_hand is None
    with pytest.raises(RuleError) as err:
        GAME.play(four(), [*hands, claim(D, "H", holder=A)])
    assert "match is over" in err.value.message


def test_standings_rank_rubbers_then_points() -> None:
    hands = [
        claim(A, "H", holder=B),
        claim(B, "H", ["9S", "10S"], holder=D),
        claim(C, "S", ["9H"], holder=D),
    ]
    state = GAME.play(four(), hands)
    assert state.extras["rubbers"][0] == {"player": A, "rubbers": 1}
    assert [(r.player, r.score, r.rank) for r in state.standings] == [
        (A, 0, 1),
        (C, 8, 2),
        (B, 7, 3),
        (D, 6, 4),
    ]
    closed = GAME.play(four(), hands, closed=True)
    assert closed.finished
    assert closed.ended_by == "closed"
    assert closed.winners == (A,)
    with pytest.raises(RuleError) as err:
        GAME.play(four(), [], closed=True)
    assert err.value.field == "closed"


def test_deal_rotates() -> None:
    state = GAME.play(
        four(first_dealer=C), [claim(A, "H", holder=B), claim(B, "H", ["9S"], holder=C)]
    )
    assert [h.dealer for h in state.hands] == [C, D]
    assert state.next_hand is not None
    assert state.next_hand["dealer"] == A


# -- input forms ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spelling", "suit"),
    [
        ("H", "H"),
        ("h", "H"),
        ("♥", "H"),
        ("♡", "H"),
        ("hearts", "H"),
        ("Heart", "H"),
        (" SPADES ", "S"),
        ("♣", "C"),
        ("diamond", "D"),
        ("c", "C"),
    ],
)
def test_suit_spellings(spelling: str, suit: str) -> None:
    assert parse_suit(spelling) == suit


@pytest.mark.parametrize("bad", ["X", "", "stars", 3, None, "HS"])
def test_bad_suit(bad: object) -> None:
    with pytest.raises(RuleError) as err:
        parse_suit(bad)
    assert err.value.field == "suit"


def test_surplus_count_form() -> None:
    raw = {
        "winner": A,
        "suit": "hearts",
        "surplus_count": "3",
        "bower_in_surplus": True,
        "bower_holder": None,
    }
    state = GAME.play(four(), [raw])
    assert state.hands[0].points[A] == 4
    assert state.hands[0].input == {
        "winner": A,
        "suit": "H",
        "surplus_count": 3,
        "bower_in_surplus": True,
        "bower_holder": None,
    }
    raw = {"winner": B, "suit": "S", "surplus_count": 1, "bower_holder": C}
    state = GAME.play(four(), [raw])
    assert state.hands[0].points == {A: 0, B: 8, C: 3, D: 0}
    assert state.hands[0].input["bower_in_surplus"] is False


def test_clean_claim_is_stored_as_an_empty_surplus() -> None:
    for raw in (
        {"winner": A, "suit": "♠", "bower_holder": B},
        {"winner": A, "suit": "S", "surplus_count": 0, "bower_holder": B},
        {"winner": A, "suit": "S", "surplus": "", "bower_holder": "2"},
    ):
        state = GAME.play(four(), [raw])
        assert state.hands[0].input == {
            "winner": A,
            "suit": "S",
            "surplus": [],
            "bower_holder": B,
        }
        assert state.hands[0].points[A] == 9


def test_surplus_cards_are_normalised() -> None:
    raw = {
        "winner": "1",
        "suit": "d",
        "surplus": "jh, t♣ 9s",
        "bower_holder": None,
        "surplus_count": 3,
        "bower_in_surplus": "true",
    }
    state = GAME.play(four(), [raw])
    assert state.hands[0].input == {
        "winner": A,
        "suit": "D",
        "surplus": ["JH", "10C", "9S"],
        "bower_holder": None,
    }
    assert state.hands[0].points[A] == 4


@pytest.mark.parametrize(
    ("raw", "field", "words"),
    [
        ({"suit": "H"}, "winner", "who claimed"),
        ({"winner": A}, "suit", "which suit"),
        ({"winner": A, "suit": "X"}, "suit", "not a suit"),
        (claim(A, "H", ["QH"]), "surplus", "QH is one of the six hearts"),
        (claim(A, "H", ["8C"]), "surplus", "8C is not in the 24-card deck"),
        (claim(A, "H", ["JK"]), "surplus", "JK is not in the 24-card deck"),
        (claim(A, "H", ["ZZ"]), "surplus", "'ZZ'"),
        (claim(A, "H", ["9C", "9c"]), "surplus", "9C is entered 2 times"),
        ({"winner": A, "suit": "H", "surplus": 5}, "surplus", "list of card codes"),
        (claim(A, "H", ["JD"], holder=B), "bower_holder", "both"),
        (claim(A, "H", ["9C"], holder=A), "bower_holder", "claimant"),
        (claim(A, "H", ["9C"], holder=9), "bower_holder", "not in this game"),
        (
            {
                "winner": A,
                "suit": "H",
                "surplus_count": 2,
                "bower_in_surplus": True,
                "bower_holder": C,
            },
            "bower_holder",
            "both",
        ),
        (
            {"winner": A, "suit": "H", "surplus_count": 0, "bower_in_surplus": True},
            "surplus_count",
            "at least 1",
        ),
        ({"winner": A, "suit": "H", "surplus_count": 19}, "surplus_count", "more than 18"),
        ({"winner": A, "suit": "H", "surplus_count": -1}, "surplus_count", "negative"),
        (
            {"winner": A, "suit": "H", "surplus_count": 1, "bower_in_surplus": "maybe"},
            "bower_in_surplus",
            "true or false",
        ),
        (
            {"winner": A, "suit": "H", "surplus": ["9C"], "surplus_count": 2},
            "surplus_count",
            "but 1 is listed",
        ),
        (
            {"winner": A, "suit": "H", "surplus": ["9C"], "bower_in_surplus": True},
            "bower_in_surplus",
            "disagrees",
        ),
        ("A won", "non_field_errors", "must be an object"),
    ],
)
def test_bad_input_is_rejected(raw: Any, field: str, words: str) -> None:
    with pytest.raises(RuleError) as err:
        GAME.play(four(), [raw])
    assert err.value.field == field
    assert words in err.value.message


def test_error_in_an_earlier_hand_names_the_hand() -> None:
    with pytest.raises(RuleError) as err:
        GAME.play(four(), [claim(A, "H", ["AH"]), claim(B, "S", holder=C)])
    assert err.value.message.startswith("hand 1: ")


OUTSIDE_DECK = [
    f"{r}{s}" for r in RANKS if r not in ("9", "10", "J", "Q", "K", "A") for s in SUITS
] + ["JK"]


@given(code=st.sampled_from(OUTSIDE_DECK))
def test_cards_outside_the_deck_are_rejected(code: str) -> None:
    with pytest.raises(CardError) as err:
        GAME.play(four(), [claim(A, "H", ["9C", code])])
    assert code in err.value.message


@given(code=st.sampled_from(sorted(DECK)))
def test_a_card_cannot_be_listed_twice(code: str) -> None:
    suit = "H" if not code.endswith("H") else "S"
    with pytest.raises(RuleError) as err:
        GAME.play(four(), [claim(A, suit, [code, code])])
    assert code in err.value.message


@st.composite
def claims(draw: st.DrawFn) -> dict[str, Any]:
    winner = draw(st.sampled_from([A, B, C, D]))
    count = draw(st.integers(0, 18))
    # A surplus of 18 is every card beside the six claimed: the bower among them.
    bower_in = count == 18 or (count > 0 and draw(st.booleans()))
    # The bower is in the surplus or with another player: every card is in a hand.
    holder = None if bower_in else draw(st.sampled_from([p for p in (A, B, C, D) if p != winner]))
    return {
        "winner": winner,
        "suit": draw(st.sampled_from("SHDC")),
        "surplus_count": count,
        "bower_in_surplus": bower_in,
        "bower_holder": holder,
    }


@settings(max_examples=150, deadline=None)
@given(st.lists(claims(), max_size=40))
def test_rubbers_and_match_follow_the_hands(raw_hands: list[dict[str, Any]]) -> None:
    cfg = four()
    hands: list[dict[str, Any]] = []
    for raw in raw_hands:
        if GAME.play(cfg, hands).finished:
            break
        hands.append(raw)
    state = GAME.play(cfg, hands)
    scores = dict.fromkeys(cfg.players, 0)
    rubbers = dict.fromkeys(cfg.players, 0)
    rubber = 1
    for raw, outcome in zip(hands, state.hands, strict=True):
        expected = claim_points(raw["surplus_count"], raw["bower_in_surplus"])
        assert 0 <= expected <= 9
        assert outcome.points[raw["winner"]] == expected
        assert sum(outcome.points.values()) == expected + (3 if raw["bower_holder"] else 0)
        assert outcome.extras["rubber"] == rubber
        for p in cfg.players:
            scores[p] += outcome.points[p]
        assert dict(outcome.totals) == scores
        top = max(scores.values())
        leaders = [p for p in cfg.players if scores[p] == top]
        if top >= 9 and len(leaders) == 1:
            assert outcome.extras["rubber_won_by"] == leaders[0]
            rubbers[leaders[0]] += 1
            scores = dict.fromkeys(cfg.players, 0)
            rubber += 1
        else:
            assert outcome.extras["rubber_won_by"] is None
    assert dict(state.scores) == scores
    assert state.extras["rubbers"] == [{"player": p, "rubbers": rubbers[p]} for p in cfg.players]
    assert state.finished == (max(rubbers.values()) == 2)
    if state.finished:
        assert state.extras["rubber"] == rubber - 1
        assert [p for p in cfg.players if rubbers[p] == 2] == list(state.winners)
    else:
        assert state.extras["rubber"] == rubber
    assert_competition_ranks(state.standings, key=lambda row: (-row.extras["rubbers"], -row.score))


# -- where the bower is ------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        claim(A, "H"),
        claim(A, "H", ["9C", "QS"]),
        {"winner": A, "suit": "H", "surplus_count": 2, "bower_holder": None},
        {"winner": A, "suit": "H", "surplus_count": 2, "bower_in_surplus": False},
        {"winner": A, "suit": "H", "surplus": ["9C"], "bower_holder": ""},
    ],
)
def test_a_bower_in_nobodys_hand_is_refused(raw: dict[str, Any]) -> None:
    # Every card is in someone's hand (tricks merge into the winner's), so a bower
    # that is not surplus is another player's: "nobody else" would lose their +3.
    with pytest.raises(RuleError) as err:
        GAME.play(four(), [raw])
    assert err.value.field == "bower_holder"
    assert err.value.message == (
        "the bower JD is not in the claimant's surplus, so another player holds it: "
        "say who (or, if the claimant holds it, add it to the surplus)"
    )


@pytest.mark.parametrize(
    ("raw", "points"),
    [
        (claim(A, "H", ["JD", "9C"]), {A: 5, B: 0, C: 0, D: 0}),
        (claim(A, "H", ["9C"], holder=D), {A: 8, B: 0, C: 0, D: 3}),
        (
            {"winner": A, "suit": "H", "surplus_count": 2, "bower_in_surplus": True},
            {A: 5, B: 0, C: 0, D: 0},
        ),
    ],
)
def test_the_bower_is_in_the_surplus_or_with_another_player(
    raw: dict[str, Any], points: dict[int, int]
) -> None:
    assert GAME.play(four(), [raw]).hands[0].points == points


def test_a_bad_surplus_is_not_also_blamed_on_the_bower() -> None:
    with pytest.raises(RuleError) as err:
        GAME.play(four(), [claim(A, "H", ["ZZ"])])
    assert [p.field for p in err.value.problems] == ["surplus"]
