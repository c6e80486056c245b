"""Reads for a league's charts: the rating race of its leaders over game nights, and
two players' meetings over time (head to head). Each is one query, bounded whatever
the size of the league."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from django.db.models import F, FilteredRelation, Q
from django.db.models.functions import TruncDate
from django.utils import timezone

from scorekeeper.models import Game, GameStatus, League, Player, RatingPoint
from scorekeeper.selectors.leagues import ruleset_scope

#: The rating race covers at most this many of the latest game nights…
RACE_NIGHTS = 30
#: …and reads at most this many rating points (the newest) to draw them.
RACE_POINTS = 3000


@dataclass(frozen=True)
class RatingRace:
    """The leaders' ratings over game nights, oldest night first: ``nights`` (the
    dates, in the site's time zone) and, by player id, the rating at the end of each
    night (``None`` before the player's first game in the window; a night they did not
    play carries their rating over)."""

    nights: list[date]
    ratings: dict[int, list[float | None]]


def rating_race(
    league: League | int,
    ruleset: str | None,
    player_ids: Sequence[int],
    *,
    nights: int = RACE_NIGHTS,
    most: int = RACE_POINTS,
) -> RatingRace:
    """The :class:`RatingRace` of ``player_ids`` in one league and scope, over the
    latest ``nights`` game nights (of theirs) within their ``most`` newest rating
    points. One query (none without players)."""
    if not player_ids:
        return RatingRace([], {})
    league_id = league.pk if isinstance(league, League) else league
    rows = list(
        RatingPoint.objects.filter(
            league_id=league_id,
            ruleset=ruleset_scope(ruleset),
            player_id__in=list(player_ids),
            game_id__isnull=False,
        )
        .annotate(night=TruncDate("played_at"))  # in the site's time zone
        .order_by("-played_at", "-game_id")
        .values_list("player_id", "night", "rating")[:most]
    )
    rows.reverse()
    by_night: dict[date, dict[int, float]] = {}
    for player_id, night, rating in rows:
        # Oldest first: the last rating of a night is the one that stays.
        by_night.setdefault(night, {})[player_id] = rating
    days = sorted(by_night)[-nights:]
    ratings: dict[int, list[float | None]] = {}
    for pid in player_ids:
        current: float | None = None
        line: list[float | None] = []
        for day in days:
            current = by_night[day].get(pid, current)
            line.append(None if current is None else round(current, 2))
        ratings[pid] = line
    return RatingRace(days, ratings)


#: The head-to-head timeline draws at most this many of two players' latest meetings.
MEETINGS_SHOWN = 200


@dataclass(frozen=True)
class Meetings:
    """Two players' latest meetings (finished league games they both played), oldest
    first: the running count of games each finished ahead of the other before the first
    of them and after each one (``a_ahead``/``b_ahead``, counted from their first
    meeting ever: one more than ``dates``), the date of each (``dates``) and how many
    earlier meetings are left out (``skipped``)."""

    dates: list[date]
    a_ahead: list[int]
    b_ahead: list[int]
    skipped: int


def meetings(
    league: League | int,
    a: int,
    b: int,
    *,
    total_a: int,
    total_b: int,
    games: int,
    most: int = MEETINGS_SHOWN,
) -> Meetings:
    """The :class:`Meetings` of players ``a`` and ``b``, given their overall record
    (``head_to_head``: ``games`` together, ``total_a``/``total_b`` finished ahead), so
    that only the latest ``most`` games are read. One query."""
    league_id = league.pk if isinstance(league, League) else league
    rows = list(
        Game.objects.filter(league_id=league_id, status=GameStatus.FINISHED)
        .annotate(
            pa=FilteredRelation("seats", condition=Q(seats__player_id=a)),
            pb=FilteredRelation("seats", condition=Q(seats__player_id=b)),
        )
        .filter(pa__place__isnull=False, pb__place__isnull=False)
        .annotate(a_place=F("pa__place"), b_place=F("pb__place"))
        .order_by("-created_at", "-id")
        .values_list("created_at", "a_place", "b_place")[:most]
    )
    rows.reverse()
    a_ahead = total_a - sum(1 for _, pa, pb in rows if pa < pb)
    b_ahead = total_b - sum(1 for _, pa, pb in rows if pb < pa)
    dates: list[date] = []
    a_line, b_line = [a_ahead], [b_ahead]
    for created_at, pa, pb in rows:
        a_ahead += pa < pb
        b_ahead += pb < pa
        dates.append(timezone.localtime(created_at).date())
        a_line.append(a_ahead)
        b_line.append(b_ahead)
    return Meetings(dates, a_line, b_line, max(games - len(rows), 0))


def player_colours(player_ids: Sequence[int]) -> list[Player]:
    """The players of ``player_ids`` (in that order) with just their chosen colour, to
    give each line of a chart its colour. One query (none without ids)."""
    if not player_ids:
        return []
    found = {p.pk: p for p in Player.objects.filter(pk__in=list(player_ids)).only("id", "colour")}
    return [found[pid] for pid in player_ids if pid in found]
