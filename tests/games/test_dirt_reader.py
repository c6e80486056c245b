"""Dirt reads a hand's cards through a per-code memo (``games.dirt._reader``): the
normalised hand, the points and every problem are what reading each card afresh gives."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games import RuleError, get_ruleset
from games.cards import french_deck, french_rank
from games.dirt import _code, _parse_card, _points_of, _reader
from games.shedding import parse_left_in_hand

RULES = get_ruleset("dirt")
CONFIG = RULES.configure(players=[1, 2, 3, 4], variant="full", options={"decks": 1})
codes = st.one_of(
    st.sampled_from(["JK", "4", "4H", "10", "T", "KS", "7", "7d", "A♠", "as", "ZZ", "1", "4h"]),
    st.text(alphabet="0123456789AJQKTSHDC♠♥ ", max_size=4),
    st.integers(min_value=-1, max_value=11),
    st.none(),
)
lines = st.one_of(
    st.lists(codes, max_size=8),
    st.text(alphabet="4HKS, JK7", max_size=12),
    st.integers(min_value=0, max_value=40),
)


def _read(raw: dict[str, Any], dirt: str, ten: int, *, memo: bool) -> object:
    extra = {"read_code": _reader(dirt, ten)} if memo else {}
    try:
        return parse_left_in_hand(
            CONFIG,
            raw,
            parse_card=_parse_card,
            card_code=_code,
            card_points=_points_of(dirt, ten),
            deck=french_deck(1, jokers_per_deck=2),
            deck_name="1 deck with jokers",
            rank_of=french_rank,
            **extra,
        )
    except RuleError as error:
        return (type(error), error.message, error.field, error.player, error.problems)


@settings(max_examples=300, deadline=None)
@given(
    winner=st.sampled_from([1, 2, 3, 4]),
    given_lines=st.lists(lines, min_size=3, max_size=3),
    dirt=st.sampled_from(["2", "4", "6", "7"]),
    ten=st.sampled_from([1, 10]),
)
def test_the_memo_reads_a_hand_as_reading_each_card_does(
    winner: int, given_lines: list[Any], dirt: str, ten: int
) -> None:
    others = [p for p in (1, 2, 3, 4) if p != winner]
    results = [
        {"player": p, "points": line} if isinstance(line, int) else {"player": p, "cards": line}
        for p, line in zip(others, given_lines, strict=True)
    ]
    raw = {"winner": winner, "results": results}
    assert _read(raw, dirt, ten, memo=True) == _read(raw, dirt, ten, memo=False)
    # And again, from what the memo kept.
    assert _read(raw, dirt, ten, memo=True) == _read(raw, dirt, ten, memo=False)
