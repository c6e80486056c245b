"""A league's seasons in and out of a backup.

A file holds its seasons as ``"seasons": [{"name", "start", "end", "created_at",
"final_table"}]``: days written ``YYYY-MM-DD`` (``end`` null for the current season) and
a closed season's table as it was kept when it closed (``{scope: [rows]}``, ``""`` for
all games), its players by their ids in the file. The table is carried over as it is,
not computed again: it is the record of how the season ended. A file without
``seasons`` (written before there were any) imports as one season: from the league's
first day (or its first game's, if earlier) on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from django.utils import timezone

from games import RULESETS, RuleError
from scorekeeper.models import ALL_GAMES, League, PlayerMerge, Season
from scorekeeper.services.backup.schema import parse_day, parse_timestamp

#: The name of the one season an export without seasons imports as.
FIRST_SEASON = "Season 1"


@dataclass
class SeasonIn:
    name: str
    start: date
    end: date | None
    created_at: datetime | None
    final_table: dict[str, list[dict[str, Any]]] | None


def _fail(where: str, message: str) -> RuleError:
    return RuleError(f"{where}: {message}", "seasons")


def export_seasons(league: League, players: set[int]) -> list[dict[str, Any]]:
    """The league's seasons as a file holds them, the earliest first (``players``: the
    ids of the players the file holds). A kept table's player merged into another since
    is written as the one they were merged into (their row keeps the name it had), so the
    file names only its own players. One query, and one more if any was merged."""
    seasons = list(Season.objects.filter(league=league).order_by("start", "id"))
    kept = {
        row["player"] for s in seasons for rows in (s.final_table or {}).values() for row in rows
    }
    into = _merged_into(kept - players)
    return [
        {
            "name": s.name,
            "start": s.start.isoformat(),
            "end": s.end.isoformat() if s.end is not None else None,
            "created_at": s.created_at.astimezone(UTC).isoformat(),
            "final_table": _remapped(s.final_table, into, keep_unknown=True),
        }
        for s in seasons
    ]


def _merged_into(gone: set[int]) -> dict[int, int]:
    """Where each of the ``gone`` players' ids leads now, following merges."""
    if not gone:
        return {}
    steps = dict(
        PlayerMerge.objects.order_by("merged_at", "id").values_list("from_player_id", "into_id")
    )
    found: dict[int, int] = {}
    for pid in gone:
        now, seen = pid, {pid}
        while now in steps and steps[now] not in seen:
            now = steps[now]
            seen.add(now)
        found[pid] = now
    return found


def check_seasons(raw: Sequence[Mapping[str, Any]], known: set[int]) -> list[SeasonIn]:
    """The seasons of a file the schema accepted, checked for what they mean: in order
    of their first days, none overlapping the next, only the last one open, a closed
    one's table naming the file's players and games. :class:`games.RuleError` on
    ``seasons`` otherwise."""
    seasons: list[SeasonIn] = []
    names: set[str] = set()
    for index, entry in enumerate(raw):
        where = f"seasons[{index}]"
        if entry["start"] is None:
            raise _fail(where, "start: must be a day written YYYY-MM-DD (got null)")
        start = parse_day(entry["start"])
        end = parse_day(entry["end"]) if entry.get("end") is not None else None
        name = " ".join(entry["name"].split())
        if name.casefold() in names:
            raise _fail(where, f"two seasons are called {name!r}")
        names.add(name.casefold())
        if end is not None and end < start:
            raise _fail(where, "the season ends before it starts")
        if seasons:
            before = seasons[-1]
            if before.end is None:
                raise _fail(where, "only the last season may still be open")
            if start <= before.end:
                raise _fail(where, "the seasons must follow each other, in order")
        table = entry.get("final_table")
        if table is not None:
            if end is None:
                raise _fail(where, "an open season has no final table yet")
            for scope, rows in table.items():
                if scope != ALL_GAMES and scope not in RULESETS:
                    raise _fail(where, f"final_table: {scope!r} is not a game")
                for row in rows:
                    if row["player"] not in known:
                        raise _fail(
                            where,
                            f"final_table: player {row['player']} is not in the file's players",
                        )
        created = entry.get("created_at")
        seasons.append(
            SeasonIn(
                name=name,
                start=start,
                end=end,
                created_at=parse_timestamp(created) if created is not None else None,
                final_table=table,
            )
        )
    return seasons


def _remapped(
    table: dict[str, list[dict[str, Any]]] | None,
    ids: Mapping[int, int],
    *,
    keep_unknown: bool = False,
) -> dict[str, list[dict[str, Any]]] | None:
    """A kept table with its players' ids translated through ``ids`` (with
    ``keep_unknown``, an id not in ``ids`` stays as it is)."""
    if table is None:
        return None
    return {
        scope: [
            {
                **row,
                "player": ids.get(row["player"], row["player"])
                if keep_unknown
                else ids[row["player"]],
            }
            for row in rows
        ]
        for scope, rows in table.items()
    }


def write_seasons(
    league: League,
    seasons: Sequence[SeasonIn] | None,
    ids: Mapping[int, int],
    first_day: date,
    now: datetime,
) -> None:
    """Create the imported league's seasons (``ids``: the file's player ids to the new
    ones). ``None`` (the file has no seasons): one open season from ``first_day``."""
    if seasons is None:
        Season.objects.create(league=league, name=FIRST_SEASON, start=first_day, created_at=now)
        return
    Season.objects.bulk_create(
        Season(
            league=league,
            name=s.name,
            start=s.start,
            end=s.end,
            created_at=s.created_at or now,
            final_table=_remapped(s.final_table, ids),
        )
        for s in seasons
    )


def first_day(created_at: datetime | None, games: Sequence[datetime | None], now: datetime) -> date:
    """The first day of an imported league's one season: its own or its first game's,
    whichever is earlier, in the site's time zone."""
    moments = [m for m in (created_at, *games) if m is not None] or [now]
    return timezone.localdate(min(moments))
