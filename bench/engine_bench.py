"""The engine alone: microseconds of CPU per hand when a whole game is folded.

    .venv/bin/python bench/engine_bench.py            # every ruleset, goal 50 µs a Dirt hand

Games are dealt by :mod:`scorekeeper.simulate` (real cards, seeded), four players each
(Dirt: Full Dirt, ten hands), then each game is folded by ``Ruleset.play`` from its
inputs, over and over; the figure is the median over rounds of CPU time per hand.
``--inputs FILE`` writes (or, when it exists, reads) the dealt inputs, so another checkout
of the engine can be timed on the very same games.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import get_ruleset

#: Microseconds a Dirt hand may cost.
DIRT_GOAL_US = 50.0
SETUPS: dict[str, dict[str, Any]] = {
    "dirt": {"variant": "full"},
    "screw-your-neighbour": {"options": {"target_wins": 10}},
    "damn-you": {},
    "dirty-uno": {},
    "dirty-deals": {},
}


def deal_games(games: int, seed: int) -> dict[str, list[list[dict[str, Any]]]]:
    from scorekeeper.simulate import play_out

    rng = random.Random(seed)
    dealt: dict[str, list[list[dict[str, Any]]]] = {}
    for slug, setup in SETUPS.items():
        rules = get_ruleset(slug)
        config = rules.configure(players=[1, 2, 3, 4], **setup)
        skill = {p: rng.uniform(-0.5, 0.5) for p in config.players}
        dealt[slug] = [play_out(rng, config, skill)[0] for _ in range(games)]
    return dealt


def time_engine(
    dealt: dict[str, list[list[dict[str, Any]]]], rounds: int
) -> dict[str, tuple[float, int]]:
    """Median µs of CPU per hand, and hands folded per round, for each ruleset."""
    figures: dict[str, tuple[float, int]] = {}
    for slug, games in dealt.items():
        rules = get_ruleset(slug)
        config = rules.configure(players=[1, 2, 3, 4], **SETUPS[slug])
        hands = sum(len(g) for g in games)
        samples = []
        for _ in range(rounds):
            started = time.process_time()
            for inputs in games:
                rules.play(config, inputs)
            samples.append((time.process_time() - started) / hands * 1e6)
        figures[slug] = (statistics.median(samples), hands)
    return figures


def report(figures: dict[str, tuple[float, int]]) -> list[str]:
    lines = ["engine: CPU per hand folded (median of rounds)"]
    for slug, (us, hands) in figures.items():
        goal = (
            f"goal ≤ {DIRT_GOAL_US:.0f} µs " + ("MET" if us <= DIRT_GOAL_US else "NOT MET")
            if slug == "dirt"
            else ""
        )
        lines.append(f"  {slug:<22} {us:8.1f} µs/hand  ({hands} hands a round)  {goal}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="Games per ruleset.")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--inputs", type=Path, help="Read or write the dealt games here.")
    args = parser.parse_args(argv)
    if args.inputs is not None and args.inputs.exists():
        dealt = json.loads(args.inputs.read_text())
    else:
        dealt = deal_games(args.games, args.seed)
        if args.inputs is not None:
            args.inputs.write_text(json.dumps(dealt))
    figures = time_engine(dealt, args.rounds)
    print("\n".join(report(figures)))
    return 0 if figures["dirt"][0] <= DIRT_GOAL_US else 1


if __name__ == "__main__":
    raise SystemExit(main())
