"""A game is one module (issue 28): what the rest of the app asks of a game — its random
hands, its demo set-up, its rules hint, its table kit, its plausibility ceiling — comes
from its ruleset class, and works for every game of the registry."""

from __future__ import annotations

import random

import pytest

from games import RULESETS, Ruleset
from games.plausible import unlikely_amounts
from games.rules_hints import context_hint
from games.table_tools import table_kit
from scorekeeper.simulate import play_out

SLUGS = list(RULESETS)


def _seats(rules: Ruleset, rng: random.Random) -> list[int]:
    return list(range(1, rng.randint(rules.min_players, min(rules.max_players, 6)) + 1))


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("seed", range(6))
def test_a_demo_table_plays_a_whole_game_of_random_hands(slug: str, seed: int) -> None:
    """The demo's set-up configures, and the game's random hands pass the engine's checks
    until the game ends by its rules (or, open-ended, for as long as the table plays)."""
    rules = RULESETS[slug]
    rng = random.Random(seed)
    seats = _seats(rules, rng)
    config = rules.configure(players=seats, **rules.demo_setup(rng, seats))
    skill = {p: rng.uniform(-1, 1) for p in seats}
    limit = 12 if rules.open_ended(config) else None
    inputs, state = play_out(rng, config, skill, max_hands=limit)
    assert inputs
    assert state.finished or rules.open_ended(config)


@pytest.mark.parametrize("slug", SLUGS)
def test_random_hands_come_from_the_rng_passed_in(slug: str) -> None:
    rules = RULESETS[slug]
    config = rules.configure(players=[1, 2, 3, 4], options=dict(rules.example_options))
    state = rules.play(config, [])
    hands = [rules.random_hand(random.Random(7), config, state, {}) for _ in range(2)]
    assert hands[0] == hands[1]


def test_only_a_target_of_no_wins_leaves_a_game_open() -> None:
    screw = RULESETS["screw-your-neighbour"]
    assert screw.open_ended(screw.configure(players=[1, 2, 3], options={"target_wins": 0}))
    assert not screw.open_ended(screw.configure(players=[1, 2, 3]))
    assert not any(
        r.open_ended(r.configure(players=[1, 2, 3, 4], options=dict(r.example_options)))
        for r in RULESETS.values()
    )


@pytest.mark.parametrize("slug", SLUGS)
def test_each_game_words_the_hand_in_play(slug: str) -> None:
    rules = RULESETS[slug]
    config = rules.configure(players=[1, 2, 3, 4], options=dict(rules.example_options))
    state = rules.play(config, [])
    assert state.next_hand is not None
    hint = context_hint(slug, state.next_hand, {1: "Ana", 2: "Bo", 3: "Cy", 4: "Di"})
    assert hint == rules.rules_hint(state.next_hand, {1: "Ana", 2: "Bo", 3: "Cy", 4: "Di"})
    assert hint.endswith(".")


@pytest.mark.parametrize("slug", SLUGS)
def test_the_table_kit_is_the_rulesets(slug: str) -> None:
    assert table_kit(slug) is RULESETS[slug].table_kit


def test_a_game_with_no_ceiling_never_asks() -> None:
    rules = RULESETS["screw-your-neighbour"]
    config = rules.configure(players=[1, 2, 3])
    assert rules.plausible_ceiling is None
    assert unlikely_amounts(config, 1, {"winner": 1}, []) == []


@pytest.mark.parametrize(
    ("slug", "hand", "amount"),
    [
        ("dirt", {"winner": 1, "results": [{"player": 2, "points": 999}]}, 999),
        ("dirty-uno", {"winner": 1, "results": [{"player": 2, "points": 999}]}, 999),
        ("damn-you", {"winner": 1, "results": [{"player": 2, "passes": 99}]}, 99),
    ],
)
def test_a_game_with_a_ceiling_asks_above_it(slug: str, hand: dict, amount: int) -> None:
    rules = RULESETS[slug]
    config = rules.configure(players=[1, 2, 3])
    [unlikely] = unlikely_amounts(config, 1, hand, [])
    assert (unlikely.player, unlikely.amount, unlikely.what) == (2, amount, rules.plausible_unit)
    assert unlikely.limit == rules.plausible_ceiling
