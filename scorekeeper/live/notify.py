"""Announce a change to a game from inside the write's transaction.

``NOTIFY`` is transactional in PostgreSQL: the listeners hear it when the transaction
commits, and never if it rolls back, so a phone is never told of a hand that was not
saved. On SQLite (development, tests) nothing is sent: the events server polls the
versions instead. (``SELECT pg_notify(…)`` is written by hand: Django has no API for
``NOTIFY``, and a query of no table is nothing the ORM writes.)"""

from __future__ import annotations

import json
from typing import Any

from django.db import connection

from scorekeeper.live import CHANNEL


def payload(game_id: int, version: int | None, first: int | None, stamp: str | None = None) -> str:
    """``"<game> <version> <first changed hand> [<stamp>]"``; ``-`` for "unknown" (a
    deleted game has no version; a close or reopen changes no hand's row). ``stamp``:
    the moment the version was saved, as ``selectors.games.version_key`` writes it, so
    that the events server can name what is kept for that version (the live answer
    pushed on the stream: :mod:`.pushed`)."""
    parts = [str(x) if x is not None else "-" for x in (game_id, version, first)]
    if stamp is not None and version is not None:
        parts.append(stamp)
    return " ".join(parts)


REVOKED = "revoked"


def revoked_payload(game_id: int, invite_id: int) -> str:
    """``"revoked <game> <invite>"``: a link was shut; its guests' streams end."""
    return f"{REVOKED} {game_id} {invite_id}"


def parse_revoked(text: str) -> tuple[int, int] | None:
    parts = text.split()
    if len(parts) != 3 or parts[0] != REVOKED:
        return None
    try:
        return int(parts[1]), int(parts[2])
    except ValueError:
        return None


TOOLS = "tools"


def tools_payload(game_id: int, revision: int, shared: dict[str, Any] | None = None) -> str:
    """``"tools <game> <revision> [<shared>]"``: the table's shared tools changed (a timer
    started, a penalty added…); no hand did, and the game's version stays. ``shared``:
    what every phone shows of them after the tap (``selectors.table.shared_of`` with the
    game's ``version``), as JSON, so that the phones take it from the event instead of
    asking for it (a few hundred bytes: NOTIFY takes 8,000)."""
    said = f"{TOOLS} {game_id} {revision}"
    if shared is not None:
        said += " " + json.dumps(shared, separators=(",", ":"))
    return said


def parse_tools(text: str) -> tuple[int, int, dict[str, Any] | None] | None:
    """The game, the revision and what the phones show of the tools (None: not said, or
    not readable: the phones ask for it)."""
    parts = text.split(" ", 3)
    if len(parts) not in (3, 4) or parts[0] != TOOLS:
        return None
    try:
        game, revision = int(parts[1]), int(parts[2])
    except ValueError:
        return None
    shared = None
    if len(parts) == 4:
        try:
            shared = json.loads(parts[3])
        except ValueError:
            shared = None
    return game, revision, shared if isinstance(shared, dict) else None


def parse(text: str) -> tuple[int, int | None, int | None] | None:
    parts = text.split()
    if len(parts) == 4 and parts[0] not in (REVOKED, TOOLS) and stamp_of(text) is not None:
        parts = parts[:3]
    if len(parts) != 3:
        return None
    try:
        values = [None if p == "-" else int(p) for p in parts]
    except ValueError:
        return None
    game, version, first = values
    if game is None:
        return None
    return game, version, first


def stamp_of(text: str) -> str | None:
    """The version's stamp a change's payload carries (None: it has none)."""
    parts = text.split()
    if len(parts) != 4 or "." not in parts[3]:  # (a float's str always has its point)
        return None
    try:
        float(parts[3])
    except ValueError:
        return None
    return parts[3]


def game_changed(
    game_id: int, version: int | None, first: int | None = None, stamp: str | None = None
) -> None:
    """Tell every events process that ``game_id`` is now at ``version`` (saved at
    ``stamp``) and its sheet changed from hand ``first`` on; ``version`` None: the game
    was deleted."""
    if connection.vendor != "postgresql":
        return
    said = payload(game_id, version, first, stamp)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, said])


def invite_revoked(game_id: int, invite_id: int) -> None:
    """Tell every events process that a link to ``game_id`` was revoked: the streams of
    the guests who joined by it end (on commit, like every notification)."""
    if connection.vendor != "postgresql":
        return  # the SQLite poll looks for revoked links itself
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, revoked_payload(game_id, invite_id)])


def tools_changed(game_id: int, revision: int, shared: dict[str, Any] | None = None) -> None:
    """Tell every events process that the table tools of ``game_id`` changed, and to what
    (``shared``: see :func:`tools_payload`), on commit; on SQLite the events server's
    poll sees the revision."""
    if connection.vendor != "postgresql":
        return
    said = tools_payload(game_id, revision, shared)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, said])
