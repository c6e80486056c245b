"""A league out of the install: the complete JSON backup and a CSV of results.

The JSON export holds everything the league is made of: its players, members (each with
its role) and games, every hand's input as the table reported it and the full correction
history of each hand. Accounts are referenced by username only (never passwords or
e-mail addresses). The results it also carries (each seat's score, place and win, the
game's status) are derived: an import ignores them.

A download is written while it is sent (:func:`export_stream`), a chunk of games at a
time, so a worker's memory does not grow with the league. Its first chunk (the league,
its players and members, the first games) is written before the response is made: a
failure there is still an error answer. One after it cuts the download short, which the
client sees as a failed download (and a JSON export cut short does not parse, so it
cannot be imported as if it were whole); see :mod:`scorekeeper.downloads`.
"""

from __future__ import annotations

import csv
import json
import logging
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import IO, Any

from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.http import StreamingHttpResponse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.text import slugify

from scorekeeper.downloads import in_chunks, started
from scorekeeper.models import Game, Hand, HandRevision, League, Membership, Player, Seat
from scorekeeper.services.backup.schema import FORMAT, FORMAT_VERSION
from scorekeeper.services.backup.seasons import export_seasons

logger = logging.getLogger(__name__)

#: The columns of the CSV export: one row per player per game.
CSV_COLUMNS = (
    "game_id",
    "date",
    "ruleset",
    "variant",
    "player_id",
    "player_name",
    "seat",
    "team",
    "score",
    "place",
    "won",
    "status",
)

#: Content types of the two exports.
CONTENT_TYPES = {"json": "application/json", "csv": "text/csv; charset=utf-8"}


class ExportFailed(Exception):
    """Writing an export failed before its first byte was sent."""


def _when(value: datetime | None) -> str | None:
    """A timestamp as ISO 8601 in UTC (microseconds kept, so a round trip is exact)."""
    if value is None:
        return None
    return value.astimezone(UTC).isoformat()


def export_filename(league: League, extension: str) -> str:
    """``thursday-card-club-2025-06-12.json``: the league, and the day of the export."""
    stem = slugify(league.name) or f"league-{league.pk}"
    return f"{stem}-{timezone.localdate().isoformat()}.{extension}"


def attachment(filename: str) -> str:
    """A ``Content-Disposition`` header value that downloads as ``filename``."""
    return content_disposition_header(True, filename) or "attachment"


def league_players(league: League) -> QuerySet[Player]:
    """Every player of a league: its members, and anyone seated at one of its games."""
    members = Membership.objects.filter(league=league).values("player_id")
    seated = Seat.objects.filter(game__league=league).values("player_id")
    return Player.objects.filter(Q(pk__in=members) | Q(pk__in=seated))


#: Games read per round trip to the database while exporting: memory stays bounded
#: however big the league.
EXPORT_CHUNK = 500


def _export_head(league: League) -> dict[str, Any]:
    """Everything but the games: the league, its players, members and the usernames
    the export mentions."""
    players = list(
        league_players(league)
        .order_by("id")
        .values("id", "name", "user__username", "created_at", "colour", "hidden")
    )
    members = list(
        Membership.objects.filter(league=league)
        .order_by("id")
        .values("player_id", "joined_at", "role")
    )
    owner_name = league.owner.get_username()
    games = Game.objects.filter(league=league)
    usernames = {owner_name}
    usernames.update(p["user__username"] for p in players if p["user__username"])
    for names in (
        games.values_list("owner__username", flat=True),
        Hand.objects.filter(game__in=games, created_by__isnull=False).values_list(
            "created_by__username", flat=True
        ),
        HandRevision.objects.filter(game__in=games, user__isnull=False).values_list(
            "user__username", flat=True
        ),
    ):
        usernames.update(names.order_by().distinct())
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported_at": _when(timezone.now()),
        "league": {
            "id": league.pk,
            "name": league.name,
            "owner": owner_name,
            "created_at": _when(league.created_at),
        },
        "users": sorted(usernames),
        "players": [
            {
                "id": p["id"],
                "name": p["name"],
                "user": p["user__username"],
                "created_at": _when(p["created_at"]),
                "colour": p["colour"],
                "hidden": p["hidden"],
            }
            for p in players
        ],
        "members": [
            {"player": m["player_id"], "joined_at": _when(m["joined_at"]), "role": m["role"]}
            for m in members
        ],
        "seasons": export_seasons(league, {p["id"] for p in players}),
    }


