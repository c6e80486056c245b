"""What a phone needs to enter the hands after the one in play while it cannot reach the
server: each coming hand's number, dealer, banner facts and card pad (what differs from
the hand in play's), and how a hand waiting to send shows on the grid until the server
scores it.

All of it is the engine's own data, asked of the game's presenter (``hand_ahead``,
``banner_facts``, ``card_pad``, ``provisional``); the page only looks a hand up by its
number (``static/js/offline-ahead.js``) and adds a pad's points, never scores a hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from games import RULESETS, GameState
from scorekeeper.presenters import presenter_for

#: How many hands past the one in play a phone can enter before it hears from the server.
AHEAD = 12


def _marks(facts: Mapping[str, Any]) -> dict[str, str]:
    """The plain facts of a hand, for the panel's ``data-ahead`` marks (the dirt rank…);
    its number and dealer go as the hand's own fields."""
    return {
        key: str(value)
        for key, value in facts.items()
        if key not in ("number", "dealer")
        and isinstance(value, str | int)
        and not isinstance(value, bool)
    }


def build_ahead(state: GameState, names: Mapping[int, str]) -> dict[str, Any] | None:
    """The coming hands, from the one in play on, for the entry panel's ``json_script``."""
    nxt = state.next_hand
    if nxt is None:
        return None
    shows = presenter_for(state.config.ruleset)
    config = state.config
    first = int(nxt["number"])
    last = shows.hands_total(state)
    stop = min(first + AHEAD, last) if last else first + AHEAD
    # The panel carries the hand in play's pad and marks, and a hand's banner facts are
    # mostly its predecessor's: each coming hand gives only what differs (offline-ahead.js
    # data() fills the rest in).
    in_play = shows.card_pad(state, nxt) or {}
    marks_in_play = _marks(nxt)
    hands: list[dict[str, Any]] = []
    facts_before: list[dict[str, Any]] | None = None
    for number in range(first, stop + 1):
        facts = nxt if number == first else shows.hand_ahead(state, number)
        hand: dict[str, Any] = {
            "number": number,
            "dealer": names.get(config.dealer_for(number), "?"),
            "known": facts is not None,
        }
        if facts is not None:
            shown = [asdict(f) for f in shows.banner_facts(state, facts, names)]
            if shown != facts_before:
                hand["facts"] = shown
            facts_before = shown
            pad = shows.card_pad(state, facts) or {}
            differs = {key: value for key, value in pad.items() if in_play.get(key) != value}
            marks = {k: v for k, v in _marks(facts).items() if marks_in_play.get(k) != v}
            if differs:
                hand["pad"] = differs
            if marks:
                hand["marks"] = marks
        hands.append(hand)
    rule = shows.provisional(state)
    return {
        "hands": hands,
        "last": last,
        "pad": in_play or None,
        "provisional": rule,
        "columns": list(config.players),
        "totals": [int(state.scores.get(p, 0)) for p in config.players],
        # Which way the standings run, for the standings with the hands waiting.
        "low_wins": RULESETS[config.ruleset].wins_with_for(config.options) == "low",
        "cell": {"zero": shows.cell_points(0, False), "win": shows.cell_points(1, True)},
    }
