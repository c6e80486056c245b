"""The engine's errors name players by id ("player 3") for the API, and carry those ids
so a page can say the table's names instead, without reading them back out of the text."""

from __future__ import annotations

import pytest

from games import RuleError, get_ruleset
from games.errors import mention

NAMES = {11: "Ann", 12: "Bob", 13: "Cy", 14: "Di"}


def error_of(slug: str, hands: list[dict], players: tuple[int, ...] = (11, 12, 13)) -> RuleError:
    rules = get_ruleset(slug)
    with pytest.raises(RuleError) as err:
        rules.play(rules.configure(players=list(players)), hands)
    return err.value


def test_a_problem_about_two_players_says_both_names_in_order() -> None:
    error = error_of(
        "damn-you",
        [{"winner": 12, "results": [{"player": 11, "cards_left": 0}, {"player": 13}]}],
    )
    first = error.problems[0]
    assert first.message == (
        "player 11 has 0 cards left, but only the player who went out (player 12) can have none"
    )
    assert first.players == (11, 12)
    assert first.text(NAMES) == (
        "Ann has 0 cards left, but only the player who went out (Bob) can have none"
    )
    assert error.text(NAMES) == first.text(NAMES)
    assert [p.text(NAMES) for p in error.problems[1:]] == [
        "Cy: give the cards left in hand",
        "Bob: nothing entered: give the passes and the cards left",
    ]


def test_a_player_without_a_name_stays_player_n() -> None:
    error = RuleError(mention(11) + " sits left of " + mention(12), "players")
    assert error.text({12: "Bob"}) == "Player 11 sits left of Bob"
    assert error.text({}) == "Player 11 sits left of player 12"


def test_what_is_not_a_player_id_stays_as_typed() -> None:
    with pytest.raises(RuleError) as err:
        get_ruleset("dirt").configure(players=[11, 12, 13, 14], teams=[[11, "12"], [13, 14]])
    assert err.value.message == "player '12' is in a team but not seated"
    assert err.value.players == ()
    assert err.value.text(NAMES) == "Player '12' is in a team but not seated"


def test_a_message_without_players_is_said_with_a_capital() -> None:
    error = RuleError("say who went out", "winner")
    assert (error.players, error.text(NAMES)) == ((), "Say who went out")


def test_the_set_up_names_the_player_seated_twice() -> None:
    with pytest.raises(RuleError) as err:
        get_ruleset("dirt").configure(players=[11, 12, 11])
    assert err.value.text(NAMES) == "Ann is seated twice"


def test_an_earlier_hand_s_problem_keeps_its_players() -> None:
    good = {"winner": 11, "results": [{"player": 12, "points": 3}, {"player": 13, "points": 4}]}
    bad = {"winner": 11, "results": [{"player": 12, "points": -3}, {"player": 13, "points": 4}]}
    error = error_of("dirt", [bad, good])
    assert error.message == "hand 1: player 12: the points cannot be negative"
    assert error.text(NAMES) == "Hand 1: Bob: the points cannot be negative"


def test_the_end_of_a_game_names_its_winner() -> None:
    hands = [{"winner": 13}] * 3
    error = error_of("screw-your-neighbour", [*hands, {"winner": 11}])
    assert error.message == "the game is over: player 13 reached 3 hand wins in hand 3"
    assert error.text(NAMES) == "The game is over: Cy reached 3 hand wins in hand 3"


def test_the_api_answer_is_unchanged() -> None:
    error = error_of(
        "dirt",
        [{"winner": 11, "results": [{"player": 11, "points": 2}, {"player": 12, "points": "x"}]}],
    )
    assert error.as_dict() == {
        "results": [
            "player 11 went out, so holds no cards and scores nothing",
            "player 12: the points must be a whole number (got 'x')",
            "player 13: nothing entered: give the cards left in hand or the points counted",
        ],
        "errors": [
            {
                "field": "results",
                "player": 11,
                "message": "player 11 went out, so holds no cards and scores nothing",
            },
            {
                "field": "results",
                "player": 12,
                "message": "player 12: the points must be a whole number (got 'x')",
            },
            {
                "field": "results",
                "player": 13,
                "message": "player 13: nothing entered: give the cards left in hand or the "
                "points counted",
            },
        ],
    }
    assert (error.field, error.player, str(error)) == ("results", 11, error.message)


def test_text_typed_with_braces_is_not_a_template() -> None:
    error = error_of("dirt", [{"winner": 11, "results": [{"player": 12, "cards": ["{0}"]}]}])
    assert error.problems[0].text(NAMES).startswith("Bob: '{0}' is not a card")
