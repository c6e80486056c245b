"""Dirt: Partner Dirt at six players (three teams of two, or two teams of three), and
the reading of what a player with nothing to lay does."""

from __future__ import annotations

import pytest

from games import RuleError, get_ruleset

DIRT = get_ruleset("dirt")
SIX = [1, 2, 3, 4, 5, 6]


def hand(winner: int, points: dict[int, int]) -> dict[str, object]:
    return {"winner": winner, "results": [{"player": p, "points": n} for p, n in points.items()]}


HAND = hand(1, {2: 10, 3: 20, 4: 30, 5: 40, 6: 50})


def test_six_players_as_three_teams_of_two() -> None:
    config = DIRT.configure(players=SIX, teams=[[1, 4], [2, 5], [3, 6]])
    state = DIRT.play(config, [HAND])
    # Player 1 went out: team 1 scores 0 although player 4 still held 30.
    assert state.hands[0].team_points == (0, 50, 70)
    assert [(row.players, row.score, row.rank) for row in state.standings] == [
        ((1, 4), 0, 1),
        ((2, 5), 50, 2),
        ((3, 6), 70, 3),
    ]


def test_six_players_as_two_teams_of_three() -> None:
    config = DIRT.configure(players=SIX, teams=[[1, 3, 5], [2, 4, 6]])
    state = DIRT.play(config, [HAND])
    assert state.hands[0].team_points == (0, 90)
    assert [(row.players, row.score) for row in state.standings] == [
        ((1, 3, 5), 0),
        ((2, 4, 6), 90),
    ]


def test_stuck_draw_is_a_reading_with_two_choices() -> None:
    assert DIRT.configure(players=SIX).options["stuck_draw"] == "one"
    chosen = DIRT.configure(players=SIX, options={"stuck_draw": "until-playable"})
    assert chosen.options["stuck_draw"] == "until-playable"
    # It changes the play, not the score sheet.
    assert DIRT.play(chosen, [HAND]).scores == DIRT.play(DIRT.configure(players=SIX), [HAND]).scores
    with pytest.raises(RuleError) as err:
        DIRT.configure(players=SIX, options={"stuck_draw": "two"})
    assert err.value.field == "options"
