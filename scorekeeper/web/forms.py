"""The new-game form of the pages, turned into the shape the API takes.

The pages post plain HTML forms (they work without JavaScript); from the new-game form is
built exactly the dict that ``POST /api/v1/games/`` accepts, so the same service (and the
engine behind it) checks both. Nothing here validates the rules: a bad value is passed on
as typed and the engine names the problem. (A hand's entry form is its game's:
``Presenter.entry_form``, ``scorekeeper.presenters.hand_input``.)
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict

from games import Ruleset
from games.base import whole_number


def _token(value: str) -> str:
    """A form's one-time token as sent, or "" when it is not one."""
    value = value.strip()
    return value if 8 <= len(value) <= 64 and value.replace("-", "").isalnum() else ""


def _text(data: QueryDict | Mapping[str, Any], name: str) -> str:
    value = data.get(name)
    return str(value).strip() if value is not None else ""


# -- new game -----------------------------------------------------------------------------


@dataclass
class SeatEntry:
    """One seat of the new-game form: an existing player picked, or a new name typed."""

    player: str = ""
    name: str = ""
    team: str = ""

    @property
    def empty(self) -> bool:
        return not self.player and not self.name


@dataclass
class NewGameEntry:
    """The new-game form as typed."""

    ruleset: str
    variant: str = ""
    options: dict[str, str] = field(default_factory=dict)
    seats: list[SeatEntry] = field(default_factory=list)
    partners: bool = False
    first_dealer: str = "0"
    league: str = ""
    #: The game night the game is part of (its id as typed; empty: none).
    night: str = ""
    #: One per new-game form shown: the same form sent again opens the same game.
    start_token: str = field(default_factory=lambda: uuid.uuid4().hex)

    @classmethod
    def initial(cls, rules: Ruleset, *, own_player: int | None) -> NewGameEntry:
        count = min(rules.max_players, max(rules.min_players, 4))
        seats = [SeatEntry(team=str(i % 2 + 1)) for i in range(count)]
        if own_player is not None:
            seats[0].player = str(own_player)
        return cls(
            ruleset=rules.slug,
            variant=rules.default_variant or "",
            options={o.name: "" if o.default is None else str(o.default) for o in rules.options},
            seats=seats,
        )

    @classmethod
    def from_post(cls, data: QueryDict, rules: Ruleset) -> NewGameEntry:
        typed = whole_number(_text(data, "seat_count"))
        count = typed if typed is not None else min(rules.max_players, max(rules.min_players, 4))
        count = max(1, min(count, rules.max_players))
        seats = [
            SeatEntry(
                player=_text(data, f"seat-{i}-player"),
                name=_text(data, f"seat-{i}-name"),
                team=_text(data, f"seat-{i}-team"),
            )
            for i in range(count)
        ]
        return cls(
            ruleset=rules.slug,
            variant=_text(data, "variant"),
            options={o.name: _text(data, f"option-{o.name}") for o in rules.options},
            seats=seats,
            partners=rules.supports_teams and _text(data, "partners") in {"1", "on"},
            first_dealer=_text(data, "first_dealer") or "0",
            league=_text(data, "league"),
            night=_text(data, "night"),
            start_token=_token(_text(data, "start_token")) or uuid.uuid4().hex,
        )

    def filled_seats(self) -> list[tuple[int, SeatEntry]]:
        """The seats with a player, with their row index, in seating order."""
        return [(i, s) for i, s in enumerate(self.seats) if not s.empty]

    def options_payload(self) -> dict[str, str]:
        """The options the table set; an empty value keeps the game's default."""
        return {name: value for name, value in self.options.items() if value != ""}