def _export_games(league: League) -> Iterator[dict[str, Any]]:
    """The league's games in the order they were started, each with its seats, hands
    (by number) and revisions (in the order they were made), read a chunk at a time."""
    ids = list(
        Game.objects.filter(league=league).order_by("created_at", "id").values_list("id", flat=True)
    )
    for start in range(0, len(ids), EXPORT_CHUNK):
        chunk = ids[start : start + EXPORT_CHUNK]
        seats_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for seat in (
            Seat.objects.filter(game_id__in=chunk)
            .order_by("game_id", "position")
            .values("game_id", "player_id", "position", "team", "score", "place", "won")
        ):
            seats_of[seat["game_id"]].append(
                {
                    "player": seat["player_id"],
                    "position": seat["position"],
                    "team": seat["team"],
                    "score": seat["score"],
                    "place": seat["place"],
                    "won": seat["won"],
                }
            )
        hands_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for hand in (
            Hand.objects.filter(game_id__in=chunk)
            .order_by("game_id", "number")
            .values("game_id", "number", "input", "revision", "created_by__username", "created_at")
        ):
            hands_of[hand["game_id"]].append(
                {
                    "number": hand["number"],
                    "input": hand["input"],
                    "revision": hand["revision"],
                    "created_by": hand["created_by__username"],
                    "created_at": _when(hand["created_at"]),
                }
            )
        revisions_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for rev in (
            HandRevision.objects.filter(game_id__in=chunk)
            .order_by("game_id", "created_at", "id")
            .values(
                "game_id",
                "number",
                "revision",
                "action",
                "input",
                "user__username",
                "guest__name",
                "created_at",
            )
        ):
            revisions_of[rev["game_id"]].append(
                {
                    "number": rev["number"],
                    "revision": rev["revision"],
                    "action": rev["action"],
                    "input": rev["input"],
                    "user": rev["user__username"],
                    "guest": rev["guest__name"],
                    "created_at": _when(rev["created_at"]),
                }
            )
        games = Game.objects.filter(pk__in=chunk).order_by("created_at", "id")
        for g in games.values(
            "id", "ruleset", "variant", "options", "teams", "first_dealer_id", "closed",
            "owner__username", "created_at", "finished_at", "status",
        ):  # fmt: skip
            yield {
                "id": g["id"],
                "ruleset": g["ruleset"],
                "variant": g["variant"],
                "options": g["options"],
                "teams": g["teams"],
                "first_dealer": g["first_dealer_id"],
                "closed": g["closed"],
                "owner": g["owner__username"],
                "created_at": _when(g["created_at"]),
                "finished_at": _when(g["finished_at"]),
                "status": g["status"],
                "seats": seats_of[g["id"]],
                "hands": hands_of[g["id"]],
                "revisions": revisions_of[g["id"]],
            }


@contextmanager
def _snapshot() -> Iterator[None]:
    """One consistent view of the league while an export reads it chunk by chunk: a
    repeatable-read transaction on PostgreSQL (reads never block writers there). SQLite
    exports as it goes: a transaction there would hold the write lock. (Django sets an
    isolation level per connection only, so this one transaction's is set by hand.)"""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield
        return
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def league_export_json(league: League) -> dict[str, Any]:
    """The whole league as a JSON-ready dict (see the module docstring). For a big
    league, :func:`league_export_json_text` writes the same JSON in bounded memory."""
    with _snapshot():
        return {**_export_head(league), "games": list(_export_games(league))}


