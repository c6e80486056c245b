from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.base import RuleError
from games.registry import get_ruleset
from games.screw_your_neighbour import ScrewYourNeighbour, red_aces_active
from tests.games.helpers import assert_competition_ranks

GAME = ScrewYourNeighbour()
PLAYERS = [1, 2, 3, 4]


def test_metadata() -> None:
    meta = get_ruleset("screw-your-neighbour").metadata()
    assert meta["name"] == "Screw Your Neighbour"
    assert (meta["min_players"], meta["max_players"]) == (3, 13)
    assert meta["variants"] == []
    assert meta["options"]["target_wins"]["default"] == 3
    assert meta["options"]["target_wins"]["choices"] == list(range(21))
    assert meta["wins_with"] == "high"
    assert meta["score_label"] == "hand wins"
    assert GAME.card_points() == []


@pytest.mark.parametrize("players", [[1, 2], list(range(1, 15))])
def test_player_count_is_checked(players: list[int]) -> None:
    with pytest.raises(RuleError) as err:
        GAME.configure(players=players)
    assert err.value.field == "players"
    assert "3 to 13" in err.value.message


def test_target_option_is_checked() -> None:
    assert GAME.configure(players=PLAYERS, options={"target_wins": "5"}).options == {
        "target_wins": 5,
        "joker_switch": "no",
        "two_joker_pickup": 4,
        "queen_two_spades": "no",
    }
    with pytest.raises(RuleError) as err:
        GAME.configure(players=PLAYERS, options={"target_wins": 21})
    assert err.value.field == "options"


def test_hand_wins_are_counted() -> None:
    cfg = GAME.configure(players=PLAYERS)
    state = GAME.play(cfg, [{"winner": 2}, {"winner": 3}, {"winner": 2}])
    first = state.hands[0]
    assert first.points == {1: 0, 2: 1, 3: 0, 4: 0}
    assert first.totals == {1: 0, 2: 1, 3: 0, 4: 0}
    assert state.hands[2].totals == {1: 0, 2: 2, 3: 1, 4: 0}
    assert state.scores == {1: 0, 2: 2, 3: 1, 4: 0}
    assert [(r.player, r.score, r.rank) for r in state.standings] == [
        (2, 2, 1),
        (3, 1, 2),
        (1, 0, 3),
        (4, 0, 3),
    ]
    assert not state.finished
    assert state.status == "in_progress"
    assert state.winners == ()
    assert state.extras == {"target_wins": 3}


def test_first_to_target_wins_and_ends_the_game() -> None:
    cfg = GAME.configure(players=PLAYERS)
    hands = [{"winner": 2}, {"winner": 3}, {"winner": 2}, {"winner": 3}, {"winner": 2}]
    state = GAME.play(cfg, hands)
    assert state.finished
    assert state.ended_by == "target"
    assert state.winners == (2,)
    assert state.next_hand is None
    with pytest.raises(RuleError) as err:
        GAME.play(cfg, [*hands, {"winner": 1}])
    assert "over" in err.value.message


def test_target_can_be_one() -> None:
    state = GAME.play(GAME.configure(players=PLAYERS, options={"target_wins": 1}), [{"winner": 4}])
    assert state.finished
    assert state.winners == (4,)


def test_open_ended_game_only_ends_when_closed() -> None:
    cfg = GAME.configure(players=PLAYERS, options={"target_wins": 0})
    hands = [{"winner": 1}] * 25 + [{"winner": 2}] * 25
    state = GAME.play(cfg, hands)
    assert not state.finished
    assert state.next_hand == {"number": 51, "dealer": 3}
    closed = GAME.play(cfg, hands, closed=True)
    assert closed.finished
    assert closed.ended_by == "closed"
    # Equal most wins share the win.
    assert closed.winners == (1, 2)
    assert [r.rank for r in closed.standings] == [1, 1, 3, 3]
    assert closed.next_hand is None


def test_closing_a_game_without_hands_is_refused() -> None:
    with pytest.raises(RuleError) as err:
        GAME.play(GAME.configure(players=PLAYERS), [], closed=True)
    assert err.value.field == "closed"


