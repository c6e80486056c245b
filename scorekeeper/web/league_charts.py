"""The charts of the league pages: the rating race of the league's leaders over game
nights (on the league's page, by its standings) and two players' meetings over time
(head to head). Reads come from ``selectors.league_charts``; the drawing from
``web.charts``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from django.utils.translation import gettext as _

from scorekeeper.models import League, Player
from scorekeeper.selectors.league_charts import meetings, player_colours, rating_race
from scorekeeper.selectors.leagues import Member
from scorekeeper.selectors.player_colours import marker_class, table_colours
from scorekeeper.web.charts import LineChart, PlotSeries, line_chart

#: The rating race draws this many players of the standings, best first.
RACE_PLAYERS = 10
#: Tall enough for ten end labels apart from each other (16 units each).
RACE_HEIGHT = 260


def _markers(players: Sequence[Player]) -> dict[int, str]:
    """Each player's colour class on one chart: a chosen colour is kept, the others get
    one no one else on the chart has (as at a table)."""
    return {pid: marker_class(c) for pid, c in table_colours(players).items()}


def _day(d: date) -> str:
    return f"{d.day} {d:%b}"


def rating_race_chart(
    league: League, scope: str, standings: Sequence[dict[str, Any]], scope_name: str
) -> LineChart | None:
    """The ratings of the first :data:`RACE_PLAYERS` rows of ``standings`` at the end of
    each of the latest game nights; ``None`` before a second night. Two queries."""
    leaders = list(standings[:RACE_PLAYERS])
    ids = [row["player"] for row in leaders]
    race = rating_race(league, scope, ids)
    if len(race.nights) < 2:
        return None
    markers = _markers(player_colours(ids))
    series = [
        PlotSeries(row["name"], markers.get(row["player"], ""), race.ratings[row["player"]])
        for row in leaders
    ]
    chart = line_chart(
        series,
        [_day(d) for d in race.nights],
        title=_("Rating race: %(scope)s, top %(count)s")
        % {"scope": scope_name, "count": len(leaders)},
        x_name=_("game nights"),
        y_name=_("rating at the end of the night"),
        height=RACE_HEIGHT,
    )
    if chart is not None:
        chart.extra["nights"] = len(race.nights)
        chart.extra["first_night"] = race.nights[0]
    return chart


def meetings_chart(
    league: League, a: Member, b: Member, record: dict[str, Any]
) -> LineChart | None:
    """How often each of two players finished ahead of the other, game after game of
    those they played together; ``None`` before their second game together. Two
    queries."""
    if record["games"] < 2:
        return None
    found = meetings(
        league,
        a.pk,
        b.pk,
        total_a=record["a_ahead"],
        total_b=record["b_ahead"],
        games=record["games"],
    )
    markers = _markers(player_colours([a.pk, b.pk]))
    chart = line_chart(
        [
            PlotSeries(a.name, markers.get(a.pk, ""), found.a_ahead),
            PlotSeries(b.name, markers.get(b.pk, ""), found.b_ahead),
        ],
        [str(found.skipped + i) for i in range(len(found.a_ahead))],
        title=_("%(a)s and %(b)s, game after game") % {"a": a.name, "b": b.name},
        x_name=_("games played together"),
        y_name=_("games finished ahead of the other, in all"),
        whole=True,
    )
    if chart is not None:
        chart.extra["skipped"] = found.skipped
        chart.extra["shown"] = len(found.dates)
        chart.extra["since"] = found.dates[0] if found.dates else None
    return chart