def league_export_json_text(league: League, *, indent: int | None = None) -> Iterator[str]:
    """The JSON export as pieces of text, a game at a time, to stream to a response or a
    file; ``json.loads`` of the joined pieces equals :func:`league_export_json`."""
    with _snapshot():
        head = json.dumps(_export_head(league), indent=indent, ensure_ascii=False)
        yield head[:-1].rstrip() + ',\n"games": ['
        for index, game in enumerate(_export_games(league)):
            yield ("," if index else "") + "\n" + json.dumps(game, ensure_ascii=False)
        yield "\n]}\n"


class _Echo:
    """A file-like object whose ``write`` hands the text back, for streaming CSV."""

    def write(self, value: str) -> str:
        return value


def _spreadsheet_safe(text: str) -> str:
    # A name such as "=HYPERLINK(…)" would run as a formula when the CSV is opened in a
    # spreadsheet; a leading apostrophe makes it plain text again.
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def league_csv_rows(league: League) -> Iterator[list[Any]]:
    """The rows of the CSV export (no header): one per player per game, games in the
    order they were started, seats clockwise. ``date`` is the game's start in the
    install's time zone; ``seat`` and ``team`` count from 0 as in the API; ``place`` is
    empty while a game is in progress."""
    seats = (
        Seat.objects.filter(game__league=league)
        .order_by("game__created_at", "game_id", "position")
        .values_list(
            "game_id",
            "game__created_at",
            "game__ruleset",
            "game__variant",
            "player_id",
            "player__name",
            "position",
            "team",
            "score",
            "place",
            "won",
            "game__status",
        )
    )
    for (
        game_id,
        created_at,
        ruleset,
        variant,
        player_id,
        name,
        position,
        team,
        score,
        place,
        won,
        status,
    ) in seats.iterator(chunk_size=2000):
        yield [
            game_id,
            timezone.localtime(created_at).date().isoformat(),
            ruleset,
            variant,
            player_id,
            _spreadsheet_safe(name),
            position,
            "" if team is None else team,
            score,
            "" if place is None else place,
            "true" if won else "false",
            status,
        ]


def league_export_csv(league: League) -> Iterator[str]:
    """The CSV export as lines of text (header first), ready to stream."""
    writer = csv.writer(_Echo())
    yield writer.writerow(CSV_COLUMNS)
    for row in league_csv_rows(league):
        yield writer.writerow(row)


def export_pieces(league: League, chosen: str) -> Iterator[str]:
    """The export in ``chosen`` format (``json`` or ``csv``) as pieces of text."""
    return league_export_csv(league) if chosen == "csv" else league_export_json_text(league)


def export_stream(league: League, chosen: str) -> Iterator[bytes]:
    """The export in ``chosen`` format as UTF-8 chunks, to stream, with its first chunk
    already written. :class:`ExportFailed` (logged with its cause) when that fails; a
    failure later is logged and cuts the stream short."""
    what = f"The export of league {league.pk} ({chosen})"
    try:
        return started(in_chunks(export_pieces(league, chosen)), what)
    except Exception as exc:
        logger.exception("%s failed", what)
        raise ExportFailed(str(exc)) from exc


def streamed_export(chunks: Iterator[bytes], league: League, chosen: str) -> StreamingHttpResponse:
    """The response that sends an export's chunks as a download."""
    response = StreamingHttpResponse(chunks, content_type=CONTENT_TYPES[chosen])
    response["Content-Disposition"] = attachment(export_filename(league, chosen))
    return response


def write_export(league: League, chosen: str, out: IO[bytes]) -> None:
    """Write the export to a binary file, as UTF-8."""
    for piece in export_pieces(league, chosen):
        out.write(piece.encode("utf-8"))