def test_closing_keeps_the_target_result() -> None:
    cfg = GAME.configure(players=PLAYERS, options={"target_wins": 1})
    state = GAME.play(cfg, [{"winner": 3}], closed=True)
    assert state.ended_by == "target"
    assert state.winners == (3,)


def test_dealer_rotates_clockwise_from_the_first_dealer() -> None:
    cfg = GAME.configure(players=PLAYERS, first_dealer=3)
    state = GAME.play(cfg, [{"winner": 1}, {"winner": 1}])
    assert [h.dealer for h in state.hands] == [3, 4]
    assert state.next_hand == {"number": 3, "dealer": 1}


def test_input_is_normalised() -> None:
    state = GAME.play(GAME.configure(players=PLAYERS), [{"winner": "2", "note": "x"}])
    assert state.hands[0].input == {"winner": 2}
    assert state.hands[0].as_dict()["winner"] == 2


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        ({}, "winner"),
        ({"winner": None}, "winner"),
        ({"winner": 9}, "winner"),
        ({"winner": "two"}, "winner"),
        ({"winner": True}, "winner"),
        ([], "non_field_errors"),
    ],
)
def test_bad_input_is_rejected(hand: object, field: str) -> None:
    with pytest.raises(RuleError) as err:
        GAME.play(GAME.configure(players=PLAYERS), [hand])  # type: ignore[list-item]
    assert err.value.field == field


def test_error_in_an_earlier_hand_names_the_hand() -> None:
    with pytest.raises(RuleError) as err:
        GAME.play(GAME.configure(players=PLAYERS), [{"winner": 7}, {"winner": 1}])
    assert err.value.message.startswith("hand 1: ")
    assert err.value.field == "winner"


@pytest.mark.parametrize(
    ("left_over", "active"),
    [(0, True), (1, True), (2, True), (-1, True), (-2, True), (3, False), (-3, False), (40, False)],
)
def test_red_aces_are_active_within_two_cards(left_over: int, active: bool) -> None:
    assert red_aces_active(left_over) is active


@given(
    n=st.integers(3, 10),
    picks=st.lists(st.integers(0, 9), max_size=40),
    target=st.integers(0, 20),
)
def test_totals_are_the_sum_of_hand_points(n: int, picks: list[int], target: int) -> None:
    players = list(range(101, 101 + n))
    cfg = GAME.configure(players=players, options={"target_wins": target})
    hands: list[dict[str, Any]] = []
    for pick in picks:
        state = GAME.play(cfg, hands)
        if state.finished:
            break
        hands.append({"winner": players[pick % n]})
    state = GAME.play(cfg, hands)
    running = dict.fromkeys(players, 0)
    for hand in state.hands:
        assert sum(hand.points.values()) == 1
        for p in players:
            running[p] += hand.points[p]
        assert dict(hand.totals) == running
    assert dict(state.scores) == running
    assert sum(running.values()) == len(hands)
    assert_competition_ranks(state.standings, key=lambda row: -row.score)
    if state.finished:
        assert target
        assert max(running.values()) == target
        assert state.winners == (state.standings[0].player,)


@pytest.mark.parametrize(
    ("options", "effective"),
    [
        ({}, {"joker_switch": "no", "two_joker_pickup": 4, "queen_two_spades": "no"}),
        (
            {"joker_switch": "yes", "two_joker_pickup": "6", "queen_two_spades": "yes"},
            {"joker_switch": "yes", "two_joker_pickup": 6, "queen_two_spades": "yes"},
        ),
    ],
)
def test_readings_of_the_original_are_options(
    options: dict[str, object], effective: dict[str, object]
) -> None:
    config = GAME.configure(players=PLAYERS, options=options)
    assert {k: config.options[k] for k in effective} == effective
    # They change the play at the table, not the sheet: a hand win is a hand win.
    assert GAME.play(config, [{"winner": 2}]).scores[2] == 1


@pytest.mark.parametrize(
    "options", [{"joker_switch": "maybe"}, {"two_joker_pickup": 5}, {"queen_two_spades": "2"}]
)
def test_a_reading_outside_its_choices_is_refused(options: dict[str, object]) -> None:
    with pytest.raises(RuleError) as err:
        GAME.configure(players=PLAYERS, options=options)
    assert err.value.field == "options"
