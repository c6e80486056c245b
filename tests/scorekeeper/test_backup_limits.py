"""A hostile or broken backup is refused with the place of the problem and leaves the
install as it was: the declared schema bounds every type, range, size and depth, and no
value it lets through can break a page afterwards. An export that fails part way is an
error, never a truncated file that looks complete."""

from __future__ import annotations

import copy
import importlib
import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection
from django.test import Client, override_settings
from rest_framework.test import APIClient

from games import RuleError
from scorekeeper import downloads
from scorekeeper.api import backup as api_backup
from scorekeeper.models import (
    Game,
    Hand,
    HandRevision,
    League,
    Membership,
    Player,
    PlayerStanding,
    RatingPoint,
    Seat,
)
from scorekeeper.services import backup
from scorekeeper.services.backup import MAX_HANDS, league_import, load_backup

pytestmark = pytest.mark.django_db

MODELS = (User, Player, League, Membership, Game, Seat, Hand, HandRevision)
MODELS += (PlayerStanding, RatingPoint)


def counts() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in MODELS}


def syn_hand(number: int, winner: int) -> dict[str, Any]:
    return {
        "number": number,
        "input": {"winner": winner},
        "revision": 1,
        "created_by": "ana",
        "created_at": "2025-06-12T19:30:00+00:00",
    }


def backup_file(hands: int = 2) -> dict[str, Any]:
    """A small valid backup: three players, one game of Screw Your Neighbour."""
    return {
        "format": "scorekeeper.league",
        "version": 1,
        "exported_at": "2025-06-13T08:00:00+00:00",
        "league": {
            "id": 4,
            "name": "Thursday table",
            "owner": "ana",
            "created_at": "2025-06-01T18:00:00+00:00",
        },
        "users": ["ana"],
        "players": [
            {"id": 11, "name": "Ana", "user": "ana", "created_at": "2025-06-01T18:00:00Z"},
            {"id": 12, "name": "Bo", "user": None, "created_at": "2025-06-01T18:00:00Z"},
            {"id": 13, "name": "Cy", "user": None, "created_at": None},
        ],
        "members": [{"player": 11, "joined_at": "2025-06-01T18:00:00Z"}],
        "games": [
            {
                "id": 40,
                "ruleset": "screw-your-neighbour",
                "variant": "",
                "options": {"target_wins": 0},
                "teams": None,
                "first_dealer": 11,
                "closed": False,
                "owner": "ana",
                "created_at": "2025-06-12T19:00:00+00:00",
                "finished_at": None,
                "status": "in_progress",
                "seats": [
                    {"player": p, "position": i, "team": None, "score": 0, "place": None}
                    for i, p in enumerate((11, 12, 13))
                ],
                "hands": [syn_hand(n, (11, 12, 13)[n % 3]) for n in range(1, hands + 1)],
                "revisions": [
                    {
                        "number": 1,
                        "revision": 1,
                        "action": "recorded",
                        "input": {"winner": 12},
                        "user": "ana",
                        "created_at": "2025-06-12T19:30:00+00:00",
                    }
                ],
            }
        ],
    }


def nested(depth: int) -> Any:
    value: Any = "R5"
    for _ in range(depth):
        value = [value]
    return value


