"""A league import made by the background worker: the request keeps the file and
queues it (202, the import's page), the worker checks and imports it writing how far it
is, the file goes once the import is over, and only the account that sent it sees it.
(Tasks run at once in the tests unless a test queues them.)"""

from __future__ import annotations

import io
import json
import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from rest_framework.test import APIClient

from scorekeeper.models import League, LeagueImport, WorkerHeartbeat
from scorekeeper.services.backup import checking, uploads
from scorekeeper.services.backup.uploads import resume_league_imports
from tests.scorekeeper.test_backup_limits import backup_file

pytestmark = pytest.mark.django_db


def body(**changes: Any) -> bytes:
    data = backup_file()
    data.update(changes)
    return json.dumps(data).encode()


def games(count: int) -> list[dict[str, Any]]:
    (game,) = backup_file()["games"]
    return [{**game, "id": 100 + i} for i in range(count)]


@pytest.fixture
def ana(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def queued_only(settings: Any) -> None:
    """Tasks wait in a queue that nothing runs: no worker."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


def send(client: Client, raw: bytes) -> Any:
    return client.post("/leagues/import/", {"file": SimpleUploadedFile("club.json", raw)})


@pytest.fixture
def same_database(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process the test starts reaches the test's database (``DATABASE_URL``)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        url = f"sqlite:///{db['NAME']}"
    else:
        url = (
            f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
        )
    monkeypatch.setenv("DATABASE_URL", url)


@pytest.mark.django_db(transaction=True)
def test_the_upload_answers_at_once_and_the_worker_imports_it(
    user: User, api: APIClient, start_worker: Any, same_database: None
) -> None:
    """The worker runs the import in a process of its own (manage.py import_league
    --upload), which writes its progress and its league."""
    answer = api.post("/api/v1/leagues/import/", body(), content_type="application/json")
    assert answer.status_code == 202
    assert answer.json() | {"id": 0, "url": ""} == {
        "id": 0,
        "status": "queued",
        "progress": {"games_checked": 0, "games": None},
        "league": None,
        "error": None,
        "url": "",
    }
    assert not League.objects.exists()
    start_worker()
    deadline = time.monotonic() + 30
    while (now := api.get(answer["Location"]).json())["status"] != "done":
        assert now["status"] in ("queued", "checking", "importing"), now
        assert time.monotonic() < deadline, now
        time.sleep(0.05)
    league = League.objects.get(pk=now["league"])
    assert (league.name, league.owner) == ("Thursday table", user)
    assert now["progress"] == {"games_checked": 1, "games": 1}
    assert LeagueImport.objects.get().file is None  # the upload is gone
    while DBTaskResult.objects.get().status != "SUCCESSFUL":  # the task ends after the import
        assert time.monotonic() < deadline
        time.sleep(0.05)


@pytest.mark.django_db(transaction=True)
def test_an_import_process_that_dies_fails_the_import(
    user: User, api: APIClient, start_worker: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Out of memory, killed: the import says the server stopped it, nothing saved."""
    monkeypatch.setattr(uploads.sys, "executable", "/bin/false")
    answer = api.post("/api/v1/leagues/import/", body(), content_type="application/json")
    start_worker()
    deadline = time.monotonic() + 30
    while (now := api.get(answer["Location"]).json())["status"] == "queued":
        assert time.monotonic() < deadline, now
        time.sleep(0.05)
    assert now["status"] == "failed"
    assert now["error"] == uploads.SERVER_ERROR
    assert not League.objects.exists()


def test_a_refused_file_shows_its_place_and_keeps_nothing(user: User, ana: Client) -> None:
    data = backup_file()
    data["games"][0]["hands"][1]["number"] = 7
    page = ana.get(send(ana, json.dumps(data).encode())["Location"])
    text = page.content.decode()
    assert "This backup cannot be imported: games[0] (game 40).hands[1]: hands must be" in text
    assert "Nothing was saved." in text
    assert 'href="/leagues/import/"' in text
    assert not League.objects.exists()
    assert LeagueImport.objects.get().file is None


def test_only_its_owner_sees_an_import(user: User, other_user: User, ana: Client) -> None:
    url = send(ana, body())["Location"]
    upload = LeagueImport.objects.get()
    bo = Client()
    bo.force_login(other_user)
    assert bo.get(url).status_code == 404
    assert Client().get(url).status_code == 302  # to sign in
    assert ana.get(url).status_code == 200
    api_url = f"/api/v1/leagues/imports/{upload.pk}/"
    bo_api = APIClient()
    bo_api.force_authenticate(other_user)
    assert bo_api.get(api_url).status_code == 404
    assert APIClient().get(api_url).status_code in (401, 403)
    assert bo_api.get("/api/v1/leagues/imports/424242/").status_code == 404


def test_progress_is_written_as_the_check_goes(
    user: User, api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What another process reads while the worker checks: every game at an interval of
    0, only the first and the last at a long one (not a write per game or hand)."""
    seen: list[tuple[str, int, int | None]] = []
    check_game = checking._check_game

    def watched(index: int, raw: Any, known: set[int]) -> Any:
        row = LeagueImport.objects.get()
        seen.append((row.status, row.games_checked, row.games))
        return check_game(index, raw, known)

    monkeypatch.setattr(checking, "_check_game", watched)
    monkeypatch.setattr(uploads, "PROGRESS_SECONDS", 0.0)
    api.post("/api/v1/leagues/import/", body(games=games(4)), content_type="application/json")
    assert seen == [("checking", n, 4) for n in range(4)]
    seen.clear()
    LeagueImport.objects.all().delete()
    monkeypatch.setattr(uploads, "PROGRESS_SECONDS", 3600.0)
    answer = api.post(
        "/api/v1/leagues/import/", body(games=games(4)), content_type="application/json"
    )
    assert seen == [("checking", 0, 4)] * 4
    assert answer.json()["progress"] == {"games_checked": 4, "games": 4}


def test_the_page_asks_again_less_often_and_says_when_no_worker_runs(
    user: User, ana: Client, queued_only: None
) -> None:
    # Not JSON after its first character: that is for the worker to find.
    url = send(ana, b'{"format": ')["Location"]
    page = ana.get(url).content.decode()
    assert "Waiting to start" in page
    assert "No background worker is running on this server" in page
    assert 'hx-trigger="load delay:1s"' in page
    assert '<noscript><meta http-equiv="refresh" content="1"></noscript>' in page
    WorkerHeartbeat.objects.create(worker_id="w1", beat_at=timezone.now())
    LeagueImport.objects.update(created_at=timezone.now() - timedelta(seconds=35))
    part = ana.get(url, headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in part
    assert 'id="progress"' in part
    assert "No background worker" not in part
    assert 'hx-trigger="load delay:5s"' in part
    LeagueImport.objects.update(status="checking", games=120, games_checked=30)
    page = ana.get(url).content.decode()
    assert "Checking the file</strong>: 30 of 120 games" in page
    assert '<progress max="120" value="30"' in page


def test_an_account_has_two_imports_waiting_at_most(
    user: User, ana: Client, api: APIClient, queued_only: None
) -> None:
    for _ in range(2):
        assert send(ana, body()).status_code == 302
    page = send(ana, body())
    assert page.status_code == 200
    assert "You have 2 imports waiting or under way" in page.content.decode()
    answer = api.post("/api/v1/leagues/import/", body(), content_type="application/json")
    assert answer.status_code == 429
    assert "2 imports waiting" in answer.json()["detail"]
    assert LeagueImport.objects.count() == 2


def test_an_import_cut_short_is_run_again_then_given_up(user: User) -> None:
    """The worker stopped mid-import (its row says checking, and nothing more for ten
    minutes): the sweep runs it again; a second time cut short, it is refused."""
    long_ago = timezone.now() - timedelta(minutes=11)
    make = LeagueImport.objects.create
    cut = make(owner=user, file=body(), size=1, status="checking", attempts=1, updated_at=long_ago)
    twice = make(owner=user, file=body(), size=1, status="importing", attempts=2)
    recent = make(owner=user, file=body(), size=1, status="checking", attempts=1)
    LeagueImport.objects.filter(pk=twice.pk).update(updated_at=long_ago)
    assert sorted(resume_league_imports()) == [cut.pk, twice.pk]
    cut.refresh_from_db()
    twice.refresh_from_db()
    assert cut.status == "done"
    assert cut.league is not None
    assert twice.status == "failed"
    assert "cut short twice" in twice.error
    assert League.objects.count() == 1
    recent.refresh_from_db()
    assert recent.status == "checking"  # under way: not the sweep's


def test_a_run_taken_over_by_a_later_one_saves_nothing(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    upload = LeagueImport.objects.create(owner=user, file=body(), size=1)
    write = uploads.league_import_checked

    def overtaken(*args: Any, **kwargs: Any) -> Any:
        LeagueImport.objects.update(attempts=2)  # the sweep started it again meanwhile
        return write(*args, **kwargs)

    monkeypatch.setattr(uploads, "league_import_checked", overtaken)
    assert uploads.league_import_run(upload.pk) is None
    assert not League.objects.exists()
    upload.refresh_from_db()
    assert upload.status == "importing"  # the later run's to finish


def test_imports_over_for_a_week_are_deleted(user: User, api: APIClient) -> None:
    now = timezone.now()
    make = LeagueImport.objects.create
    make(owner=user, size=1, status="done", finished_at=now - timedelta(days=8))
    kept = make(owner=user, size=1, status="failed", finished_at=now - timedelta(days=6))
    api.post("/api/v1/leagues/import/", body(), content_type="application/json")
    left = set(LeagueImport.objects.values_list("pk", flat=True))
    assert left == {kept.pk, LeagueImport.objects.latest("pk").pk}


def test_the_command_runs_a_file_or_an_upload(user: User) -> None:
    upload = LeagueImport.objects.create(owner=user, file=body(), size=1)
    out = io.StringIO()
    call_command("import_league", "--upload", str(upload.pk), stdout=out)
    league = League.objects.get()
    assert out.getvalue() == f"Import {upload.pk}: league {league.pk}.\n"
    with pytest.raises(CommandError, match="Give the backup file and --owner"):
        call_command("import_league", "--owner", "ana")
