"""Each player's colour at a table and the marker class that shows it: reads only (the
choice of a colour is :func:`scorekeeper.services.player_admin.player_update`'s)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from scorekeeper.models import PLAYER_COLOURS, Game, Player


def default_colour(player_id: int) -> int:
    """A player's colour when none was chosen: from the id, so players added one after
    the other (a new table) get different ones."""
    return (player_id - 1) % PLAYER_COLOURS + 1


def colour_of(player: Player) -> int:
    return player.colour or default_colour(int(player.pk))


def marker_class(colour: int) -> str:
    return f"player-c{colour}"


def table_colours(players: Sequence[Player]) -> dict[int, int]:
    """Each player's colour at one table (seat order): a chosen colour is kept; the
    others take their default, or the next one no one at the table has yet."""
    out: dict[int, int] = {}
    taken: set[int] = set()
    for p in players:
        if p.colour:
            out[p.pk] = p.colour
            taken.add(p.colour)
    for p in players:
        if p.colour:
            continue
        colour = default_colour(int(p.pk))
        for step in range(PLAYER_COLOURS):
            candidate = (colour - 1 + step) % PLAYER_COLOURS + 1
            if candidate not in taken:
                colour = candidate
                break
        out[p.pk] = colour
        taken.add(colour)
    return out


def game_markers(game: Game) -> dict[int, str]:
    """The marker class of each player at a game (its prefetched seats and players)."""
    seats = sorted(game.seats.all(), key=lambda s: s.position)
    return {pid: marker_class(c) for pid, c in table_colours([s.player for s in seats]).items()}


def apply_markers(columns: Iterable[Any], markers: dict[int, str]) -> None:
    """Put each grid column's marker class on it (a team's: its first player's)."""
    for col in columns:
        col.marker = markers.get(col.players[0], "") if col.players else ""
