"""A game continued from stored outcomes is the game folded from scratch: for every
ruleset, split anywhere, stored as JSON and read back."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import GameState, HandOutcome, RuleError, get_ruleset
from scorekeeper.simulate import play_out

SETUPS: dict[str, list[dict[str, Any]]] = {
    "dirt": [
        {"players": [1, 2, 3, 4], "variant": "full"},
        {"players": [1, 2, 3, 4], "teams": [[1, 3], [2, 4]], "options": {"ten_points": 10}},
    ],
    "screw-your-neighbour": [{"players": [1, 2, 3], "options": {"target_wins": 4}}],
    "damn-you": [{"players": [1, 2, 3, 4], "options": {"starting_chips": 5}}],
    "dirty-uno": [{"players": [1, 2, 3]}, {"players": [1, 2], "options": {"scoring": "penalty"}}],
    "dirty-deals": [{"players": [1, 2, 3, 4]}],
}
CASES = [(slug, i) for slug, setups in SETUPS.items() for i in range(len(setups))]


def _stored(state: GameState) -> list[HandOutcome]:
    """The outcomes as a database would give them back: through JSON."""
    return [HandOutcome.from_json(json.loads(json.dumps(o.to_json()))) for o in state.hands]


def _same(a: GameState, b: GameState) -> None:
    assert a.hands == b.hands
    assert (a.scores, a.standings, a.finished, a.winners) == (
        b.scores,
        b.standings,
        b.finished,
        b.winners,
    )
    assert (a.next_hand, a.extras, a.ended_by) == (b.next_hand, b.extras, b.ended_by)


@pytest.mark.parametrize(("slug", "setup"), CASES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), split=st.floats(0, 1), closed=st.booleans())
def test_a_game_continued_from_stored_outcomes_is_the_game_replayed(
    slug: str, setup: int, seed: int, split: float, closed: bool
) -> None:
    rules = get_ruleset(slug)
    config = rules.configure(**SETUPS[slug][setup])
    rng = random.Random(seed)
    inputs, _ = play_out(rng, config, {}, max_hands=rng.randint(1, 40))
    k = round(split * len(inputs))
    whole = rules.play(config, inputs, closed=closed)
    first = rules.play(config, inputs[:k])
    stored = _stored(first)
    # Continued from all the stored outcomes, or from the last one alone.
    for kept in (stored, stored[-1:]):
        resumed = rules.resume(config, kept)
        continued = rules.play(config, inputs[k:], closed=closed, state=resumed)
        assert continued.hands[-1] == whole.hands[-1]
        assert list(continued.hands) == list(whole.hands[k - len(kept) :])
        assert (continued.scores, continued.standings, continued.finished) == (
            whole.scores,
            whole.standings,
            whole.finished,
        )
        assert (continued.winners, continued.next_hand) == (whole.winners, whole.next_hand)
        assert (continued.extras, continued.ended_by) == (whole.extras, whole.ended_by)
    _same(rules.resume(config, _stored(whole), closed=closed), whole)


@pytest.mark.parametrize(("slug", "setup"), CASES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_no_hand_is_taken_after_the_end_when_continuing(slug: str, setup: int, seed: int) -> None:
    rules = get_ruleset(slug)
    config = rules.configure(**SETUPS[slug][setup])
    rng = random.Random(seed)
    inputs, state = play_out(rng, config, {}, max_hands=60)
    if not state.finished:
        return
    again = rules.resume(config, _stored(state)[-1:])
    with pytest.raises(RuleError) as replayed:
        rules.play(config, [*inputs, inputs[-1]])
    with pytest.raises(RuleError) as continued:
        rules.play(config, [inputs[-1]], state=again)
    assert continued.value.message == replayed.value.message
