"""Each game's entry form (``Presenter.entry_form``): a page's post becomes the API's hand
body, junk never breaks it (the engine names what is wrong), and a stored hand's input
fills it back so that saving it again stores the same hand."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from django.http import QueryDict

from games import RULESETS, GameState, RuleError, get_ruleset
from scorekeeper.presenters import presenter_for

PLAYERS = [1, 2, 3, 4]


def post(**fields: str | list[str]) -> QueryDict:
    data = QueryDict(mutable=True)
    for name, value in fields.items():
        data.setlist(name, value if isinstance(value, list) else [value])
    return data


def hand(ruleset: str, data: QueryDict) -> dict[str, Any]:
    return presenter_for(ruleset).entry_form(PLAYERS, data).hand_input()


def start(ruleset: str) -> GameState:
    rules = get_ruleset(ruleset)
    return rules.play(rules.configure(players=PLAYERS, options=dict(rules.example_options)), [])


# -- a post becomes the hand's input -------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["dirt", "dirty-uno"])
def test_the_cards_left_in_hand_become_each_players_result(ruleset: str) -> None:
    sent = post(winner=" 1 ", cards_2="JK, 4H  7S", points_3="12", cards_4="", csrf="x")
    assert hand(ruleset, sent) == {
        "winner": "1",
        "results": [
            {"player": 2, "cards": ["JK", "4H", "7S"]},
            {"player": 3, "points": "12"},
            {"player": 4},
        ],
    }
    # Whoever went out keeps a line only when something was typed for them.
    assert hand(ruleset, post(winner="2", cards_2="4H"))["results"][1] == {
        "player": 2,
        "cards": ["4H"],
    }
    assert hand(ruleset, post()) == {"winner": None, "results": [{"player": p} for p in PLAYERS]}


def test_damn_you_sends_every_players_passes_and_cards_left() -> None:
    sent = post(winner="2", passes_1="3", cards_left_1="5", passes_3="1", last_chip="")
    assert hand("damn-you", sent) == {
        "winner": "2",
        "results": [
            {"player": 1, "passes": "3", "cards_left": "5"},
            {"player": 2, "passes": 0, "cards_left": 0},
            {"player": 3, "passes": "1", "cards_left": None},
            {"player": 4, "passes": 0, "cards_left": None},
        ],
    }
    # Who paid the last chip goes in only when it was asked (and answered).
    assert hand("damn-you", post(winner="2", last_chip="3"))["last_chip"] == "3"


def test_dirty_deals_sends_the_surplus_cards_or_their_count() -> None:
    cards = post(winner="1", suit="H", surplus=["JD", " ", "9C"], bower_holder="3")
    assert hand("dirty-deals", cards) == {
        "winner": "1",
        "suit": "H",
        "surplus": ["JD", "9C"],
        "bower_holder": "3",
    }
    counted = post(winner="1", suit="S", surplus_count="2", bower_in_surplus="on")
    assert hand("dirty-deals", counted) == {
        "winner": "1",
        "suit": "S",
        "surplus_count": "2",
        "bower_in_surplus": True,
        "bower_holder": None,
    }
    assert hand("dirty-deals", post(surplus_count="2", bower_in_surplus="0")) == {
        "winner": None,
        "suit": None,
        "surplus_count": "2",
        "bower_in_surplus": False,
        "bower_holder": None,
    }


def test_screw_your_neighbour_sends_the_winner_alone() -> None:
    assert hand("screw-your-neighbour", post(winner="4", cards_4="JK")) == {"winner": "4"}
    assert hand("screw-your-neighbour", post()) == {"winner": None}


# -- junk ----------------------------------------------------------------------------------

JUNK = ["\x00", "1\x00", "9" * 500, "-1", "1.5", "٣", "<b>", "x" * 5000, "  ", "null"]


@pytest.mark.parametrize("ruleset", list(RULESETS))
@pytest.mark.parametrize("junk", JUNK)
def test_junk_is_passed_on_for_the_engine_to_name(ruleset: str, junk: str) -> None:
    form = presenter_for(ruleset).entry_form(PLAYERS, None)
    names = [*form.fields, "winner", "surplus"]
    sent = post(**{name: [junk, junk] for name in names})
    form = presenter_for(ruleset).entry_form(PLAYERS, sent)
    body = form.hand_input()
    assert form.typed["winner"] == junk.strip()
    for player in PLAYERS:
        assert set(form.for_player(player).values()) <= {junk.strip()}
    state = start(ruleset)
    with contextlib.suppress(RuleError):  # named by the engine: the page shows it
        get_ruleset(ruleset).play(state.config, [body], state=state)


@pytest.mark.parametrize("ruleset", list(RULESETS))
@pytest.mark.parametrize(
    "stored",
    [
        {},
        {"winner": None, "results": None},
        {"winner": "\x00", "results": "JK"},
        {"results": [None, 3, {"player": "x"}, {"player": True}, {"player": 2, "cards": 7}]},
        {"suit": ["H"], "surplus": "JD", "bower_in_surplus": "no", "last_chip": {"a": 1}},
    ],
)
def test_a_stored_input_of_any_shape_fills_the_form(ruleset: str, stored: dict[str, Any]) -> None:
    form = presenter_for(ruleset).entry_form.from_input(PLAYERS, stored)
    assert isinstance(form.hand_input(), dict)
    assert isinstance(form.typed, dict)


# -- a stored hand fills the form back -----------------------------------------------------


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_a_stored_hand_fills_the_form_that_stores_it_again(ruleset: str) -> None:
    rules = get_ruleset(ruleset)
    rng = random.Random(28)
    state = start(ruleset)
    for _ in range(12):
        if state.next_hand is None:
            break
        before = state
        state = rules.play(
            state.config, [rules.random_hand(rng, state.config, state, {})], state=state
        )
        stored = state.hands[-1].input
        form = presenter_for(ruleset).entry_form.from_input(PLAYERS, stored)
        again = rules.play(state.config, [form.hand_input()], state=before)
        assert again.hands[-1].input == stored
        # The form shows it as a post of it would: sent again, it is the same form.
        posted = presenter_for(ruleset).entry_form(PLAYERS, form.data)
        assert posted.hand_input() == form.hand_input()


def test_a_stored_hand_shows_its_values_as_typed() -> None:
    form = presenter_for("dirty-deals").entry_form.from_input(
        PLAYERS,
        {"winner": 1, "suit": "H", "surplus_count": 2, "bower_in_surplus": True, "bower_holder": 3},
    )
    assert form.typed == {
        "winner": "1",
        "suit": "H",
        "surplus": [],
        "surplus_count": "2",
        "bower_in_surplus": True,
        "bower_holder": "3",
    }
    damn = presenter_for("damn-you").entry_form.from_input(
        PLAYERS,
        {"winner": 2, "last_chip": 3, "results": [{"player": 1, "passes": 2, "cards_left": 5}]},
    )
    assert damn.for_player(1) == {"passes": "2", "cards_left": "5"}
    assert damn.for_player(2) == {"passes": "", "cards_left": ""}
    assert damn.value("last_chip") == "3"
    left = presenter_for("dirt").entry_form.from_input(
        PLAYERS, {"winner": 1, "results": [{"player": 2, "cards": ["JK", "4H"], "points": 7}]}
    )
    assert left.for_player(2) == {"cards": "JK 4H", "points": "7"}
