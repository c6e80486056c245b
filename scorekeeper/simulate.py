"""A simulated card table: realistic hand inputs for the demo league (``manage.py
seed_demo``), the benchmarks and the tests.

Nothing here decides a score: each game invents what a table would report
(:meth:`games.base.Ruleset.random_hand`, dealt from real cards), exactly in the shape of
the API's hand bodies, and the engine folds and checks it like any other input. This
module only drives them: the next hand, a whole game, and a plausible typing mistake.

Deterministic: everything comes from the ``random.Random`` passed in. No Django here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games import GameConfig, GameState, get_ruleset
from games.table_sim import Skill

__all__ = ["Skill", "next_hand", "play_out", "slip_of_the_pen"]


def next_hand(
    rng: random.Random, config: GameConfig, state: GameState, skill: Skill
) -> dict[str, Any]:
    """A plausible input for the next hand of a game in progress."""
    return get_ruleset(config.ruleset).random_hand(rng, config, state, skill)


def play_out(
    rng: random.Random,
    config: GameConfig,
    skill: Skill,
    *,
    max_hands: int | None = None,
) -> tuple[list[dict[str, Any]], GameState]:
    """Hands until the game ends by its rules (or ``max_hands`` are played: then the
    game is left in progress). Returns the engine's normalised inputs and final state."""
    rules = get_ruleset(config.ruleset)
    inputs: list[dict[str, Any]] = []
    state = rules.play(config, inputs)
    while not state.finished and (max_hands is None or len(inputs) < max_hands):
        candidate = next_hand(rng, config, state, skill)
        state = rules.play(config, [candidate], state=state)
        inputs.append(dict(state.hands[-1].input))
    return inputs, state


def slip_of_the_pen(rng: random.Random, hand: Mapping[str, Any]) -> dict[str, Any] | None:
    """The same hand with one plausible typing mistake (a card missed, a pass miscounted,
    a surplus card forgotten), or None when there is nothing to get wrong."""
    wrong = {k: (list(v) if isinstance(v, list) else v) for k, v in hand.items()}
    key = "results" if "results" in wrong else "scores"
    results = wrong.get(key)
    if isinstance(results, list) and results:
        index = rng.randrange(len(results))
        entry = dict(results[index])
        if isinstance(entry.get("cards"), list) and len(entry["cards"]) > 1:
            entry["cards"] = entry["cards"][:-1]
        elif "passes" in entry:
            entry["passes"] = int(entry["passes"]) + 1
        elif "points" in entry:
            entry["points"] = int(entry["points"]) + 10
        else:
            return None
        results[index] = entry
        wrong[key] = results
        return wrong
    if isinstance(wrong.get("surplus"), list) and wrong["surplus"]:
        wrong["surplus"] = wrong["surplus"][:-1]
        return wrong
    return None
