"""Unlikely hands: far above the table's usual, per ruleset (games.plausible)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from games import get_ruleset
from games.plausible import USUAL_FACTOR, over_ceiling, table_usual, unlikely_amounts

PLAYERS = [1, 2, 3, 4]
DIRT_CEILING = get_ruleset("dirt").plausible_ceiling
assert DIRT_CEILING is not None


def config(slug: str, **options: Any):
    return get_ruleset(slug).configure(players=PLAYERS, options=options or None)


def points_hand(winner: int, **points: int) -> dict:
    return {
        "winner": winner,
        "results": [{"player": int(k[1:]), "points": v} for k, v in points.items()],
    }


def test_9999_in_a_dirt_hand_asks_even_without_history() -> None:
    found = unlikely_amounts(config("dirt"), 1, points_hand(1, p2=9999, p3=5, p4=7), [])
    assert [(u.player, u.amount, u.usual, u.limit, u.what) for u in found] == [
        (2, 9999, None, DIRT_CEILING, "points")
    ]


def test_the_usual_is_the_median_of_earlier_hands_without_the_player_who_went_out() -> None:
    cfg = config("dirt")
    earlier = [(1, points_hand(1, p2=40, p3=30, p4=50)), (2, points_hand(2, p1=38, p3=41, p4=90))]
    assert table_usual(cfg, earlier) == 40  # the median of 30 38 40 41 50 90, rounded
    found = unlikely_amounts(cfg, 3, points_hand(3, p1=9999, p2=20, p4=260), earlier)
    # max(3 × 40, 250) = 250: 260 asks too, 20 does not.
    assert [(u.player, u.usual, u.limit) for u in found] == [(1, 40, 250), (4, 40, 250)]


def test_a_high_scoring_table_has_a_higher_limit() -> None:
    cfg = config("dirty-uno")
    earlier = [(n, points_hand(1, p2=200, p3=210, p4=220)) for n in (1, 2, 3)]
    found = unlikely_amounts(cfg, 4, points_hand(1, p2=600, p3=631, p4=10), earlier)
    assert [(u.player, u.limit) for u in found] == [(3, USUAL_FACTOR * 210)]


def test_cards_count_with_the_hand_s_dirt_rank() -> None:
    cfg = config("dirt")
    # Hand 6 of baby Dirt: 7s are dirt (25 each); ten of them is 250 — not above.
    sevens = {"winner": 1, "results": [{"player": 2, "cards": ["7"] * 10}]}
    assert unlikely_amounts(cfg, 6, sevens, []) == []
    sevens["results"][0]["cards"].append("7")
    assert [u.amount for u in unlikely_amounts(cfg, 6, sevens, [])] == [275]


def test_damn_you_asks_about_passes_and_the_other_games_never() -> None:
    hand = {
        "winner": 2,
        "results": [
            {"player": 1, "passes": 31, "cards_left": 2},
            {"player": 2, "passes": 0, "cards_left": 0},
        ],
    }
    assert [(u.player, u.what) for u in unlikely_amounts(config("damn-you"), 1, hand, [])] == [
        (1, "passes")
    ]
    claim = {"winner": 1, "suit": "H", "surplus_count": 18, "bower_holder": None}
    assert unlikely_amounts(config("dirty-deals"), 1, claim, []) == []
    assert unlikely_amounts(config("screw-your-neighbour"), 1, {"winner": 1}, []) == []


@given(
    earlier=st.lists(st.integers(0, 400), min_size=0, max_size=20),
    amount=st.integers(0, 100_000),
)
def test_an_amount_asks_exactly_when_above_the_limit(earlier: list[int], amount: int) -> None:
    cfg = config("dirt")
    history = [(n + 1, points_hand(1, p2=v)) for n, v in enumerate(earlier)]
    found = unlikely_amounts(cfg, len(history) + 1, points_hand(1, p2=amount), history)
    usual = table_usual(cfg, history)
    limit = DIRT_CEILING if usual is None else max(USUAL_FACTOR * usual, DIRT_CEILING)
    assert bool(found) == (amount > limit)


@given(
    earlier=st.lists(st.integers(0, 400), min_size=0, max_size=20),
    amounts=st.lists(st.integers(0, 2_000), min_size=1, max_size=3),
    slug=st.sampled_from(["dirt", "dirty-uno"]),
)
def test_only_an_amount_over_the_ceiling_can_be_unlikely(
    earlier: list[int], amounts: list[int], slug: str
) -> None:
    """What lets a write skip the history: a hand none of whose amounts passes the
    ruleset's ceiling is never unlikely, whatever came before."""
    cfg = config(slug)
    history = [(n + 1, points_hand(1, p2=v, p3=v // 2)) for n, v in enumerate(earlier)]
    hand = points_hand(1, **{f"p{i + 2}": v for i, v in enumerate(amounts)})
    found = unlikely_amounts(cfg, len(history) + 1, hand, history)
    over = over_ceiling(cfg, len(history) + 1, hand)
    assert {u.player for u in found} <= set(over)
    assert bool(over) == any(v > get_ruleset(slug).plausible_ceiling for v in amounts)


def test_games_that_never_ask_have_nothing_over_a_ceiling() -> None:
    assert over_ceiling(config("screw-your-neighbour"), 1, {"winner": 1}) == {}
