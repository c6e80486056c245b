"""Dirt: the spec's worked examples and the invariants of its scoring."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import CardError, RuleError, get_ruleset
from games.cards import parse_french
from games.dirt import DIRT_RANKS, card_points, default_decks

DIRT = get_ruleset("dirt")
P1, P2, P3, P4 = 1, 2, 3, 4
FILLER = {"winner": P1, "results": [{"player": p, "points": 0} for p in (P2, P3, P4)]}


def hand(winner: int, **held: list[str] | int) -> dict:
    results = []
    for key, value in held.items():
        player = int(key[1:])
        results.append(
            {"player": player, "points": value}
            if isinstance(value, int)
            else {"player": player, "cards": value}
        )
    return {"winner": winner, "results": results}


HAND_2 = hand(P1, p2=["JK", "4H", "4S", "KD"], p3=["AS", "7C", "10D", "3H"], p4=["9S", "2C", "JD"])


def play(hands: list[dict], **config: object):
    cfg = DIRT.configure(players=[P1, P2, P3, P4], **config)  # type: ignore[arg-type]
    return DIRT.play(cfg, hands)


def test_hand_two_of_baby_scores_the_cards_left_with_four_as_dirt() -> None:
    state = play([FILLER, HAND_2])
    second = state.hands[1]
    assert second.extras["dirt_rank"] == "4"
    assert dict(second.points) == {P1: 0, P2: 101, P3: 26, P4: 12}


def test_ten_points_option_scores_a_ten_at_face_value() -> None:
    state = play([FILLER, HAND_2], options={"ten_points": 10})
    assert state.hands[1].points[P3] == 35


def test_sevens_are_dirt_in_the_last_hand_of_baby() -> None:
    fillers = [FILLER] * 5
    state = play([*fillers, hand(P1, p2=["7H", "7D", "6S"], p3=0, p4=0)])
    assert state.hands[5].extras["dirt_rank"] == "7"
    assert state.hands[5].points[P2] == 56


def test_partner_dirt_team_of_the_player_who_went_out_scores_zero() -> None:
    state = play([FILLER, HAND_2], teams=[[P1, P3], [P2, P4]])
    assert state.hands[1].team_points == (0, 113)
    rows = [row.as_dict() for row in state.standings]
    assert rows[0] == {"team": 0, "players": [P1, P3], "score": 0, "rank": 1}
    assert rows[1] == {"team": 1, "players": [P2, P4], "score": 113, "rank": 2}


def test_four_aces_of_spades_with_three_decks_is_rejected_naming_the_card() -> None:
    bad = hand(P1, p2=["AS", "AS"], p3=["AS"], p4=["AS"])
    with pytest.raises(CardError, match="AS"):
        play([bad])


def test_seven_jokers_with_three_decks_is_rejected() -> None:
    bad = hand(P1, p2=["JK"] * 3, p3=["JK"] * 2, p4=["JK"] * 2)
    with pytest.raises(CardError, match=r"JK.*7 times.*only 6"):
        play([bad])


def test_cards_given_by_rank_alone_score_as_with_their_suits() -> None:
    # Suits score nothing: the worked example with no suits reported scores the same.
    no_suits = hand(P1, p2=["JK", "4", "4", "K"], p3=["A", "7", "10", "3"], p4=["9", "2", "J"])
    mixed = hand(P1, p2=["JK", "4H", "4", "KD"], p3=["a", "7C", "t", "3"], p4=["9S", "2", "j"])
    expected = dict(play([FILLER, HAND_2]).hands[1].points)
    assert expected == {P1: 0, P2: 101, P3: 26, P4: 12}
    assert dict(play([FILLER, no_suits]).hands[1].points) == expected
    assert dict(play([FILLER, mixed]).hands[1].points) == expected


def test_a_rank_alone_is_stored_without_a_suit() -> None:
    state = play([hand(P1, p2=["4", "t", "k", "4h", "jk"], p3=0, p4=0)])
    assert state.hands[0].input["results"][0] == {
        "player": P2,
        "cards": ["4", "10", "K", "4H", "JK"],
    }
    # Stored input plays back to the same hand.
    again = play([state.hands[0].input])
    assert again.hands[0].input == state.hands[0].input
    assert again.hands[0].points == state.hands[0].points


def test_thirteen_fours_without_suits_with_three_decks_is_rejected_naming_the_four() -> None:
    bad = hand(P1, p2=["4"] * 5, p3=["4"] * 4, p4=["4"] * 4)
    with pytest.raises(CardError) as err:
        play([bad])
    assert err.value.field == "results"
    assert err.value.message == (
        "4 is entered 13 times, but 3 decks with jokers hold only 12 fours"
    )
    # Twelve are fine: three decks hold four suits of three fours.
    play([hand(P1, p2=["4"] * 4, p3=["4"] * 4, p4=["4"] * 4)])


def test_fours_with_and_without_suits_together_over_the_decks_are_rejected() -> None:
    bad = hand(P1, p2=["4S", "4S", "4H"], p3=["4"] * 5, p4=["4"] * 5)
    with pytest.raises(CardError) as err:
        play([bad])
    assert "4 is entered 13 times (4S ×2, 4H, 4 ×10)" in err.value.message
    assert "only 12 fours" in err.value.message
    play([hand(P1, p2=["4S", "4S", "4H"], p3=["4"] * 5, p4=["4"] * 4)])


def test_a_suit_over_the_decks_is_rejected_even_with_room_for_the_rank() -> None:
    bad = hand(P1, p2=["4S", "4S"], p3=["4S", "4S"], p4=["4"])
    with pytest.raises(CardError, match=r"4S is entered 4 times, but 3 decks with jokers hold"):
        play([bad])


def test_a_bad_rank_alone_is_named() -> None:
    with pytest.raises(CardError) as err:
        play([hand(P1, p2=["11"], p3=0, p4=0)])
    assert "'11'" in err.value.message


def test_decks_default_by_player_count() -> None:
    assert [default_decks(n) for n in (3, 4, 6, 7, 12)] == [2, 3, 3, 4, 4]
    cfg = DIRT.configure(players=[1, 2, 3])
    assert cfg.options["decks"] == 2


def test_game_ends_after_the_variants_last_hand_lowest_total_wins() -> None:
    state = play(
        [hand(P1, p2=5, p3=10, p4=20), hand(P2, p1=30, p3=1, p4=0), hand(P3, p1=0, p2=0, p4=0)],
        variant="tiny-baby-up",
    )
    assert state.finished
    assert state.next_hand is None
    assert state.winners == (P2,)
    assert [(r.player, r.score, r.rank) for r in state.standings] == [
        (P2, 5, 1),
        (P3, 11, 2),
        (P4, 20, 3),
        (P1, 30, 4),
    ]


def test_equal_lowest_totals_share_the_win() -> None:
    state = play(
        [hand(P1, p2=5, p3=5, p4=9), hand(P4, p1=5, p2=0, p3=0), hand(P1, p2=0, p3=0, p4=0)],
        variant="tiny-baby-down",
    )
    assert set(state.winners) == {P1, P2, P3}
    assert [r.rank for r in state.standings] == [1, 1, 1, 4]


def test_a_hand_after_the_last_is_refused() -> None:
    with pytest.raises(RuleError, match="over after hand 3"):
        play([FILLER] * 4, variant="tiny-baby-up")


def test_dealer_rotates_clockwise_from_the_first_dealer() -> None:
    state = play([FILLER, FILLER, FILLER], first_dealer=P3)
    assert [h.dealer for h in state.hands] == [P3, P4, P1]
    assert state.next_hand is not None
    assert state.next_hand["dealer"] == P2


@pytest.mark.parametrize(
    ("bad", "field", "message"),
    [
        ({"results": []}, "winner", "who went out"),
        ({"winner": 9, "results": []}, "winner", "not in this game"),
        (hand(P1, p2=3, p3=4), "results", "nothing entered"),
        (
            {
                "winner": P1,
                "results": [
                    {"player": P2, "points": 1},
                    {"player": P2, "points": 1},
                    {"player": P3, "points": 0},
                    {"player": P4, "points": 0},
                ],
            },
            "results",
            "listed twice",
        ),
        (hand(P1, p1=["AS"], p2=1, p3=1, p4=1), "results", "went out"),
        (hand(P1, p2=-1, p3=1, p4=1), "results", "negative"),
        (
            {
                "winner": P1,
                "results": [
                    {"player": P2, "points": 3, "cards": ["AS"]},
                    {"player": P3, "points": 0},
                    {"player": P4, "points": 0},
                ],
            },
            "results",
            "not both",
        ),
        (hand(P1, p2=["ZZ"], p3=1, p4=1), "results", "'ZZ' is not a card"),
    ],
)
def test_bad_hands_are_refused_with_the_field_and_reason(
    bad: dict, field: str, message: str
) -> None:
    with pytest.raises(RuleError, match=message) as info:
        play([bad])
    assert info.value.field == field


def test_teams_must_partition_the_players_into_equal_teams() -> None:
    with pytest.raises(RuleError, match="same size"):
        DIRT.configure(players=[1, 2, 3, 4, 5, 6], teams=[[1, 2, 3, 4], [5, 6]])
    with pytest.raises(RuleError, match="in no team"):
        DIRT.configure(players=[1, 2, 3, 4], teams=[[1, 2], [3]])
    with pytest.raises(RuleError, match="at least two teams"):
        DIRT.configure(players=[1, 2, 3, 4], teams=[[1, 2, 3, 4]])


def test_player_limits_and_unknown_variant() -> None:
    with pytest.raises(RuleError, match="3 to 61 players, not 2"):
        DIRT.configure(players=[1, 2])
    with pytest.raises(RuleError) as info:
        DIRT.configure(players=[1, 2, 3], variant="huge")
    assert info.value.field == "variant"


def test_card_codes_are_normalised_in_the_stored_input() -> None:
    state = play([hand(P1, p2=["t♥", "jk"], p3=0, p4=0)])
    assert state.hands[0].input["results"][0] == {"player": P2, "cards": ["10H", "JK"]}


NON_JOKER = st.sampled_from(
    [
        f"{r}{s}"
        for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
        for s in "SHDC"
    ]
)


@given(
    variant=st.sampled_from(sorted(DIRT_RANKS)),
    data=st.data(),
)
def test_totals_are_the_sum_of_the_hands_and_teams_never_score_for_their_winner(
    variant: str, data: st.DataObject
) -> None:
    n_hands = len(DIRT_RANKS[variant])
    hands = []
    for _ in range(data.draw(st.integers(0, n_hands))):
        winner = data.draw(st.sampled_from([P1, P2, P3, P4]))
        results = []
        for p in (P1, P2, P3, P4):
            if p == winner:
                continue
            if data.draw(st.booleans()):
                results.append({"player": p, "points": data.draw(st.integers(0, 300))})
            else:
                results.append(
                    {"player": p, "cards": data.draw(st.lists(NON_JOKER, max_size=4, unique=True))}
                )
        hands.append({"winner": winner, "results": results})
    state = play(hands, variant=variant, teams=[[P1, P3], [P2, P4]])
    for p in (P1, P2, P3, P4):
        assert state.scores[p] == sum(h.points[p] for h in state.hands)
    for h in state.hands:
        assert h.points[h.winner] == 0
        assert h.team_points is not None
        assert h.team_points[0 if h.winner in (P1, P3) else 1] == 0
    assert state.finished == (len(hands) == n_hands)


@given(st.sampled_from(["2", "3", "4", "5", "6", "7"]), NON_JOKER, st.sampled_from([1, 10]))
def test_a_card_scores_the_same_without_its_suit(dirt: str, code: str, ten: int) -> None:
    suited = parse_french(code)
    alone = parse_french(suited.rank, suit_optional=True)
    assert alone.suit is None
    assert card_points(alone, dirt, ten_points=ten) == card_points(suited, dirt, ten_points=ten)


@given(st.sampled_from(["2", "3", "4", "5", "6", "7"]), NON_JOKER)
def test_the_dirt_rank_always_scores_25(dirt: str, code: str) -> None:
    card = parse_french(code)
    points = card_points(card, dirt)
    if card.rank == dirt:
        assert points == 25
    else:
        assert points in (1, 2, 3, 4, 5, 6, 7, 8, 9, 15)
