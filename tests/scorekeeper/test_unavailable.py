"""While the database cannot be reached (PostgreSQL restarting, a dropped connection),
the app answers 503 with Retry-After — JSON under /api/ and to the table tools, a line
of text to a phone's live answer, its own page elsewhere — and never a 500; every error
under /api/ is JSON."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from scorekeeper.api.errors import RETRY_AFTER, UNAVAILABLE, server_error
from tests.scorekeeper.factories import make_game, make_player


@pytest.fixture
def database_down(user: User) -> Iterator[None]:
    """Every query fails as when PostgreSQL is down (after the fixtures are made)."""

    def refuse(self: BaseDatabaseWrapper) -> None:
        raise OperationalError('connection to server at "127.0.0.1", port 5432 failed')

    with pytest.MonkeyPatch.context() as patch:  # undone before the test's rollback
        patch.setattr(BaseDatabaseWrapper, "ensure_connection", refuse)
        yield


def test_the_api_answers_503_json_while_the_database_is_away(
    user: User, database_down: None
) -> None:
    api = APIClient(raise_request_exception=False)
    api.force_authenticate(user)
    for answer in (api.get("/api/v1/games/"), api.post("/api/v1/players/", {"name": "Ana"})):
        assert answer.status_code == 503
        assert answer["Retry-After"] == str(RETRY_AFTER)
        assert "out of reach" in answer.json()["detail"]


def test_a_page_answers_the_apps_503_page_while_the_database_is_away(
    user: User, database_down: None
) -> None:
    page = Client(raise_request_exception=False)
    page.cookies["sessionid"] = "a-session-the-database-would-know"
    answer = page.get("/")
    assert answer.status_code == 503
    assert answer["Retry-After"] == str(RETRY_AFTER)
    html = answer.content.decode()
    assert "Back in a moment" in html
    assert 'class="topbar"' in html  # the app's own page, signed out
    assert "Sign in" in html


def test_api_errors_outside_drf_are_json() -> None:
    api = APIClient(raise_request_exception=False)
    refused_host = api.get("/api/v1/games/", HTTP_HOST="evil.example")
    assert refused_host.status_code == 400
    assert refused_host.json() == {"detail": "Bad request."}
    assert Client().get("/rules/", HTTP_HOST="evil.example").status_code == 400

    request = RequestFactory().get("/api/v1/games/")
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        crashed = server_error(request)
    assert crashed.status_code == 500
    assert crashed["Content-Type"] == "application/json"


@pytest.fixture
def table_phone(user: User) -> tuple[Client, int]:
    """A signed-in phone at a Dirty Deals table (its session made before the outage)."""
    players = [make_player(name, created_by=user) for name in ("Ana", "Bo", "Cy", "Di")]
    game = make_game(user, "dirty-deals", players)
    phone = Client(raise_request_exception=False)
    phone.force_login(user)
    return phone, game.pk


def test_a_phones_polls_answer_503_with_retry_after_while_the_database_is_away(
    table_phone: tuple[Client, int], database_down: None
) -> None:
    """The live answer (htmx) and the table tools' state (fetch, JSON) are what every
    phone asks again and again: each gets a 503 saying how long to wait, in a few bytes
    (nothing for htmx to swap, JSON for the tools), not the page."""
    phone, pk = table_phone
    live = phone.get(f"/games/{pk}/live/?v=1", HTTP_HX_REQUEST="true")
    assert live.status_code == 503
    assert live["Retry-After"] == str(RETRY_AFTER)
    assert live["Content-Type"].startswith("text/plain")
    assert live.content.decode().strip() == UNAVAILABLE

    tools = phone.get(f"/games/{pk}/table/", HTTP_ACCEPT="application/json")
    assert tools.status_code == 503
    assert tools["Retry-After"] == str(RETRY_AFTER)
    assert tools.json() == {"detail": UNAVAILABLE}

    # A page asked for by a browser still gets the app's page.
    sheet = phone.get(f"/games/{pk}/", HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    assert sheet.status_code == 503
    assert sheet["Retry-After"] == str(RETRY_AFTER)
    assert "Back in a moment" in sheet.content.decode()
