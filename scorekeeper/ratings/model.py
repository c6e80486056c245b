"""The rating model: openskill's Plackett–Luce, applied to one game's ranking at a time.

Pure Python (no Django): the rating shown (:func:`conservative_rating`) and the games a
rating stays provisional (:data:`PROVISIONAL_GAMES`) are read by selectors and pages,
which must not import the replay's writes to know them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from openskill.models import PlackettLuce

#: A rating is shown as provisional until the player has this many games in its scope.
PROVISIONAL_GAMES = 5

#: openskill's defaults: mu 25, sigma 25/3, so a new player's conservative rating is 0.
MODEL = PlackettLuce()
INITIAL_MU: float = MODEL.mu
INITIAL_SIGMA: float = MODEL.sigma


def conservative_rating(mu: float, sigma: float) -> float:
    """The rating shown: 99.7% sure the player is at least this good."""
    return mu - 3 * sigma


@dataclass
class Line:
    """A player's running state in one scope while a replay walks the games."""

    mu: float = INITIAL_MU
    sigma: float = INITIAL_SIGMA
    games: int = 0
    wins: int = 0
    place_sum: int = 0


@dataclass
class Entry:
    """One seat of a finished game as the ratings see it."""

    player: int
    team: int | None
    place: int | None
    won: bool


@dataclass
class GameRow:
    """A finished game as the ratings see it: its place in the order and its seats."""

    id: int
    created_at: datetime
    ruleset: str
    entries: list[Entry] = field(default_factory=list)
    #: Where the league ranks it (``Game.league_scope``): its slug, or ``<slug>/<title>``.
    scope: str = ""


def rate(game: GameRow, lines: dict[int, Line]) -> dict[int, tuple[float, float]]:
    """New (mu, sigma) of every player of a game. Partner play: each team is one entry
    of the match, with its members; ties share a rank."""
    groups: dict[object, list[Entry]] = {}
    for entry in game.entries:
        key: object = ("team", entry.team) if entry.team is not None else ("seat", entry.player)
        groups.setdefault(key, []).append(entry)
    teams = list(groups.values())
    match = [
        [MODEL.rating(mu=lines[e.player].mu, sigma=lines[e.player].sigma) for e in team]
        for team in teams
    ]
    ranks = [float(min(e.place or 0 for e in team)) for team in teams]
    rated = MODEL.rate(match, ranks=ranks)
    return {
        entry.player: (float(new.mu), float(new.sigma))
        for team, new_team in zip(teams, rated, strict=True)
        for entry, new in zip(team, new_team, strict=True)
    }
