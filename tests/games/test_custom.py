"""Any other game of the evening (``games.custom``): totals are the sums of the points
entered, and the winners are the best totals, highest or lowest as the table chose."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import RULESETS, RuleError
from games.custom import MAX_POINTS

CUSTOM = RULESETS["custom"]
points = st.integers(min_value=-MAX_POINTS, max_value=MAX_POINTS)


@given(
    players=st.integers(min_value=1, max_value=8),
    winner=st.sampled_from(["high", "low"]),
    data=st.data(),
)
def test_totals_are_the_sums_and_the_best_total_wins(players: int, winner: str, data) -> None:
    seats = list(range(1, players + 1))
    config = CUSTOM.configure(
        players=seats, options={"name": "Anything", "winner": winner, "end": "open"}
    )
    hands = data.draw(st.lists(st.lists(points, min_size=players, max_size=players), min_size=1))
    inputs = [
        {"scores": [{"player": p, "points": n} for p, n in zip(seats, hand, strict=True)]}
        for hand in hands
    ]
    state = CUSTOM.play(config, inputs, closed=True)
    sums = {p: sum(hand[i] for hand in hands) for i, p in enumerate(seats)}
    assert dict(state.scores) == sums
    best = (min if winner == "low" else max)(sums.values())
    assert set(state.winners) == {p for p, total in sums.items() if total == best}
    ranks = {row.player: row.rank for row in state.standings}
    assert all((ranks[p] == 1) == (sums[p] == best) for p in seats)


@given(target=st.integers(min_value=1, max_value=500), hands=st.lists(st.integers(0, 100)))
def test_the_game_ends_on_the_hand_that_reaches_the_target(target: int, hands: list[int]) -> None:
    config = CUSTOM.configure(
        players=[1, 2], options={"name": "Race", "end": "target", "target": target}
    )
    total = 0
    played = []
    for n in hands:
        played.append({"scores": [{"player": 1, "points": n}, {"player": 2, "points": 0}]})
        total += n
        if total >= target:
            break
    state = CUSTOM.play(config, played)
    assert state.finished == (total >= target)
    if state.finished:
        assert state.winners == (1,)
        with pytest.raises(RuleError):
            CUSTOM.play(config, [*played, played[-1]])


def test_rounds_end_the_game_after_that_many_hands() -> None:
    options = {"name": "Five", "end": "rounds", "rounds": 2}
    config = CUSTOM.configure(players=[1, 2], options=options)
    hand = {"scores": [{"player": 1, "points": 3}, {"player": 2, "points": 3}]}
    assert not CUSTOM.play(config, [hand]).finished
    state = CUSTOM.play(config, [hand, hand])
    assert (state.finished, state.winners, state.ended_by) == (True, (1, 2), "hands")
    with pytest.raises(RuleError, match="over"):
        CUSTOM.play(config, [hand, hand, hand])


def test_a_game_needs_its_name() -> None:
    with pytest.raises(RuleError, match="name: is required"):
        CUSTOM.configure(players=[1, 2])
    config = CUSTOM.configure(players=[1, 2], options={"name": "  Hearts \n "})
    assert config.options["name"] == "Hearts"
    assert CUSTOM.game_title(config.options) == "Hearts"
    assert CUSTOM.league_scope(config.options) == "custom/Hearts"
