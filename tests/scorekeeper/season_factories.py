"""A league over seasons, played through the real services on fixed days.

Games are placed at fixed hours of days counted back from today (noon and later, never
near midnight), so which season a game falls in does not depend on the hour the tests
run at.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from scorekeeper.models import League, Player
from scorekeeper.selectors.league_seasons import day_start
from tests.scorekeeper.league_factories import dirt_hand, play_partner_dirt, play_syn


@dataclass(frozen=True)
class Played:
    """One game to play: on ``day`` at ``hour``, Screw Your Neighbour (``winners`` of
    three hands, to two wins; the first wins) or, with ``partners``, a Partner Dirt match."""

    day: date
    hour: int
    table: tuple[Player, ...]
    winners: tuple[Player, ...] = ()
    partners: bool = False


def days_ago(n: int) -> date:
    return timezone.localdate() - timedelta(days=n)


def schedule(players: Sequence[Player], days: Sequence[date], seed: int) -> list[Played]:
    """Two or three games on each of ``days``, tables and winners drawn from ``seed``;
    every fourth game a partner match."""
    rng = random.Random(seed)
    games: list[Played] = []
    for day in days:
        for k in range(rng.choice((2, 3))):
            table = tuple(rng.sample(list(players), 4))
            partners = len(games) % 4 == 3
            x, y = rng.sample(table, 2)
            winners = (x, y, x)  # two wins to one: the third hand ends it
            games.append(Played(day, 12 + 2 * k, table, winners, partners))
    return games


def play(owner: User, league: League, games: Sequence[Played]) -> None:
    """Play ``games`` in ``league``, in order, each started at its day and hour."""
    now = timezone.now()
    for g in games:
        when = day_start(g.day) + timedelta(hours=g.hour)
        minutes_ago = int((now - when).total_seconds() // 60)
        if g.partners:
            a, b, c, d = g.table
            out = g.winners[0]
            points = {p: 3 + i for i, p in enumerate(g.table) if p != out}
            play_partner_dirt(
                owner, league, [a, c], [b, d], [dirt_hand(out, points)] * 3,
                minutes_ago=minutes_ago,
            )  # fmt: skip
        else:
            play_syn(owner, league, g.table, g.winners, target=2, minutes_ago=minutes_ago)
