"""A simulated card table: realistic hand inputs dealt from real cards, for the demo
league (``manage.py seed_demo``) and the league benchmark (``bench/league_bench.py``).

Nothing here decides a score: it only invents what a table would report (who went out,
the cards left in each hand, passes, claims), exactly in the shape of the API's hand
bodies, and the engine folds and checks them like any other input. Cards left in hand
are drawn without replacement from the decks the game is played with, so they always
pass the engine's copy checks. Stronger players (``skill`` above 0) go out more often
and are caught with fewer cards.

Deterministic: everything comes from the ``random.Random`` passed in. No Django here.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from games import GameConfig, GameState, get_ruleset
from games.cards import SUITS, french_deck, parse_french, parse_uno, uno_deck
from games.damn_you import deal_sizes, last_chip_needed
from games.dirt import card_points as dirt_card_points
from games.dirty_deals import BOWER
from games.dirty_deals import DECK as DEALS_DECK
from games.dirty_uno import card_points as uno_card_points

Skill = Mapping[int, float]

#: Share of players whose cards the table counts itself and reports as points.
POINTS_SHARE = 0.1


def _expand(deck: Mapping[str, int]) -> list[str]:
    return [code for code, copies in deck.items() for _ in range(copies)]


_UNO_CARDS = _expand(uno_deck())
_DEALS_CARDS = _expand(DEALS_DECK)


def pick_winner(rng: random.Random, players: Sequence[int], skill: Skill) -> int:
    """Who goes out: everybody can, the better players more often."""
    weights = [math.exp(skill.get(p, 0.0)) for p in players]
    return rng.choices(list(players), weights=weights)[0]


def _cards_held(rng: random.Random, skill: float, *, most: int) -> int:
    """How many cards a player is caught with when someone goes out."""
    return max(1, min(most, round(rng.gauss(3.5 - skill, 2.0))))


def _left_in_hand(
    rng: random.Random,
    config: GameConfig,
    skill: Skill,
    pool: list[str],
    *,
    most: int,
    points_of: Any,
) -> dict[str, Any]:
    winner = pick_winner(rng, config.players, skill)
    cards = list(pool)
    rng.shuffle(cards)
    results: list[dict[str, Any]] = []
    for player in config.players:
        if player == winner:
            continue
        held = [cards.pop() for _ in range(_cards_held(rng, skill.get(player, 0.0), most=most))]
        if rng.random() < POINTS_SHARE:
            results.append({"player": player, "points": sum(points_of(c) for c in held)})
        else:
            results.append({"player": player, "cards": held})
    return {"winner": winner, "results": results}


def dirt_hand(
    rng: random.Random, config: GameConfig, state: GameState, skill: Skill
) -> dict[str, Any]:
    assert state.next_hand is not None
    dirt = str(state.next_hand["dirt_rank"])
    ten = int(config.options.get("ten_points", 1))
    decks = int(state.extras.get("decks") or config.options.get("decks") or 2)
    return _left_in_hand(
        rng,
        config,
        skill,
        _expand(french_deck(decks, jokers_per_deck=2)),
        most=9,
        points_of=lambda code: dirt_card_points(parse_french(code), dirt, ten_points=ten),
    )


def uno_hand(
    rng: random.Random, config: GameConfig, state: GameState, skill: Skill
) -> dict[str, Any]:
    # With ten players a 108-card deck still leaves plenty: at most 9 x 8 cards held.
    return _left_in_hand(
        rng,
        config,
        skill,
        _UNO_CARDS,
        most=8,
        points_of=lambda code: uno_card_points(parse_uno(code)),
    )


def syn_hand(
    rng: random.Random, config: GameConfig, state: GameState, skill: Skill
) -> dict[str, Any]:
    return {"winner": pick_winner(rng, config.players, skill)}


def damn_you_hand(
    rng: random.Random, config: GameConfig, state: GameState, skill: Skill
) -> dict[str, Any]:
    assert state.next_hand is not None
    dealt = deal_sizes(config, int(state.next_hand["dealer"]))
    winner = pick_winner(rng, config.players, skill)
    results = []
    for player in config.players:
        s = skill.get(player, 0.0)
        passes = max(0, round(rng.gauss(1.5 - s / 2, 1.2)))
        left = 0 if player == winner else _cards_held(rng, s, most=dealt[player])
        results.append({"player": player, "passes": passes, "cards_left": left})
    hand: dict[str, Any] = {"winner": winner, "results": results}
    # Passes that leave nobody holding chips: the hand names who paid the last one.
    due = {int(a["player"]): int(a["amount"]) for a in state.next_hand["ante"]}
    after_ante = {p: int(state.scores[p]) - due[p] for p in config.players}
    if last_chip_needed(after_ante, {r["player"]: r["passes"] for r in results}):
        hand["last_chip"] = rng.choice([p for p in config.players if after_ante[p] > 0])
    return hand


def deals_hand(
    rng: random.Random, config: GameConfig, state: GameState, skill: Skill
) -> dict[str, Any]:
    winner = pick_winner(rng, config.players, skill)
    suit = rng.choice(SUITS)
    others = [c for c in _DEALS_CARDS if parse_french(c).suit != suit]
    count = rng.choices((0, 1, 2, 3, 4), weights=(30, 30, 20, 12, 8))[0]
    surplus = rng.sample(others, count)
    hand: dict[str, Any] = {"winner": winner, "suit": suit, "surplus": surplus}
    holder = None
    if BOWER[suit] not in surplus:
        # Every card is in someone's hand: a bower not in the surplus is another's.
        holder = rng.choice([p for p in config.players if p != winner])
    hand["bower_holder"] = holder
    return hand


HAND_MAKERS = {
    "dirt": dirt_hand,
    "screw-your-neighbour": syn_hand,
    "damn-you": damn_you_hand,
    "dirty-uno": uno_hand,
    "dirty-deals": deals_hand,
}


def next_hand(
    rng: random.Random, config: GameConfig, state: GameState, skill: Skill
) -> dict[str, Any]:
    """A plausible input for the next hand of a game in progress."""
    return HAND_MAKERS[config.ruleset](rng, config, state, skill)


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
    results = wrong.get("results")
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
        return wrong
    if isinstance(wrong.get("surplus"), list) and wrong["surplus"]:
        wrong["surplus"] = wrong["surplus"][:-1]
        return wrong
    return None
