"""The coming hands a phone offline is given with the sheet: for each game, what its
presenter says of hand N+1, N+2… before they are saved is what the engine says once
they are (number, dealer, the banner's facts, the pad's card values)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from games import GameState, get_ruleset
from scorekeeper.presenters import presenter_for
from scorekeeper.web.sheet_ahead import build_ahead

NAMES = {1: "Ana", 2: "Bo", 3: "Cy", 4: "Di"}


def left_in_hand(winner: int, cards: dict[int, list[str]]) -> dict[str, Any]:
    return {
        "winner": winner,
        "results": [{"player": p, "cards": c} for p, c in cards.items() if p != winner],
    }


#: A few hands of each game, as the table reports them.
HANDS: dict[str, list[dict[str, Any]]] = {
    "dirt": [
        left_in_hand(1, {2: ["4H", "6S"], 3: ["JK"], 4: ["2C"]}),
        left_in_hand(2, {1: ["4D"], 3: ["AS"], 4: ["KS"]}),
        left_in_hand(3, {1: ["2H"], 2: ["7S"], 4: ["10D"]}),
        left_in_hand(4, {1: ["3H"], 2: ["5S"], 3: ["QD"]}),
    ],
    "dirty-uno": [
        left_in_hand(1, {2: ["G7"], 3: ["BS"], 4: ["W"]}),
        left_in_hand(2, {1: ["R1"], 3: ["Y+2"], 4: ["G0"]}),
        left_in_hand(3, {1: ["W+4"], 2: ["B9"], 4: ["RR"]}),
    ],
    "screw-your-neighbour": [{"winner": 2}, {"winner": 3}, {"winner": 2}],
    "damn-you": [
        {
            "winner": 2,
            "results": [
                {"player": p, "passes": 1, "cards_left": 0 if p == 2 else 3} for p in NAMES
            ],
        }
    ]
    * 3,
    "dirty-deals": [
        {"winner": 1, "suit": "S", "surplus": [], "bower_holder": 2},
        {"winner": 2, "suit": "H", "surplus": [], "bower_holder": 3},
        {"winner": 3, "suit": "D", "surplus": [], "bower_holder": 4},
    ],
}


def play(ruleset: str, hands: list[dict[str, Any]]) -> GameState:
    rules = get_ruleset(ruleset)
    return rules.play(rules.configure(players=list(NAMES)), hands)


def expand(ahead: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The coming hands as the page reads them (``static/js/offline-ahead.js`` data()): a known
    hand without ``facts`` has its predecessor's, without ``pad`` or ``marks`` none that
    differ from the hand in play's."""
    hands: list[dict[str, Any]] = []
    facts: list[dict[str, Any]] = []
    for hand in ahead["hands"]:
        whole = dict(hand)
        if hand["known"]:
            facts = hand.get("facts", facts)
            whole.update(facts=facts, pad=hand.get("pad", {}), marks=hand.get("marks", {}))
        hands.append(whole)
    return hands


@pytest.mark.parametrize("ruleset", sorted(HANDS))
def test_the_coming_hands_are_what_the_engine_says_once_they_are_played(ruleset: str) -> None:
    shows = presenter_for(ruleset)
    start = play(ruleset, [])
    ahead = build_ahead(start, NAMES)
    assert ahead is not None
    by_number = {h["number"]: h for h in expand(ahead)}
    for played in range(len(HANDS[ruleset]) + 1):
        state = play(ruleset, HANDS[ruleset][:played])
        nxt = state.next_hand
        if nxt is None:
            break
        number = played + 1
        said = shows.hand_ahead(start, number) if played else start.next_hand
        shown = by_number[number]
        # Every game knows who deals each hand.
        assert shown["dealer"] == NAMES[int(nxt["dealer"])]
        if said is None:
            assert not shown["known"]
            continue
        assert dict(said) == dict(nxt)
        assert shown["known"]
        facts = [(f.label, f.value) for f in shows.banner_facts(state, nxt, NAMES)]
        assert [(f["label"], f["value"]) for f in shown["facts"]] == facts
        assert {**(ahead["pad"] or {}), **shown["pad"]} == (shows.card_pad(state, nxt) or {})


def test_dirt_gives_each_coming_hand_its_dirt_rank_and_its_card_values() -> None:
    ahead = build_ahead(play("dirt", []), NAMES)  # Baby Dirt: 6 4 2 3 5 7
    assert ahead is not None
    hands = expand(ahead)
    assert [h["number"] for h in hands] == [1, 2, 3, 4, 5, 6]
    assert ahead["last"] == 6
    # The panel shows the hand in play's rank; each coming hand gives its own.
    assert [h["marks"].get("dirt_rank") for h in hands] == [None, "4", "2", "3", "5", "7"]
    assert [h["dealer"] for h in hands[:5]] == ["Ana", "Bo", "Cy", "Di", "Ana"]
    assert [("Dirt rank", r) for r in "642357"] == [
        (h["facts"][0]["label"], h["facts"][0]["value"]) for h in hands
    ]
    pads = [{**ahead["pad"], **h["pad"]} for h in hands[:2]]
    points = [{v["key"]: v["points"] for v in pad["values"]} for pad in pads]
    # A 4 and a 6 left in hand: 4 + 25 in hand 1 (dirt 6), 25 + 6 in hand 2 (dirt 4).
    assert points[0]["4"] + points[0]["6"] == 29
    assert points[1]["4"] + points[1]["6"] == 31
    assert ahead["provisional"] == {"points": "left", "totals": True}


def test_games_whose_next_facts_hang_on_the_scores_still_number_and_deal() -> None:
    for ruleset in ("damn-you", "dirty-deals"):
        ahead = build_ahead(play(ruleset, []), NAMES)
        assert ahead is not None
        first, second = expand(ahead)[:2]
        assert first["known"]
        assert not second["known"]
        assert (second["number"], second["dealer"]) == (2, "Bo")
        assert ahead["provisional"] is None


def test_partner_dirt_rows_wait_for_the_server() -> None:
    rules = get_ruleset("dirt")
    state = rules.play(rules.configure(players=list(NAMES), teams=[[1, 3], [2, 4]]), [])
    ahead = build_ahead(state, NAMES)
    assert ahead is not None
    assert ahead["provisional"] is None
    assert expand(ahead)[1]["marks"]["dirt_rank"] == "4"


def test_a_long_game_sends_each_coming_hand_in_a_few_bytes() -> None:
    """Every live panel carries the coming hands: a hand like its predecessor sends its
    number, dealer and nothing else."""
    ahead = build_ahead(play("screw-your-neighbour", []), NAMES)
    assert ahead is not None
    assert ahead["hands"][1] == {"number": 2, "dealer": "Bo", "known": True}
    assert all("facts" not in hand for hand in ahead["hands"][1:])
