"""Each game's presenter: its goal in words, the banner's facts of the hand in play and
what each player needs, straight from the engine's state (no page, no database)."""

from __future__ import annotations

from typing import Any

import pytest
from django.http import QueryDict

from games import RULESETS, GameState, get_ruleset
from scorekeeper.presenters import presenter_for
from scorekeeper.presenters.base import Gap, Presenter

NAMES = {1: "Ana", 2: "Bo", 3: "Cy", 4: "Di"}


def play(ruleset: str, hands: list[dict[str, Any]], **options: Any) -> GameState:
    rules = get_ruleset(ruleset)
    return rules.play(rules.configure(players=list(NAMES), options=options or None), hands)


def facts(ruleset: str, hands: list[dict[str, Any]], **options: Any) -> list[tuple[str, str]]:
    state = play(ruleset, hands, **options)
    assert state.next_hand is not None
    shown = presenter_for(ruleset).banner_facts(state, state.next_hand, NAMES)
    return [(f.label, f.value) for f in shown]


def needs(ruleset: str, hands: list[dict[str, Any]], **options: Any) -> dict[str, str]:
    """Each player's need, as if every one trailed the leader by 5 (a leader by 3)."""
    state = play(ruleset, hands, **options)
    shows = presenter_for(ruleset)
    return {
        NAMES[row.player]: shows.need(state, row, Gap(5, 3, leader=row.rank == 1, tied=False))
        for row in state.standings
        if row.player is not None
    }


def left_in_hand(**points: int) -> dict[str, Any]:
    """Ana went out; the others hold ``points`` (0 when not given)."""
    held = [{"player": p, "points": points.get(n, 0)} for p, n in NAMES.items() if p != 1]
    return {"winner": 1, "results": held}


def test_every_game_has_a_presenter_of_its_own() -> None:
    shown = {slug: presenter_for(slug) for slug in RULESETS}
    assert all(type(p) is not Presenter and p.slug == slug for slug, p in shown.items())
    assert all(p.entry_template.startswith("games/_entry_") for p in shown.values())


@pytest.mark.parametrize(
    ("ruleset", "options", "goal"),
    [
        ("dirt", {}, "lowest total wins"),
        ("damn-you", {}, "most chips win"),
        ("dirty-deals", {}, "first to win two rubbers takes the match"),
        ("dirty-uno", {}, "first past 500 wins"),
        ("dirty-uno", {"scoring": "penalty"}, "a score past 500 ends it; lowest score wins"),
        ("screw-your-neighbour", {}, "first to 3 hand wins"),
        ("screw-your-neighbour", {"target_wins": 5}, "first to 5 hand wins"),
        ("screw-your-neighbour", {"target_wins": 0}, "most hand wins"),
    ],
)
def test_the_goal_in_words(ruleset: str, options: dict[str, Any], goal: str) -> None:
    assert presenter_for(ruleset).goal(options) == goal


def test_dirt_shows_the_dirt_rank_big_and_counts_the_hands() -> None:
    state = play("dirt", [])
    assert facts("dirt", []) == [("Dirt rank", "6")]
    assert presenter_for("dirt").hands_total(state) == 6
    assert needs("dirt", [left_in_hand(Bo=4)])["Ana"] == "leads by 3"


def test_damn_you_says_who_is_short_and_the_ante() -> None:
    assert facts("damn-you", []) == [("Short (ante 2)", "Ana, Di"), ("Ante into the pot", "6")]
    state = play("damn-you", [])
    assert presenter_for("damn-you").hands_total(state) == 4
    hand = {
        "winner": 2,
        "results": [
            {"player": 1, "passes": 2, "cards_left": 5},
            {"player": 2, "passes": 0, "cards_left": 0},
            {"player": 3, "passes": 1, "cards_left": 3},
            {"player": 4, "passes": 3, "cards_left": 7},
        ],
    }
    assert needs("damn-you", [hand]) == {
        "Bo": "leads by 3 chips",
        "Cy": "5 chips behind",
        "Ana": "5 chips behind",
        "Di": "5 chips behind",
    }


def test_dirty_deals_shows_the_rubber_and_who_won_rubbers() -> None:
    first = {"winner": 2, "suit": "S", "surplus": [], "bower_holder": 1}
    assert facts("dirty-deals", []) == [("Rubber", "1")]
    assert facts("dirty-deals", [first]) == [("Rubber", "2"), ("Rubbers won", "Bo 1")]
    assert needs("dirty-deals", [first]) == {
        "Bo": "needs 9 more for the rubber · one more rubber wins the match",
        "Ana": "needs 9 more for the rubber",
        "Cy": "needs 9 more for the rubber",
        "Di": "needs 9 more for the rubber",
    }


def test_dirty_uno_shows_the_scoring_and_what_passes_500() -> None:
    assert facts("dirty-uno", []) == [("Scoring", "standard"), ("Ends", "when a score passes 500")]
    hand = left_in_hand(Bo=40)
    assert needs("dirty-uno", [hand])["Ana"] == "needs 461 to pass 500"
    penalty = needs("dirty-uno", [hand], scoring="penalty")
    assert penalty["Bo"] == "5 behind · 461 from passing 500"


def test_screw_your_neighbour_shows_the_target_and_the_wins_still_needed() -> None:
    assert facts("screw-your-neighbour", []) == [("Target", "first to 3 wins")]
    assert facts("screw-your-neighbour", [], target_wins=0) == [
        ("Target", "none — end the game by hand")
    ]
    assert needs("screw-your-neighbour", [{"winner": 2}, {"winner": 2}])["Bo"] == (
        "needs 1 more win"
    )
    assert needs("screw-your-neighbour", [{"winner": 2}], target_wins=0)["Ana"] == "5 behind"


def test_the_entry_form_becomes_each_games_hand_input() -> None:
    post = QueryDict("winner=1&cards_2=JK,+4H&passes_2=2")

    def hand(ruleset: str, data: QueryDict = post) -> dict[str, Any]:
        return presenter_for(ruleset).entry_form([1, 2], data).hand_input()

    assert hand("dirt") == {"winner": "1", "results": [{"player": 2, "cards": ["JK", "4H"]}]}
    assert hand("damn-you") == {
        "winner": "1",
        "results": [
            {"player": 1, "passes": 0, "cards_left": 0},
            {"player": 2, "passes": "2", "cards_left": None},
        ],
    }
    assert hand("screw-your-neighbour") == {"winner": "1"}
    deals = hand("dirty-deals", QueryDict("winner=2&suit=H"))
    assert deals == {"winner": "2", "suit": "H", "surplus": [], "bower_holder": None}
