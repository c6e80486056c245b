"""What a simulated table reports, shared by the games' :meth:`~games.base.Ruleset.random_hand`
(the demo league and the benchmarks drive them through ``scorekeeper.simulate``).

Nothing here decides a score: it only invents what a table would report (who went out,
the cards left in each hand), and the engine folds and checks it like any other input.
Cards left in hand are drawn without replacement from the decks the game is played
with, so they always pass the engine's copy checks. Stronger players (``skill`` above 0)
go out more often and are caught with fewer cards. Everything comes from the
``random.Random`` passed in.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

Skill = Mapping[int, float]

#: Share of players whose cards the table counts itself and reports as points.
POINTS_SHARE = 0.1


def expand(deck: Mapping[str, int]) -> list[str]:
    """Every card of a deck given as ``{code: copies}``."""
    return [code for code, copies in deck.items() for _ in range(copies)]


def pick_winner(rng: random.Random, players: Sequence[int], skill: Skill) -> int:
    """Who goes out: everybody can, the better players more often."""
    weights = [math.exp(skill.get(p, 0.0)) for p in players]
    return rng.choices(list(players), weights=weights)[0]


def cards_held(rng: random.Random, skill: float, *, most: int) -> int:
    """How many cards a player is caught with when someone goes out."""
    return max(1, min(most, round(rng.gauss(3.5 - skill, 2.0))))


def left_in_hand(
    rng: random.Random,
    players: Sequence[int],
    skill: Skill,
    pool: Sequence[str],
    *,
    most: int,
    points_of: Callable[[str], int],
) -> dict[str, Any]:
    """A hand of a game scored from the cards left in hand (:mod:`games.shedding`): who
    went out, and for every other player the cards dealt them from ``pool`` (at most
    ``most``), now and then as the points the table counted instead."""
    winner = pick_winner(rng, players, skill)
    cards = list(pool)
    rng.shuffle(cards)
    results: list[dict[str, Any]] = []
    for player in players:
        if player == winner:
            continue
        held = [cards.pop() for _ in range(cards_held(rng, skill.get(player, 0.0), most=most))]
        if rng.random() < POINTS_SHARE:
            results.append({"player": player, "points": sum(points_of(c) for c in held)})
        else:
            results.append({"player": player, "cards": held})
    return {"winner": winner, "results": results}
