"""The app served under a path prefix (``https://example.org/scores/``): a proxy passes
the whole path on to gunicorn, which is started with ``SCRIPT_NAME=/scores`` and hands
Django the part below it. Every link, redirect, cookie, static file, the service worker,
the web app manifest, the API's JSON errors and the events server stay under the prefix.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.test.utils import override_script_prefix
from rest_framework.test import APIClient

from scorekeeper.live import capability
from tests.scorekeeper.events_server import events_server
from tests.scorekeeper.factories import make_game, make_players

PREFIX = "/scores"
#: Every address a page gives the browser.
ADDRESSES = re.compile(r'(?:href|src|action|data-[a-z-]+)="(/[^"]*)"')


@pytest.fixture
def prefixed(settings: Any) -> Iterator[dict[str, str]]:
    """What settings.py makes of ``SCRIPT_NAME=/scores``; yields the environ gunicorn
    gives each request (``SCRIPT_NAME``, and the path below it as ``PATH_INFO``). The
    test client does not set the script prefix from it as Django's WSGI handler does."""
    settings.FORCE_SCRIPT_NAME = PREFIX
    settings.STATIC_URL = f"{PREFIX}/static/"
    settings.SESSION_COOKIE_PATH = settings.CSRF_COOKIE_PATH = f"{PREFIX}/"
    with override_script_prefix(PREFIX):
        yield {"SCRIPT_NAME": PREFIX}


@pytest.fixture
def client(prefixed: dict[str, str]) -> Client:
    return Client(**prefixed)


def head(url: str) -> int:
    try:
        with urllib.request.urlopen(
            urllib.request.Request(url, method="HEAD"), timeout=5
        ) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


def assert_under_prefix(html: str) -> None:
    found = ADDRESSES.findall(html)
    assert found
    for address in found:
        assert address.startswith(f"{PREFIX}/"), address


@pytest.mark.django_db
def test_every_address_on_the_pages_is_under_the_prefix(client: Client, user: User) -> None:
    for path in ("/", "/rules/", "/rules/dirt/", "/rules/search/?q=skip", "/offline/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert_under_prefix(response.content.decode())
    html = client.get("/rules/").content.decode()
    assert f'href="{PREFIX}/api/v1/docs/"' in html
    assert f'href="{PREFIX}/manifest.webmanifest"' in html
    assert f'data-sw="{PREFIX}/sw.js?lang=en"' in html
    assert f'href="{PREFIX}/static/css/app.css"' in html
    assert client.get("/static/css/app.css").status_code == 200  # the path below the prefix

    client.force_login(user)
    game = make_game(user, "dirt", make_players("Ana", "Bo", "Cy", created_by=user))
    for path in ("/", "/games/", "/games/new/", f"/games/{game.pk}/", "/leagues/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert_under_prefix(response.content.decode())


@pytest.mark.django_db
def test_signing_in_stays_under_the_prefix(client: Client, user: User) -> None:
    response = client.get("/games/new/")
    assert response.status_code == 302
    assert response["Location"] == f"{PREFIX}/accounts/login/?next={PREFIX}/games/new/"

    client.get("/accounts/login/")
    assert client.cookies["csrftoken"]["path"] == f"{PREFIX}/"
    signed_in = client.post(
        f"/accounts/login/?next={PREFIX}/games/new/",
        {"username": "ana", "password": "table-talk-42"},
    )
    assert signed_in["Location"] == f"{PREFIX}/games/new/"
    assert client.cookies["sessionid"]["path"] == f"{PREFIX}/"
    assert client.post("/accounts/logout/")["Location"] == f"{PREFIX}/"


@pytest.mark.django_db
def test_the_theme_cookie_and_its_way_back(client: Client) -> None:
    response = client.post("/theme/", {"theme": "dark", "next": "https://elsewhere.example/"})
    assert response["Location"] == f"{PREFIX}/"
    assert response.cookies["theme"]["path"] == f"{PREFIX}/"
    html = client.get("/").content.decode()
    assert f'data-cookie-path="{PREFIX}/"' in html
    assert f'data-login-url="{PREFIX}/accounts/login/"' in html


@pytest.mark.django_db
def test_api_errors_are_json_under_the_prefix(prefixed: dict[str, str], user: User) -> None:
    api = APIClient(**prefixed)
    missing = api.get("/api/v1/games/not-a-number/")
    assert missing.status_code == 404
    assert missing.json() == {"detail": "There is no such address in the API."}
    page = Client(**prefixed).get("/no-such-page/")
    assert page.status_code == 404
    assert page["Content-Type"].startswith("text/html")

    api.force_authenticate(user)
    wrong_method = api.delete("/api/v1/games/")
    assert wrong_method.status_code == 405
    assert wrong_method.json() == {"detail": 'Method "DELETE" not allowed.'}

    guesses = APIClient(**prefixed)
    for i in range(10):
        answer = guesses.post(
            "/api/v1/auth/token/", {"username": "ana", "password": f"guess-{i}"}, format="json"
        )
        if answer.status_code == 429:
            break
    assert answer.status_code == 429
    assert answer["Content-Type"] == "application/json"
    assert "Too many wrong passwords" in answer.json()["detail"]
    assert int(answer["Retry-After"]) > 0


@pytest.mark.django_db
def test_the_service_worker_keeps_to_the_app(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    # No Service-Worker-Allowed: its scope is its folder, the app, not the whole host.
    assert "Service-Worker-Allowed" not in response
    body = response.content.decode()
    precache = json.loads(re.search(r"var PRECACHE = (\[.*?\]);", body).group(1))  # type: ignore[union-attr]
    assert precache
    for url in precache:
        assert url.startswith(f"{PREFIX}/"), url
        assert client.get(url.removeprefix(PREFIX)).status_code == 200, url
    assert f'var STATIC_PREFIX = "{PREFIX}/static/";' in body
    assert f'var LOGOUT_URL = "{PREFIX}/accounts/logout/";' in body
    assert f'"{PREFIX}/games/0/"' in body  # the sheets it keeps (SHEET_PATH)


@pytest.mark.django_db
def test_the_web_app_manifest_opens_the_app_under_the_prefix(client: Client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["id"] == manifest["start_url"] == manifest["scope"] == f"{PREFIX}/"
    assert [s["url"] for s in manifest["shortcuts"]] == [f"{PREFIX}/rules/"]
    for icon in manifest["icons"]:
        assert icon["src"].startswith(f"{PREFIX}/static/icons/"), icon
        assert client.get(icon["src"].removeprefix(PREFIX)).status_code == 200, icon


@pytest.mark.django_db
def test_live_sheets_stream_from_the_events_servers_path(
    client: Client, user: User, settings: Any
) -> None:
    settings.LIVE_EVENTS_URL = f"{PREFIX}/events/"
    client.force_login(user)
    game = make_game(user, "dirt", make_players("Ana", "Bo", "Cy", created_by=user))
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert re.search(rf'data-events="{PREFIX}/events/[^"/]+"', html)

    with events_server() as (base, _app):
        assert head(f"{base}{PREFIX}/events/health") == 200
        assert head(f"{base}/events/health") == 404
        assert head(f"{base}{PREFIX}/events/{capability.issue(game.pk, 'watch')}") == 200
