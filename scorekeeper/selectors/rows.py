"""A game's rows at one version: the state its recent hands fold to, its players' names
and colours, and once it is over every hand's running totals. Read once per version and
kept for every process (``scorekeeper.kept``); what the sheet, its live answer and the
table's tools read, on the pages and over the API alike.

Every write to a game's hands, and every rename, recolour or merge of its players, makes
a new version (``selectors.games.version_key``): a version's rows never change, so a key
never names stale rows. A hand write keeps the rows of the version it makes (the state
it folded, after the rows of the version before it): the other phones at the table,
asking for that hand next, read and fold no hand."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from games import GameState
from scorekeeper.kept import keep, kept
from scorekeeper.models import Game
from scorekeeper.selectors.games import (
    game_state,
    player_names,
    recent_state,
    running_totals,
    version_key,
    with_rows,
    with_seats,
)
from scorekeeper.selectors.player_colours import game_markers

#: The sheet shows this many most recent hands unless asked for all of them: a game of
#: hundreds of hands stays a page of a known size. A version's rows hold as many.
RECENT_HANDS = 50
#: The shape of the rows kept (one more when :class:`VersionRows` changes).
SHAPE = 1


@dataclass(frozen=True)
class Running:
    """What the chart draws of one hand: the players' scores after it, and in partner
    play what it gave each team."""

    totals: Mapping[int, int]
    team_points: tuple[int, ...] | None = None


def running_of(state: GameState) -> tuple[Running, ...]:
    """The chart's points of the hands a state holds (every hand of a whole state)."""
    return tuple(Running(h.totals, h.team_points) for h in state.hands)


@dataclass(frozen=True)
class VersionRows:
    """A game's seats and hands at one version: ``state`` holds the most recent hands
    only (:data:`RECENT_HANDS`; ``state.played`` counts them all), and ``running`` every
    hand's running totals once the game is over (its chart)."""

    state: GameState
    names: dict[int, str]
    markers: dict[int, str]
    running: tuple[Running, ...] | None = None


def rows_key(key: str) -> str:
    """Where the rows of the game version ``key`` (``version_key``) are kept."""
    return f"rows:{SHAPE}:{key}"


def rows_by_version(game: Game) -> VersionRows:
    """The game's state (its recent hands' stored outcomes, resumed by the engine from
    the last one) and its players' names and colours: read once per version of the game.
    The read is flat in the game's length: the recent hands sliced in SQL, and a finished
    game's running totals read out of the stored outcomes. Kept in the cache every
    process shares: the phones of a table, served by any worker, read a version once;
    and in the process's own memory, where a version seen before costs no query."""
    key = rows_key(version_key(game))
    rows = _kept_rows(key)
    if rows is None:
        if deferred := game.get_deferred_fields():  # read for the live poll: one query
            game.refresh_from_db(fields=deferred)
        with_seats(game)
        state = recent_state(game, RECENT_HANDS)
        rows = VersionRows(state, player_names(game), game_markers(game), _running(game, state))
        keep(key, rows)
    return rows


def keep_rows(game: Game, state: GameState) -> None:
    """A hand write's whole state kept as the rows of the game's new version (``game``
    as the write left it, its seats read). A state that holds fewer than the recent
    hands is not kept: the next read reads them."""
    if len(state.hands) < min(RECENT_HANDS, state.played):
        return
    recent = replace(state, hands=state.hands[-RECENT_HANDS:])
    rows = VersionRows(recent, player_names(game), game_markers(game), _running(game, state))
    keep(rows_key(version_key(game)), rows, only_new=True)


def keep_after_write(game: Game, base_key: str | None, state: GameState) -> None:
    """The rows of the version a write made (``game`` as the write left it), kept from
    those of the version before it (``base_key``; kept by whoever read it) with the
    hands the write folded (``state``: its last hands) in place of theirs: no hand is
    read. When the version before was not kept, the first read of the new one reads."""
    before = _kept_rows(rows_key(base_key)) if base_key else None
    if before is None:
        return
    first = state.hands[0].number if state.hands else 1
    earlier = tuple(h for h in before.state.hands if h.number < first)
    keep_rows(game, replace(state, hands=(*earlier, *state.hands)))


def _kept_rows(key: str) -> VersionRows | None:
    rows = kept(key)
    return rows if isinstance(rows, VersionRows) else None


def _running(game: Game, state: GameState) -> tuple[Running, ...] | None:
    """A finished game's running totals for its chart (None while it is in progress):
    from ``state`` when it holds every hand, else read."""
    if not state.finished:
        return None
    if len(state.hands) == state.played:
        return running_of(state)
    found = running_totals(game)
    if found is None:
        return running_of(game_state(with_rows(game)))
    return tuple(Running(totals, teams) for totals, teams in found)