def setter(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        target: Any = data
        keys = path.split(".")
        for key in keys[:-1]:
            target = target[int(key)] if isinstance(target, list) else target[key]
        last = keys[-1]
        target[int(last) if isinstance(target, list) else last] = value

    return mutate


def too_many_hands(data: dict[str, Any]) -> None:
    data["games"][0]["hands"] = [syn_hand(n, 11) for n in range(1, MAX_HANDS + 2)]


HOSTILE: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    (
        "year 0 after the time zone",
        setter("players.0.created_at", "0001-01-01T00:00:00+01:00"),
        "players[0].created_at: must be an ISO 8601 date-time in the years 1–9999",
    ),
    (
        "year 10000 after the time zone",
        setter("games.0.created_at", "9999-12-31T23:00:00-05:00"),
        "games[0].created_at: must be an ISO 8601 date-time in the years 1–9999",
    ),
    (
        "a timestamp in full-width digits",
        setter("members.0.joined_at", "２０２５-06-01T18:00:00"),
        "members[0].joined_at: must be an ISO 8601 date-time",
    ),
    (
        "a revision of 10**30",
        setter("games.0.hands.1.revision", 10**30),
        "games[0].hands[1].revision: must be at most 1000000",
    ),
    (
        "a hand number of 10**30",
        setter("games.0.revisions.0.number", 10**30),
        "games[0].revisions[0].number: must be at most 1000",
    ),
    (
        "a player id of 10**30",
        setter("players.2.id", 10**30),
        "players[2].id: must be at most 2147483647",
    ),
    (
        "chips of 10**30 in a hand",
        setter("games.0.hands.0.input.chips", 10**30),
        "games[0].hands[0].input.chips: must be at most 1000000",
    ),
    (
        "a 900-deep hand input",
        setter("games.0.hands.0.input.results", nested(900)),
        "games[0].hands[0].input.results[0][0][0]: is nested too deeply",
    ),
    (
        "a hand input one level too deep",
        setter("games.0.hands.0.input.results", nested(4)),
        "games[0].hands[0].input.results[0][0][0]: is nested too deeply",
    ),
    (
        "a list as an option",
        setter("games.0.options.target_wins", [1]),
        "games[0].options.target_wins: is nested too deeply",
    ),
    (
        "a 900-deep option",
        setter("games.0.options.target_wins", nested(900)),
        "games[0].options.target_wins: is nested too deeply",
    ),
    ("a NUL in a name", setter("players.1.name", "Bo\x00"), "players[1].name: a name is required"),
    (
        "a lone surrogate in a name",
        setter("league.name", "Thursday \ud800"),
        "league.name: a name is required",
    ),
    (
        "a lone surrogate in a card",
        setter("games.0.hands.0.input.cards", ["R\udc00"]),
        "games[0].hands[0].input.cards[0]: must be plain ASCII text",
    ),
    (
        "a NUL in a username",
        setter("games.0.hands.0.created_by", "ana\x00"),
        "games[0].hands[0].created_by: must be a username",
    ),
    (
        "a right-to-left override in a name",
        setter("players.2.name", "Cy\u202egnp.exe"),
        "players[2].name: a name is required",
    ),
    ("a name of zero-width spaces", setter("players.2.name", "\u200b\u200b"), "players[2].name"),
    ("a name too long", setter("players.2.name", "C" * 61), "at most 60 characters"),
    ("a username too long", setter("players.1.user", "b" * 151), "at most 150 characters"),
    ("a player id as text", setter("players.0.id", "11"), "players[0].id: must be a whole number"),
    ("a player id of true", setter("players.0.id", True), "players[0].id: must be a whole number"),
    ("closed as text", setter("games.0.closed", "yes"), "games[0].closed: must be true or false"),
    ("seats as a number", setter("games.0.seats", 5), "games[0].seats: must be a list"),
    ("teams of true", setter("games.0.teams", True), "games[0].teams: must be a list or null"),
    ("a hand's input as a list", setter("games.0.hands.0.input", []), "must be a JSON object"),
    ("a float in a hand", setter("games.0.hands.0.input.winner", 11.5), "must be a whole number"),
    ("an unknown key", setter("games.0.secret", 1), 'games[0]: unexpected key "secret"'),
    (
        "a missing seat player",
        setter("games.0.seats.0", {}),
        'games[0].seats[0]: "player" is required',
    ),
    (
        f"{MAX_HANDS + 1} hands",
        too_many_hands,
        f"games[0].hands: a game holds at most {MAX_HANDS:,} hands",
    ),
]


