"""The shape of a folded game: each hand's outcome (with the fold's running state), the
standings with shared ranks, the finishing places and the whole game's state."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from games.config import GameConfig
from games.errors import JSON

T = TypeVar("T")


@dataclass(frozen=True, init=False)
class HandOutcome:
    """One folded hand. ``input`` is the normalised input (what is stored); ``points`` is
    what the hand scored per player; ``totals`` the players' scores after it;
    ``extras`` the game-specific facts (dirt rank, chip movements, rubber…)."""

    number: int
    dealer: int
    winner: int | None
    input: Mapping[str, JSON]
    points: Mapping[int, int]
    totals: Mapping[int, int]
    team_points: tuple[int, ...] | None = None
    extras: Mapping[str, JSON] = field(default_factory=dict)
    #: The fold's running state after this hand (JSON-able, player maps as lists in seat
    #: order): what :meth:`Ruleset.play` continues from, so no earlier hand is replayed.
    carry: Mapping[str, JSON] = field(default_factory=dict, repr=False)

    def __init__(
        self,
        number: int,
        dealer: int,
        winner: int | None,
        input: Mapping[str, JSON],
        points: Mapping[int, int],
        totals: Mapping[int, int],
        team_points: tuple[int, ...] | None = None,
        extras: Mapping[str, JSON] | None = None,
        carry: Mapping[str, JSON] | None = None,
    ) -> None:
        # Set in one step: a game folds thousands of hands, and the frozen dataclass's
        # own __init__ (one object.__setattr__ per field) is twice as slow.
        self.__dict__.update(
            number=number,
            dealer=dealer,
            winner=winner,
            input=input,
            points=points,
            totals=totals,
            team_points=team_points,
            extras={} if extras is None else extras,
            carry={} if carry is None else carry,
        )

    def to_json(self) -> dict[str, JSON]:
        """Everything about this hand as JSON (for storage); :meth:`from_json` reads it back."""
        return {
            "number": self.number,
            "dealer": self.dealer,
            "winner": self.winner,
            "input": self.input,
            "points": [[p, n] for p, n in self.points.items()],
            "totals": [[p, n] for p, n in self.totals.items()],
            "team_points": list(self.team_points) if self.team_points is not None else None,
            "extras": self.extras,
            "carry": self.carry,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> HandOutcome:
        team_points = data.get("team_points")
        return cls(
            number=data["number"],
            dealer=data["dealer"],
            winner=data["winner"],
            input=data["input"],
            points=dict(data["points"]),
            totals=dict(data["totals"]),
            team_points=tuple(team_points) if team_points is not None else None,
            extras=data["extras"],
            carry=data["carry"],
        )

    def as_dict(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {
            "number": self.number,
            "dealer": self.dealer,
            "winner": self.winner,
            "points": [{"player": p, "points": n} for p, n in self.points.items()],
            "totals": [{"player": p, "score": n} for p, n in self.totals.items()],
        }
        if self.team_points is not None:
            data["team_points"] = [{"team": i, "points": n} for i, n in enumerate(self.team_points)]
        data.update(self.extras)
        return data


@dataclass(frozen=True)
class StandingRow:
    """A line of the standings: one player, or one team (``team`` set, ``player`` None)."""

    players: tuple[int, ...]
    score: int
    rank: int
    player: int | None = None
    team: int | None = None
    extras: Mapping[str, JSON] = field(default_factory=dict)

    def as_dict(self) -> dict[str, JSON]:
        data: dict[str, JSON]
        if self.team is not None:
            data = {"team": self.team, "players": list(self.players)}
        else:
            data = {"player": self.player}
        data["score"] = self.score
        data["rank"] = self.rank
        data.update(self.extras)
        return data


@dataclass(frozen=True)
class Placement:
    """A finishing place for leagues: the players of one seat (or team), sharing ties."""

    players: tuple[int, ...]
    place: int
    won: bool


@dataclass(frozen=True)
class GameState:
    """A game folded from its hands."""

    config: GameConfig
    hands: tuple[HandOutcome, ...]
    scores: Mapping[int, int]
    standings: tuple[StandingRow, ...]
    finished: bool
    winners: tuple[int, ...]
    next_hand: Mapping[str, JSON] | None
    extras: Mapping[str, JSON] = field(default_factory=dict)
    #: How the game ended: "" while in progress, else e.g. "hands", "target", "early", "closed".
    ended_by: str = ""

    @property
    def status(self) -> str:
        return "finished" if self.finished else "in_progress"

    @property
    def played(self) -> int:
        """Hands played: the last outcome's number (``hands`` may hold the last few only,
        as :meth:`Ruleset.resume` allows)."""
        return self.hands[-1].number if self.hands else 0

    def placements(self) -> tuple[Placement, ...]:
        """The final ranking of seats (or teams), ties sharing a place."""
        return tuple(
            Placement(
                players=row.players, place=row.rank, won=bool(set(row.players) & set(self.winners))
            )
            for row in self.standings
        )


def rank_competition(items: Sequence[T], key: Callable[[T], Any]) -> list[tuple[T, int]]:
    """Sort ``items`` by ``key`` (best first) and give standard competition ranks (1, 1, 3):
    equal keys share a rank, and the next rank skips the shared places."""
    ordered = sorted(items, key=key)
    ranked: list[tuple[T, int]] = []
    previous: object = object()
    rank = 0
    for position, item in enumerate(ordered, start=1):
        k = key(item)
        if k != previous:
            rank = position
            previous = k
        ranked.append((item, rank))
    return ranked
