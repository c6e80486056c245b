"""The table's shared tools (issues 18 and 27): the negotiation timer, the draw penalty,
the direction of play and who leads, changed from any phone that may change the game
(``GameAccess.may_change``: a finished game's only by those who may reopen it) and shown
on every phone of the table (``TableState``; the events server tells them). A game has
the tools its document calls for (``games.table_tools``): any other is refused, naming
``action``.

The timer is kept as (duration, started at, remaining when paused): each phone counts
down from the server's clock, so all of them show the same time. The penalty, the
direction and the leader belong to the hand in play: a saved hand starts them afresh.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import RuleError
from games.table_tools import refusal
from scorekeeper.live import notify as live
from scorekeeper.models import Game, Guest, TableState
from scorekeeper.selectors.table import fresh_for_hand, remaining, shared_of
from scorekeeper.services.locked_game import lock_game
from scorekeeper.validation import MAX_ID

ACTIONS = (
    "timer-start",
    "timer-pause",
    "timer-reset",
    "penalty-add",
    "penalty-clear",
    "direction-flip",
    "leader",
)
#: The most one tap adds to the draw penalty, and the most it holds.
MOST_ADDED = 100
MOST_PENALTY = 10_000


@dataclass(frozen=True)
class TableAction:
    action: str
    amount: int = 0
    player: int | None = None


def _whole(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or value in (None, ""):
        raise RuleError(_("%(name)s: a whole number is required") % {"name": name}, name)
    try:
        number = int(str(value).strip())
    except ValueError:
        raise RuleError(
            _("%(name)s: must be a whole number (got %(value)s)")
            % {"name": name, "value": repr(value)},
            name,
        ) from None
    if not low <= number <= high:
        raise RuleError(
            _("%(name)s: must be between %(low)s and %(high)s")
            % {"name": name, "low": low, "high": high},
            name,
        )
    return number


def parse_action(data: Mapping[str, Any]) -> TableAction:
    """The action a request asks for; ``RuleError`` naming the field when it is wrong."""
    action = data.get("action")
    if action not in ACTIONS:
        raise RuleError(
            _("action: must be one of %(actions)s (got %(action)s)")
            % {"actions": ", ".join(ACTIONS), "action": repr(action)},
            "action",
        )
    if action == "penalty-add":
        return TableAction(action, amount=_whole(data.get("amount"), "amount", 1, MOST_ADDED))
    if action == "leader":
        raw = data.get("player")
        player = None if raw in (None, "") else _whole(raw, "player", 1, MAX_ID)
        return TableAction(action, player=player)
    return TableAction(action)


def table_act(
    *, game: Game, user: User | None, guest: Guest | None, act: TableAction, hand: int
) -> TableState:
    """Apply ``act`` to the game's shared tools (``hand``: the hand in play), under the
    game's lock and a fresh access check (``may_change``): ``RuleError`` naming
    ``action`` for a tool the game does not have."""
    with transaction.atomic():
        at = lock_game(game, user, guest, may="change")
        refused = refusal(at.rules, act.action, at.config.options, translate=_)
        if refused is not None:
            raise RuleError(refused, "action")
        table, _created = TableState.objects.get_or_create(game=at.game)
        fresh_for_hand(table, hand)
        seconds = at.rules.table_timer_seconds(at.config.options)
        now = timezone.now()
        if act.action == "timer-start":
            if table.timer_started_at is not None and remaining(table, now) <= 0:
                table.timer_started_at = None  # ran out: a start is a new countdown
                table.timer_paused_remaining = 0.0
            if table.timer_started_at is None:
                if table.timer_paused_remaining is None or table.timer_paused_remaining <= 0:
                    table.timer_seconds = seconds or 0
                    table.timer_paused_remaining = None
                table.timer_started_at = now
        elif act.action == "timer-pause":
            if table.timer_started_at is not None:
                table.timer_paused_remaining = remaining(table, now)
                table.timer_started_at = None
        elif act.action == "timer-reset":
            table.timer_seconds = seconds or 0
            table.timer_started_at = None
            table.timer_paused_remaining = None
        elif act.action == "penalty-add":
            table.penalty = min(MOST_PENALTY, table.penalty + act.amount)
        elif act.action == "penalty-clear":
            table.penalty = 0
        elif act.action == "direction-flip":
            table.clockwise = not table.clockwise
        elif act.action == "leader":
            if act.player is not None and act.player not in at.config.players:
                raise RuleError(_("player: not a player of this game"), "player")
            table.leader_id = act.player
        table.revision += 1
        table.save()
        # What every phone shows now, on the tap's event (``hand`` is of the version the
        # caller read: a hand saved since leaves the phones to ask).
        shared = None
        if at.game.version == game.version:
            shared = {**shared_of(table, hand, seconds, now), "version": game.version}
        live.tools_changed(at.game.pk, table.revision, shared)
        return table