@pytest.mark.parametrize(
    ("mutate", "words"), [pytest.param(m, w, id=name) for name, m, w in HOSTILE]
)
def test_hostile_files_are_refused_naming_the_place(
    user: User, mutate: Callable[[dict[str, Any]], None], words: str
) -> None:
    data = backup_file()
    mutate(data)
    before = counts()
    with pytest.raises(RuleError) as caught:
        league_import(data, owner=user, trusted=True, create_users=True)
    assert words in caught.value.message
    assert caught.value.field == words.split(".")[0].split("[")[0] or caught.value.field
    assert counts() == before


def test_the_valid_file_imports(user: User) -> None:
    result = league_import(backup_file(), owner=user)
    assert (result.games, result.hands, result.players_created) == (1, 2, 3)
    # Every player the import creates belongs to the importing user.
    assert set(Player.objects.values_list("created_by", flat=True)) == {user.pk}


def test_a_game_of_the_most_hands_allowed_imports(user: User) -> None:
    data = backup_file(hands=MAX_HANDS)
    result = league_import(data, owner=user)
    assert result.hands == MAX_HANDS


def test_a_failure_while_writing_leaves_nothing_behind(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checks pass, then writing fails half way (after the players, league, games
    and hands): the one transaction takes everything back, accounts included."""

    def broken(league: League) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(backup.importing, "league_stats_rebuild", broken)
    data = backup_file()
    data["players"][1]["user"] = "bo-new"
    before = counts()
    with pytest.raises(RuntimeError):
        league_import(data, owner=user, trusted=True, create_users=True)
    assert counts() == before
    assert not User.objects.filter(username="bo-new").exists()


def test_timestamps_at_the_edges_come_back_on_every_page(user: User) -> None:
    """The earliest and latest instants the schema lets through are read back by the
    database and shown by the pages (before, year 0 after a time zone made player
    search, game lists and league pages fail for every user)."""
    data = backup_file()
    data["players"][0]["created_at"] = "0001-01-02T00:00:00+00:00"
    data["players"][1]["created_at"] = "9999-12-30T00:00:00Z"
    data["league"]["created_at"] = "0001-01-02T01:00:00+01:00"
    data["games"][0]["created_at"] = "9999-12-29T23:00:00-01:00"
    data["games"][0]["hands"][0]["created_at"] = "0001-01-02T00:00:00Z"
    league = league_import(data, owner=user).league
    client = Client()
    client.force_login(user)
    game = Game.objects.get(league=league)
    for url in (
        f"/leagues/{league.pk}/",
        "/leagues/",
        "/games/",
        f"/games/{game.pk}/",
        f"/players/{Player.objects.get(user=user).pk}/",
        "/",
    ):
        assert client.get(url).status_code == 200, url
    api = APIClient()
    api.force_authenticate(user)
    assert api.get("/api/v1/players/?search=a").status_code == 200
    assert api.get("/api/v1/games/").status_code == 200
    call_command("rebuild_derived", stdout=open("/dev/null", "w"))  # noqa: SIM115
    again = json.loads(b"".join(api.get(f"/api/v1/leagues/{league.pk}/export/")).decode())
    assert again["players"][0]["created_at"] == "0001-01-02T00:00:00+00:00"


# -- the JSON itself ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        pytest.param(b"[" * 10_000 + b"]" * 10_000, "too deeply", id="10k-deep"),
        pytest.param(b'{"version": NaN}', "NaN", id="NaN"),
        pytest.param(b'{"version": ' + b"9" * 5000 + b"}", "not a league backup", id="5000 digits"),
        pytest.param(b"\xff\xfe{}", "not a text file", id="not UTF-8"),
        pytest.param(b'{"format": ', "not valid JSON", id="cut short"),
    ],
)
def test_json_no_backup_can_be_is_refused(raw: bytes, words: str) -> None:
    with pytest.raises(RuleError) as caught:
        load_backup(raw)
    assert words in caught.value.message


def _refused(api: APIClient, body: Any) -> str:
    """The error of an import of ``body`` (the worker's: tasks run at once here)."""
    sent = (
        api.post("/api/v1/leagues/import/", body, content_type="application/json")
        if isinstance(body, bytes)
        else api.post("/api/v1/leagues/import/", body, format="json")
    )
    assert sent.status_code == 202, sent.content
    assert sent.json()["status"] == "failed"
    return str(sent.json()["error"])


def test_api_refuses_hostile_bodies_naming_the_problem(api: APIClient) -> None:
    """What is no JSON object answers 400 at once; the rest is the worker's, whose
    import fails naming the place, nothing written."""
    before = counts()
    for body in (b"[" * 10_000 + b"]" * 10_000, b"[1]", b'"x"', b"null", b"\xff{}"):
        response = api.post("/api/v1/leagues/import/", body, content_type="application/json")
        assert response.status_code == 400
        assert list(response.json()) == ["file"]
    assert "too deeply" in _refused(api, b'{"a": ' + b"[" * 10_000 + b"]" * 10_000 + b"}")
    data = backup_file()
    data["games"][0]["hands"][0]["input"]["results"] = nested(900)
    # Named by the schema (games[0].hands[0].input.results[0][0][0]: is nested too
    # deeply), or by the parser when the worker's stack is already deep (test workers).
    assert "too deeply" in _refused(api, data)
    data = backup_file()
    data["players"][0]["created_at"] = "0001-01-01T00:00:00+01:00"
    assert _refused(api, data).startswith("players[0].created_at: must be")
    no_league = {k: v for k, v in backup_file().items() if k != "league"}
    assert _refused(api, no_league) == '"league" is required'
    assert counts() == before


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_the_import_keeps_its_own_size_limit(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bodies other endpoints refuse for their size are fine here up to 20 MB, and a
    bigger one is a 413 in JSON, read or not."""
    body = json.dumps(backup_file(hands=40)).encode()
    assert len(body) > 1000
    response = api.post("/api/v1/leagues/import/", body, content_type="application/json")
    assert response.status_code == 202, response.content
    assert response.json()["status"] == "done"
    monkeypatch.setattr(api_backup, "MAX_IMPORT_BYTES", len(body) - 1)
    response = api.post("/api/v1/leagues/import/", body, content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    assert "manage.py import_league" in response.json()["detail"]
    # A body longer than its Content-Length says is cut at the limit by the parser.
    stream = api_backup.LeagueBackupParser()
    import io

    with pytest.raises(api_backup.BackupTooLarge):
        stream.parse(io.BytesIO(body))


def test_the_import_page_refuses_a_hostile_file(user: User) -> None:
    client = Client()
    client.force_login(user)
    before = counts()
    data = backup_file()
    data["games"][0]["hands"][1]["revision"] = 10**30
    upload = SimpleUploadedFile("x.json", json.dumps(data).encode(), "application/json")
    response = client.get(client.post("/leagues/import/", {"file": upload})["Location"])
    assert "games[0].hands[1].revision: must be at most 1000000" in response.content.decode()
    deep = SimpleUploadedFile("y.json", b'{"a": ' + b"[" * 10_000, "application/json")
    response = client.get(client.post("/leagues/import/", {"file": deep})["Location"])
    assert "too deeply" in response.content.decode()
    assert counts() == before


# -- an export that fails part way ------------------------------------------------------


@pytest.fixture
def imported(user: User) -> League:
    data = backup_file()
    second = copy.deepcopy(data["games"][0])
    second["id"] = 41
    data["games"].append(second)
    return league_import(data, owner=user).league


@pytest.fixture
def failing_export(monkeypatch: pytest.MonkeyPatch) -> None:
    """The database goes away after the first game (JSON) or the first row (CSV)."""
    games = backup.export._export_games
    rows = backup.export.league_csv_rows

    def first_game_then_fail(league: League) -> Any:
        yield next(iter(games(league)))
        raise ConnectionError("server closed the connection unexpectedly")

    def first_row_then_fail(league: League) -> Any:
        yield next(iter(rows(league)))
        raise ConnectionError("server closed the connection unexpectedly")

    monkeypatch.setattr(backup.export, "_export_games", first_game_then_fail)
    monkeypatch.setattr(backup.export, "league_csv_rows", first_row_then_fail)


def test_an_export_is_streamed_whole(imported: League, api: APIClient) -> None:
    response = api.get(f"/api/v1/leagues/{imported.pk}/export/")
    assert response.streaming  # type: ignore[attr-defined]
    body = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    assert len(json.loads(body)["games"]) == 2
    assert "attachment" in response["Content-Disposition"]


@pytest.mark.usefixtures("failing_export")
@pytest.mark.parametrize("chosen", ["json", "csv"])
def test_an_export_failing_before_its_first_byte_is_an_error(
    imported: League, api: APIClient, user: User, chosen: str, caplog: pytest.LogCaptureFixture
) -> None:
    response = api.get(f"/api/v1/leagues/{imported.pk}/export/?format={chosen}")
    assert response.status_code == 503
    assert "nothing was sent" in response.json()["detail"]
    assert "failed" in caplog.text
    client = Client()
    client.force_login(user)
    page = client.get(f"/leagues/{imported.pk}/export.{chosen}", follow=True)
    assert page.redirect_chain[0][0] == f"/leagues/{imported.pk}/"
    assert "The download failed part way" in page.content.decode()


@pytest.mark.usefixtures("failing_export")
@pytest.mark.parametrize("chosen", ["json", "csv"])
def test_an_export_failing_after_its_first_byte_is_cut_short(
    imported: League,
    api: APIClient,
    chosen: str,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past the first chunk the status is sent: the stream breaks off (the server then
    drops the connection, and the client's download fails) and the log says why."""
    monkeypatch.setattr(downloads, "CHUNK", 1)
    response = api.get(f"/api/v1/leagues/{imported.pk}/export/?format={chosen}")
    assert response.status_code == 200
    received: list[bytes] = []
    with pytest.raises(ConnectionError):
        received.extend(response.streaming_content)  # type: ignore[attr-defined]
    assert received
    if chosen == "json":
        with pytest.raises(json.JSONDecodeError):
            json.loads(b"".join(received))
    assert "cut short" in caplog.text


@pytest.mark.usefixtures("failing_export")
def test_a_failed_export_command_leaves_no_file(imported: League, tmp_path: Path) -> None:
    target = tmp_path / "club.json"
    with pytest.raises(CommandError, match=r"failed part way; .* was not written"):
        call_command("export_league", str(imported.pk), "-o", str(target))
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(CommandError, match="incomplete"):
        call_command("export_league", str(imported.pk), stdout=open("/dev/null", "w"))  # noqa: SIM115


# -- what earlier imports stored ------------------------------------------------------


def test_timestamps_an_earlier_import_stored_are_brought_back_in_range(user: User) -> None:
    """Year 0 in UTC (what ``0001-01-01T00:00:00+01:00`` became) cannot be read back;
    the migration moves it to the earliest instant that can, without reading it."""
    player = Player.objects.create(name="Old", created_by=user)
    table = connection.ops.quote_name(Player._meta.db_table)
    bad = (
        "0001-12-31 23:00:00+00 BC" if connection.vendor == "postgresql" else "0000-12-31 23:00:00"
    )
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET created_at = %s WHERE id = %s", [bad, player.pk])
    with pytest.raises((ValueError, DatabaseError), match="year"):
        Player.objects.get(pk=player.pk)
    migration = importlib.import_module("scorekeeper.migrations.0004_imports_timestamps")
    migration.repair(django_apps, None)
    assert Player.objects.get(pk=player.pk).created_at == datetime(1, 1, 2, tzinfo=UTC)
