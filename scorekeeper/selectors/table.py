"""The table's shared tools as every phone reads them (``TableState``; the writes are
``services.table``): the timer with the server's clock, so each phone counts down to
the same moment, and the hand in play's penalty, direction and leader.

What the tools show depends on the game's version (the hand in play, the players) and
on the ``TableState``'s revision (one more at every tap): :func:`tools_tag` names that
pair, for the tools' ``ETag`` and the live answer's cache key. The game's state comes
from the caller (the game version's rows, ``selectors.rows.rows_by_version``): nothing
here folds or caches hands of its own."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from games import GameState, get_ruleset
from games.table_tools import actions_of
from scorekeeper.models import Game, TableState
from scorekeeper.presenters import presenter_for
from scorekeeper.presenters.base import TableTools
from scorekeeper.selectors.games import version_key


def remaining(table: TableState, now: datetime | None = None) -> float:
    """Seconds left on the timer at ``now`` (never below 0)."""
    base = (
        table.timer_paused_remaining
        if table.timer_paused_remaining is not None
        else float(table.timer_seconds)
    )
    if table.timer_started_at is None:
        return max(0.0, base)
    now = now or timezone.now()
    return max(0.0, base - (now - table.timer_started_at).total_seconds())


def fresh_for_hand(table: TableState, hand: int) -> None:
    """Start the hand's tools afresh when the hand in play is a new one (the timer
    stays as it is)."""
    if table.hand != hand:
        table.hand = hand
        table.penalty = 0
        table.clockwise = True
        table.leader_id = None


def _ms(moment: datetime) -> int:
    return round(moment.timestamp() * 1000)


def read_tools_row(game: Game) -> TableState | None:
    """The game's tools row (None: its tools never changed): one indexed read."""
    return next(iter(TableState.objects.filter(game_id=game.pk)), None)


def read_with_game(game: Game) -> TableState | None:
    """The game's tools row as the query that read the game read it along
    (``select_related("tablestate")``: no query here); None: the game has none."""
    try:
        return game.tablestate
    except TableState.DoesNotExist:
        return None


def table_answer(
    game: Game, hand: int, timer_seconds: int | None, row: TableState | bool | None = False
) -> dict[str, Any]:
    """What the phones show of the game's tools (``hand``: the hand in play;
    ``timer_seconds``: the game's timer, None without one): :func:`shared_of` its row.
    ``row``: the tools' row when the caller read it (None: the game has none; False:
    not read, read here)."""
    table = read_tools_row(game) if row is False else row
    if not isinstance(table, TableState):
        table = TableState(game_id=game.pk, timer_seconds=timer_seconds or 0, hand=hand)
    fresh_for_hand(table, hand)
    return shared_of(table, hand, timer_seconds)


def shared_of(
    table: TableState, hand: int, timer_seconds: int | None, now: datetime | None = None
) -> dict[str, Any]:
    """What every phone of the table shows of its tools, for the hand in play (the row
    made fresh for it): the same for every viewer, so that a tap's ``tools`` event can
    carry it (``services.table.table_act``). ``server_now`` lets a phone correct its
    own clock; a running timer ends at ``ends_at`` (ms since the epoch)."""
    now = now or timezone.now()
    timer = None
    if timer_seconds is not None:
        idle = table.timer_started_at is None and table.timer_paused_remaining is None
        total = timer_seconds if idle else table.timer_seconds
        left = float(total) if idle else remaining(table, now)
        running = table.timer_started_at is not None and left > 0
        shown = "idle" if idle else "paused"
        timer = {
            "seconds": total,
            "running": running,
            "remaining": round(left, 3),
            "ends_at": _ms(now) + round(left * 1000) if running else None,
            "state": "running" if running else ("done" if left <= 0 else shown),
        }
    return {
        "revision": table.revision,
        "server_now": _ms(now),
        "hand": hand,
        "timer": timer,
        "penalty": table.penalty,
        "clockwise": table.clockwise,
        "leader": table.leader_id,
    }


def tools_for(state: GameState, names: dict[int, str]) -> TableTools | None:
    """The tools of the hand in play (None: the game is over, or has none)."""
    if state.next_hand is None:
        return None
    return presenter_for(state.config.ruleset).table_tools(state, state.next_hand, names)


def shares_tools(ruleset: str) -> bool:
    """Whether the game's tools hold anything every phone shares (the presenter says:
    a direction, a draw penalty, a leader or a timer)."""
    return presenter_for(ruleset).shares_table_tools


def tools_revision(game: Game) -> int:
    """The revision of the game's shared tools (0: never changed), from its row
    (:func:`read_tools_row`)."""
    row = read_tools_row(game)
    return row.revision if row is not None else 0


def tools_tag(game: Game, revision: int, may_change: bool) -> str:
    """What the tools' answer to a viewer depends on: the game at its version, the
    tools' revision and whether the viewer may change them."""
    return f"{version_key(game)}:{revision}:{int(may_change)}"


def hand_in_play(state: GameState) -> int:
    """The number of the hand in play (0: the game is over)."""
    return int(state.next_hand["number"]) if state.next_hand else 0


def game_table(
    game: Game, state: GameState, names: dict[int, str], row: TableState | bool | None = False
) -> dict[str, Any]:
    """:func:`table_answer` for the game at ``state`` (its current one), with the
    leader's name, whether the game is over and the actions the game takes (the tools
    its document calls for: ``games.table_tools``); ``row`` as there."""
    rules = get_ruleset(game.ruleset)
    seconds = rules.table_timer_seconds(state.config.options)
    data = table_answer(game, hand_in_play(state), seconds, row)
    data["leader_name"] = names.get(data["leader"]) if data["leader"] else None
    data["finished"] = state.finished
    data["actions"] = actions_of(rules, state.config.options)
    return data
