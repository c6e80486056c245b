"""Form input of the score-sheet pages, turned into the shapes the API takes.

The pages post plain HTML forms (they work without JavaScript); from them are built
exactly the dicts that ``POST /api/v1/games/`` and ``POST …/hands/`` accept (a hand's by
its game's presenter, ``Presenter.hand_input``), so the same services (and the engine
behind them) check and score both. Nothing here validates the rules: a bad value is
passed on as typed and the engine names the problem.

An :class:`Entry` holds the raw values of a hand form, from a post (to build the hand and
show them again next to an error) or from a stored hand (to correct it).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
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


# -- hand entry ---------------------------------------------------------------------------


@dataclass
class PlayerEntry:
    """What was entered for one player (all as typed)."""

    cards: str = ""
    points: str = ""
    passes: str = ""
    cards_left: str = ""


@dataclass
class Entry:
    """The values of a hand form, as typed."""

    winner: str = ""
    players: dict[int, PlayerEntry] = field(default_factory=dict)
    suit: str = ""
    surplus: list[str] = field(default_factory=list)
    surplus_count: str = ""
    bower_in_surplus: bool = False
    bower_holder: str = ""
    #: D$%n You!: who paid the last chip (asked only when the passes leave nobody any).
    last_chip: str = ""

    def for_player(self, player: int) -> PlayerEntry:
        return self.players.get(player) or PlayerEntry()

    @classmethod
    def from_post(cls, data: QueryDict, players: Sequence[int]) -> Entry:
        return cls(
            winner=_text(data, "winner"),
            players={
                p: PlayerEntry(
                    cards=_text(data, f"cards_{p}"),
                    points=_text(data, f"points_{p}"),
                    passes=_text(data, f"passes_{p}"),
                    cards_left=_text(data, f"cards_left_{p}"),
                )
                for p in players
            },
            suit=_text(data, "suit"),
            surplus=[c for c in data.getlist("surplus") if c.strip()],
            surplus_count=_text(data, "surplus_count"),
            bower_in_surplus=_text(data, "bower_in_surplus").lower() in {"1", "on", "true"},
            bower_holder=_text(data, "bower_holder"),
            last_chip=_text(data, "last_chip"),
        )

    @classmethod
    def from_input(cls, hand_input: Mapping[str, Any]) -> Entry:
        """The form values that show a stored (normalised) hand input again."""
        entry = cls(winner=str(hand_input.get("winner") or ""))
        for result in hand_input.get("results") or []:
            player = int(result["player"])
            row = entry.players.setdefault(player, PlayerEntry())
            if result.get("cards") is not None:
                row.cards = " ".join(result["cards"])
            if result.get("points") is not None:
                row.points = str(result["points"])
            if result.get("passes") is not None:
                row.passes = str(result["passes"])
            if result.get("cards_left") is not None:
                row.cards_left = str(result["cards_left"])
        entry.suit = str(hand_input.get("suit") or "")
        entry.surplus = list(hand_input.get("surplus") or [])
        if hand_input.get("surplus_count") is not None:
            entry.surplus_count = str(hand_input["surplus_count"])
        entry.bower_in_surplus = bool(hand_input.get("bower_in_surplus"))
        holder = hand_input.get("bower_holder")
        entry.bower_holder = "" if holder is None else str(holder)
        last_chip = hand_input.get("last_chip")
        entry.last_chip = "" if last_chip is None else str(last_chip)
        return entry


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
