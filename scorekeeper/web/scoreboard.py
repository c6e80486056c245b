"""The scoreboard above the grid: the standings sorted by place, big numbers, and what
each player (or team) needs, in the words of the game's own rules.

Every number comes from the engine's :class:`~games.GameState` (standings, scores,
hands played, the game's own targets); this module only says them for a phone: the
leader first, so it is on screen however many players sit at the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from games import GameState
from games.dirty_deals import RUBBER_TARGET, RUBBERS_TO_WIN
from games.dirty_uno import TARGET as UNO_TARGET
from scorekeeper.web.sheet import Column, ordinal


@dataclass
class BoardLine:
    """One place on the scoreboard: a player, or a team in partner play."""

    rank: int
    place: str
    label: str
    score: str
    unit: str
    need: str
    leader: bool
    #: Dirty Deals: rubbers won, as filled and open marks (``[True, False]``).
    rubbers: list[bool] = field(default_factory=list)
    rubbers_won: int = 0
    #: The player's (or team's) colour class, as the grid column's.
    marker: str = ""


@dataclass
class Scoreboard:
    title: str
    goal: str
    lines: list[BoardLine]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _gap_text(gap: int, lead: int, *, leader: bool, tied: bool, unit: str = "") -> str:
    """ "leads by 12", "level at the top" or "12 behind"."""
    suffix = f" {unit}" if unit else ""
    if leader:
        return "level at the top" if tied or lead == 0 else f"leads by {lead}{suffix}"
    return f"{gap}{suffix} behind"


def _hands_title(state: GameState, total: int | None) -> str:
    played = len(state.hands)
    if total:
        left = total - played
        return f"After hand {played} of {total} · {_plural(left, 'hand')} left"
    return f"After hand {played}"


def build_scoreboard(
    game_ruleset: str,
    state: GameState,
    columns: Sequence[Column],
    goal: str,
) -> Scoreboard | None:
    """The standings of a game in progress, best first; None before the first hand and
    once the game is over (the result card ranks it then)."""
    if not state.hands or state.finished:
        return None
    by_key = {c.key: c for c in columns}
    rows = [
        (row, by_key[key])
        for row in state.standings
        if (key := row.team if row.team is not None else row.player) is not None and key in by_key
    ]
    if not rows:
        return None
    ruleset = game_ruleset
    options: Mapping[str, object] = state.config.options
    low_wins = ruleset == "dirt" or (
        ruleset == "dirty-uno" and options.get("scoring", "standard") == "penalty"
    )
    leaders = [row for row, _ in rows if row.rank == 1]
    best = leaders[0].score
    tied = len(leaders) > 1
    others = [row.score for row, _ in rows if row.rank != 1]
    if others:
        runner_up = min(others) if low_wins else max(others)
        lead = abs(runner_up - best)
    else:
        lead = 0

    title = _hands_title(state, None)
    unit = "pts"
    if ruleset == "dirt":
        title = _hands_title(state, len(state.extras.get("dirt_ranks") or []) or None)
    elif ruleset == "damn-you":
        title = _hands_title(state, int(state.extras.get("hands_total") or 0) or None)
        unit = "chips"
    elif ruleset == "screw-your-neighbour":
        unit = "wins"
    elif ruleset == "dirty-deals":
        title = f"After hand {len(state.hands)} · rubber {state.extras.get('rubber', 1)}"

    lines: list[BoardLine] = []
    for row, col in rows:
        score = int(row.score)
        leader = row.rank == 1
        gap = abs(score - best)
        need = _gap_text(gap, lead, leader=leader, tied=tied)
        rubbers: list[bool] = []
        line_unit = unit
        if ruleset == "damn-you":
            need = _gap_text(gap, lead, leader=leader, tied=tied, unit="chips")
            if score == 0:
                need = "no chips left: plays on, pays nothing"
        elif ruleset == "screw-your-neighbour":
            target = int(state.extras.get("target_wins") or 0)
            if target:
                left = target - score
                need = f"needs {left} more win{'' if left == 1 else 's'}"
            line_unit = "win" if score == 1 else "wins"
        elif ruleset == "dirty-uno":
            to_pass = UNO_TARGET + 1 - score
            if low_wins:
                need = f"{need} · {to_pass} from passing {UNO_TARGET}"
            else:
                need = f"needs {to_pass} to pass {UNO_TARGET}"
        elif ruleset == "dirty-deals":
            won = int(row.extras.get("rubbers", 0))
            rubbers = [i < won for i in range(RUBBERS_TO_WIN)]
            still = RUBBERS_TO_WIN - won
            if score >= RUBBER_TARGET:
                need = f"level at {score}: play on until one leads"
            else:
                need = f"needs {RUBBER_TARGET - score} more for the rubber"
            if still == 1:
                need += " · one more rubber wins the match"
        lines.append(
            BoardLine(
                rank=row.rank,
                place=ordinal(row.rank),
                label=col.label,
                marker=col.marker,
                score=str(score),
                unit=line_unit,
                need=need,
                leader=leader,
                rubbers=rubbers,
                rubbers_won=sum(rubbers),
            )
        )
    return Scoreboard(title=title, goal=goal, lines=lines)
