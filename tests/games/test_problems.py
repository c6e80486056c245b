"""Every problem of an entry at once: each ruleset collects them all, each with the
player it belongs to, in words; an entry is accepted exactly when it has none."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import CardError, RuleError, get_ruleset
from games.errors import Problem
from games.problems import entry_problems

PLAYERS = (11, 12, 13, 14)
NAMES = {p: f"Name {p}" for p in PLAYERS}
#: A seated player said by id where the page has a name for them.
SEATED_BY_ID = re.compile(r"\bplayer 1[1-4]\b", re.IGNORECASE)
#: Input field names that must never reach a message as a word of its own.
FIELD_WORDS = re.compile(
    r"(?<!')\b(surplus_count|bower_in_surplus|bower_holder|cards_left|non_field_errors)\b"
)


def problems(slug: str, entry: Any, players: tuple[int, ...] = PLAYERS, **options: Any) -> list:
    rules = get_ruleset(slug)
    config = rules.configure(players=list(players), options=options or None)
    return list(entry_problems(rules, config, [], entry))


def said(found: list[Problem]) -> list[tuple[str, str, int | None]]:
    return [(p.message, p.field, p.player) for p in found]


def test_dirt_collects_every_player_s_problem() -> None:
    found = problems(
        "dirt",
        {
            "winner": 11,
            "results": [
                {"player": 11, "cards": ["KD"]},
                {"player": 12, "points": -3},
                {"player": 13, "cards": ["JK", "1H", "QQ"]},
            ],
        },
    )
    assert [(p.player, p.field) for p in found] == [
        (11, "results"),
        (12, "results"),
        (13, "results"),
        (14, "results"),
    ]
    assert found[0].message == "player 11 went out, so holds no cards and scores nothing"
    assert found[1].message == "player 12: the points cannot be negative"
    # Both bad cards of one player, in one message.
    assert "'1H'" in found[2].message
    assert "'QQ'" in found[2].message
    assert found[3].message.startswith("player 14: nothing entered")


def test_dirt_without_a_winner_still_checks_each_player() -> None:
    found = problems(
        "dirt", {"results": [{"player": 12, "points": "x"}, {"player": 13, "points": 4}]}
    )
    assert said(found) == [
        ("say who went out", "winner", None),
        ("player 12: the points must be a whole number (got 'x')", "results", 12),
    ]


def test_a_hand_wide_problem_belongs_to_no_player() -> None:
    found = problems(
        "dirt",
        {
            "winner": 11,
            "results": [
                {"player": 12, "cards": ["AS", "AS"]},
                {"player": 13, "cards": ["AS", "AS"]},
                {"player": 14, "points": -1},
            ],
        },
    )
    assert said(found) == [
        ("player 14: the points cannot be negative", "results", 14),
        ("AS is entered 4 times, but 3 decks with jokers hold only 3 copies", "results", None),
    ]


def test_dirty_uno_collects_every_player_s_problem() -> None:
    found = problems(
        "dirty-uno",
        {
            "winner": 11,
            "results": [
                {"player": 12, "cards": ["G7", "Z9"]},
                {"player": 13, "cards": ["W"], "points": 50},
            ],
        },
    )
    assert [p.player for p in found] == [12, 13, 14]
    assert found[1].message == "player 13: give either the cards or the points, not both"


def test_damn_you_collects_passes_and_cards_left_of_every_player() -> None:
    found = problems(
        "damn-you",
        {
            "winner": 12,
            "results": [
                {"player": 11, "passes": -1, "cards_left": 20},
                {"player": 12, "passes": 0, "cards_left": 3},
                {"player": 13, "passes": "x", "cards_left": 0},
                {"player": 14, "passes": 501, "cards_left": 2},
            ],
        },
    )
    assert [p.player for p in found] == [11, 11, 12, 13, 13, 14]
    messages = [p.message for p in found]
    assert messages[0] == "player 11: the passes cannot be negative"
    assert messages[1] == "player 11 was dealt 13 cards this hand, so cannot have 20 left"
    assert messages[2] == "player 12 went out, so has 0 cards left (got 3)"
    assert messages[4] == (
        "player 13 has 0 cards left, but only the player who went out (player 12) can have none"
    )
    assert messages[5] == "player 14: the passes cannot be more than 500"


def test_dirty_deals_collects_claim_suit_surplus_and_bower_problems() -> None:
    found = problems(
        "dirty-deals",
        {"winner": 11, "suit": "X", "surplus_count": -2, "bower_holder": 99},
    )
    assert [(p.field, p.player) for p in found] == [
        ("suit", None),
        ("surplus_count", 11),
        ("bower_holder", None),
    ]
    assert found[1].message == "player 11: the number of surplus cards cannot be negative"
    found = problems(
        "dirty-deals",
        {"winner": 11, "suit": "H", "surplus": ["JD", "9H", "10H"], "bower_holder": 13},
    )
    assert [p.message for p in found] == [
        "9H and 10H are of the six hearts claimed, so they are not surplus",
    ]


def test_screw_your_neighbour_has_one_thing_to_say() -> None:
    assert said(problems("screw-your-neighbour", {})) == [
        ("say who went out first", "winner", None)
    ]


def test_the_first_problem_keeps_its_kind() -> None:
    rules = get_ruleset("dirt")
    config = rules.configure(players=list(PLAYERS))
    with pytest.raises(CardError) as err:
        rules.play(config, [{"winner": 11, "results": [{"player": 12, "cards": ["ZZ"]}]}])
    assert len(err.value.problems) == 3
    assert err.value.as_dict()["results"][0] == err.value.message
    assert [e["player"] for e in err.value.as_dict()["errors"]] == [12, 13, 14]


def test_an_earlier_hand_s_problems_say_which_hand() -> None:
    rules = get_ruleset("dirt")
    config = rules.configure(players=list(PLAYERS))
    bad = {"winner": 11, "results": [{"player": 12, "points": -1}]}
    good = {"winner": 11, "results": [{"player": p, "points": 1} for p in (12, 13, 14)]}
    with pytest.raises(RuleError) as err:
        rules.play(config, [bad, good])
    assert all(p.message.startswith("hand 1: ") for p in err.value.problems)
    assert len(err.value.problems) == 3


# -- the property: accepted iff no problems, and each bad part named -----------------------

GOOD_POINTS = st.integers(min_value=0, max_value=60)
BAD_POINTS = st.sampled_from([-1, -50, "x", "1.5", "", 10**7])
BAD_CARDS = st.sampled_from([["ZZ"], ["JK", "1S"], ["W+9"], 5])


@st.composite
def shedding_entries(draw: st.DrawFn, slug: str) -> tuple[dict, set[int]]:
    """A Dirt or Dirty UNO entry where some players' lines are bad, and those players."""
    winner = draw(st.sampled_from(PLAYERS))
    results, bad = [], set()
    for player in PLAYERS:
        if player == winner:
            continue
        kind = draw(st.sampled_from(["points", "cards", "bad points", "bad cards", "missing"]))
        if kind == "points":
            results.append({"player": player, "points": draw(GOOD_POINTS)})
        elif kind == "cards":
            cards = ["KD", "3"] if slug == "dirt" else ["G4", "5"]
            results.append({"player": player, "cards": cards[: draw(st.integers(0, 2))]})
        elif kind == "bad points":
            results.append({"player": player, "points": draw(BAD_POINTS)})
            bad.add(player)
        elif kind == "bad cards":
            results.append({"player": player, "cards": draw(BAD_CARDS)})
            bad.add(player)
        else:
            bad.add(player)
    return {"winner": winner, "results": draw(st.permutations(results))}, bad


