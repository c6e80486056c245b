"""The scoreboard above the grid: the standings sorted by place, big numbers, and what
each player (or team) needs, in the words of the game's own rules.

Every number comes from the engine's :class:`~games.GameState` (standings, scores,
hands played, the game's own targets); this module only says them for a phone: the
leader first, so it is on screen however many players sit at the table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from games import RULESETS, GameState
from scorekeeper.presenters import presenter_for
from scorekeeper.presenters.base import Gap, ordinal
from scorekeeper.web.sheet import Column


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


def build_scoreboard(state: GameState, columns: Sequence[Column]) -> Scoreboard | None:
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
    config = state.config
    low_wins = RULESETS[config.ruleset].wins_with_for(config.options) == "low"
    shows = presenter_for(config.ruleset)
    leaders = [row for row, _ in rows if row.rank == 1]
    best = leaders[0].score
    tied = len(leaders) > 1
    others = [row.score for row, _ in rows if row.rank != 1]
    if others:
        runner_up = min(others) if low_wins else max(others)
        lead = abs(runner_up - best)
    else:
        lead = 0
    lines: list[BoardLine] = []
    for row, col in rows:
        score = int(row.score)
        rubbers = shows.rubber_marks(row)
        gap = Gap(abs(score - best), lead, leader=row.rank == 1, tied=tied)
        lines.append(
            BoardLine(
                rank=row.rank,
                place=ordinal(row.rank),
                label=col.label,
                marker=col.marker,
                score=str(score),
                unit=shows.line_unit(score),
                need=shows.need(state, row, gap),
                leader=row.rank == 1,
                rubbers=rubbers,
                rubbers_won=sum(rubbers),
            )
        )
    return Scoreboard(title=shows.board_title(state), goal=shows.goal(config.options), lines=lines)


@dataclass
class FinalLine:
    """One place of a finished game's standings: ``tied`` when another shares it."""

    place: str
    tied: bool
    label: str
    marker: str
    score: str
    unit: str
    won: bool


@dataclass
class FinalBoard:
    winners: list[str]
    lines: list[FinalLine]
    played: int


def build_final_board(
    state: GameState, columns: Sequence[Column], names: Mapping[int, str]
) -> FinalBoard | None:
    """A finished game's standings for the table display, winner first: each score in
    the game's own terms (``final_score``: chips, points, hand wins, rubbers), split
    into the number shown big and the words after it."""
    if not state.finished:
        return None
    shows = presenter_for(state.config.ruleset)
    by_key = {c.key: c for c in columns}
    winners = set(state.winners)
    ranks = Counter(row.rank for row in state.standings)
    lines: list[FinalLine] = []
    for row in state.standings:
        key = row.team if row.team is not None else row.player
        col = by_key.get(key) if key is not None else None
        if col is None:
            continue
        number, _, unit = shows.final_score(row).partition(" ")
        lines.append(
            FinalLine(
                place=ordinal(row.rank),
                tied=ranks[row.rank] > 1,
                label=col.label,
                marker=col.marker,
                score=number,
                unit=unit,
                won=bool(set(row.players) & winners),
            )
        )
    return FinalBoard(
        winners=[names.get(p, "?") for p in state.winners], lines=lines, played=state.played
    )