@st.composite
def damn_you_entries(draw: st.DrawFn) -> tuple[dict, set[int]]:
    winner = draw(st.sampled_from(PLAYERS))
    results, bad = [], set()
    for player in PLAYERS:
        passes = draw(st.one_of(st.integers(0, 5), st.sampled_from([-1, "x", 501])))
        if player == winner:
            left: Any = draw(st.sampled_from([0, 0, 2]))
        else:
            left = draw(st.one_of(st.integers(1, 13), st.sampled_from([0, 40, -2, None])))
        if not (isinstance(passes, int) and 0 <= passes <= 500):
            bad.add(player)
        if (player == winner and left != 0) or (
            player != winner and not (isinstance(left, int) and 1 <= left <= 13)
        ):
            bad.add(player)
        results.append({"player": player, "passes": passes, "cards_left": left})
    return {"winner": winner, "results": results}, bad


def check_property(slug: str, entry: dict, bad: set[int]) -> None:
    rules = get_ruleset(slug)
    config = rules.configure(players=list(PLAYERS))
    found = entry_problems(rules, config, [], entry)
    try:
        rules.play(config, [entry])
    except RuleError as error:
        accepted, raised = False, error.problems
    else:
        accepted, raised = True, ()
    # Accepted exactly when the problem list is empty, and it is what play raises.
    assert accepted == (not found)
    assert tuple(raised) == tuple(found)
    # Each bad player's part is named, beside that player; nobody else is blamed alone.
    assert bad <= {p.player for p in found}
    for problem in found:
        assert problem.player is None or problem.player in PLAYERS
        assert problem.message
        assert not FIELD_WORDS.search(problem.message), problem.message
        # Every player the message names is carried, so a page can say their names.
        assert not SEATED_BY_ID.search(problem.text(NAMES)), problem.message


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["dirt", "dirty-uno"]).flatmap(
        lambda s: st.tuples(st.just(s), shedding_entries(s))
    )
)
def test_shedding_entries_are_accepted_iff_they_have_no_problems(case: tuple) -> None:
    slug, (entry, bad) = case
    check_property(slug, entry, bad)


@settings(max_examples=150, deadline=None)
@given(damn_you_entries())
def test_damn_you_entries_are_accepted_iff_they_have_no_problems(case: tuple) -> None:
    entry, bad = case
    check_property("damn-you", entry, bad)


@settings(max_examples=150, deadline=None)
@given(
    winner=st.sampled_from([*PLAYERS, None, 99]),
    suit=st.sampled_from(["H", "spades", "X", None]),
    surplus=st.one_of(
        st.none(), st.lists(st.sampled_from(["9C", "JD", "QS", "AH", "ZZ", "2C"]), max_size=3)
    ),
    count=st.sampled_from([None, 0, 2, -1, "x"]),
    holder=st.sampled_from([None, *PLAYERS, 99]),
)
def test_dirty_deals_entries_are_accepted_iff_they_have_no_problems(
    winner: Any, suit: Any, surplus: Any, count: Any, holder: Any
) -> None:
    entry: dict[str, Any] = {"winner": winner, "suit": suit, "bower_holder": holder}
    if surplus is not None:
        entry["surplus"] = surplus
    if count is not None:
        entry["surplus_count"] = count
    check_property("dirty-deals", entry, set())


@settings(max_examples=50, deadline=None)
@given(winner=st.sampled_from([*PLAYERS, None, 99, "x"]))
def test_screw_entries_are_accepted_iff_they_have_no_problems(winner: Any) -> None:
    check_property("screw-your-neighbour", {"winner": winner}, set())
