"""Over HTTP against the app in its production profile (see conftest): every page, the
service worker, the web app manifest, static files with hashed names and compression,
the API, and the sign-in limits shared by the worker processes. The app may be served
under a prefix (the base URL's path): every address it gives must carry it."""

from __future__ import annotations

import json
import re
import secrets
import time

import pytest

from tests.production.http import Session

pytestmark = pytest.mark.production

RULESETS = ("dirt", "screw-your-neighbour", "damn-you", "dirty-uno", "dirty-deals")
HASHED = re.compile(r"/static/[\w/.-]+\.[0-9a-f]{12}\.\w+")
#: Every address a page gives the browser.
ADDRESSES = re.compile(r'(?:href|src|action|data-[a-z-]+)="(/[^"]*)"')


def is_hashed(session: Session, url: str) -> bool:
    """A static file's URL, under the app's prefix, with a content hash."""
    return url.startswith(session.prefix + "/") and bool(
        HASHED.fullmatch(url.removeprefix(session.prefix))
    )


def assert_page(session: Session, path: str, **kwargs: object) -> str:
    response = session.get(path, **kwargs)  # type: ignore[arg-type]
    assert response.status_code == 200, f"{path}: {response.status_code}"
    assert response.header("Content-Type").startswith("text/html"), path
    assert response.header("Content-Security-Policy"), path
    assert response.header("X-Content-Type-Options") == "nosniff", path
    html = response.text
    assert "Traceback" not in html, path
    for url in ADDRESSES.findall(html):
        assert url.startswith(session.prefix + "/"), f"{path}: {url} is outside the app"
        # Every static file a page names has a content hash (manifest storage).
        if "/static/" in url:
            assert is_hashed(session, url), f"{path}: unhashed {url}"
    return html


def ids(session: Session, html: str, pattern: str) -> list[int]:
    """The numbers in ``pattern`` (a path below the app's root) of the page's links."""
    found = re.findall(f'href="{re.escape(session.prefix)}{pattern}"', html)
    return [int(number) for number in found]


def test_pages_for_everyone(anonymous: Session) -> None:
    for path in (
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        "/rules/",
        "/rules/dirty-deals/",
        "/rules/search/?q=left+bower",
        "/offline/",
        "/api/v1/docs/",
    ):
        assert_page(anonymous, path)
    assert "rules-hit-title" in anonymous.get("/rules/search/?q=left+bower").text
    schema = anonymous.get("/api/v1/schema/", headers={"Accept": "application/json"})
    assert schema.status_code == 200
    assert "/api/v1/games/" in schema.json()["paths"]
    # The docs page's "Try it out" puts the prefix before each path.
    servers = [server["url"] for server in schema.json().get("servers", [])]
    assert servers == ([anonymous.prefix] if anonymous.prefix else [])
    sign_in_first = anonymous.get("/games/new/")
    assert sign_in_first.status_code == 302
    login = f"{anonymous.prefix}/accounts/login/?next={anonymous.prefix}/games/new/"
    assert sign_in_first.header("Location") == login


def test_pages_signed_in(demo: Session) -> None:
    home = assert_page(demo, "/")
    assert "Sign out" in home
    assert_page(demo, "/games/new/")
    assert_page(demo, "/games/")
    assert_page(demo, "/leagues/import/")

    leagues = assert_page(demo, "/leagues/")
    league = ids(demo, leagues, r"/leagues/(\d+)/")[0]
    detail = assert_page(demo, f"/leagues/{league}/")
    assert "Thursday Card Club" in detail
    players = ids(demo, detail, r"/players/(\d+)/")
    assert len(set(players)) >= 2
    assert_page(demo, f"/leagues/{league}/?page=2")
    assert_page(demo, f"/players/{players[0]}/")
    assert_page(demo, f"/leagues/{league}/head-to-head/?a={players[0]}&b={players[1]}")

    games = sorted(set(ids(demo, home + demo.get("/games/").text, r"/games/(\d+)/")))
    assert games, "the demo has games"
    for game in games[:3]:
        assert_page(demo, f"/games/{game}/")


def test_html_is_gzipped_with_a_fresh_csrf_token_each_time(demo: Session) -> None:
    first = demo.get("/games/new/", headers={"Accept-Encoding": "gzip"})
    second = demo.get("/games/new/", headers={"Accept-Encoding": "gzip"})
    assert first.header("Content-Encoding") == "gzip"
    assert "Accept-Encoding" in first.header("Vary")
    assert len(first.raw) < len(first.body) / 2
    tokens = [
        re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', r.text).group(1)  # type: ignore[union-attr]
        for r in (first, second)
    ]
    assert tokens[0] != tokens[1]


def test_static_files_hashed_compressed_and_cached(anonymous: Session) -> None:
    html = anonymous.get("/rules/").text
    found = re.search(r'href="([^"]*/static/css/app\.[0-9a-f]{12}\.css)"', html)
    assert found, "the stylesheet has a hashed name"
    assert is_hashed(anonymous, found.group(1))
    css = anonymous.link(found.group(1))
    brotli = anonymous.get(css, headers={"Accept-Encoding": "br, gzip"})
    assert brotli.status_code == 200
    assert brotli.header("Content-Encoding") == "br"
    assert "immutable" in brotli.header("Cache-Control")
    gzipped = anonymous.get(css, headers={"Accept-Encoding": "gzip"})
    assert gzipped.header("Content-Encoding") == "gzip"
    plain = anonymous.get(css)
    assert plain.status_code == 200
    assert plain.header("Content-Type").startswith("text/css")
    assert len(brotli.raw) < len(plain.raw)
    assert anonymous.get("/static/css/no-such-file.css").status_code == 404


def test_web_app_manifest_and_its_icons(anonymous: Session) -> None:
    html = anonymous.get("/").text
    link = re.search(r'<link rel="manifest" href="([^"]+)"', html)
    assert link
    assert link.group(1) == f"{anonymous.prefix}/manifest.webmanifest"
    manifest = anonymous.get(anonymous.link(link.group(1)))
    assert manifest.status_code == 200
    assert manifest.header("Content-Type") == "application/manifest+json"
    data = json.loads(manifest.body)
    assert data["start_url"] == data["scope"] == f"{anonymous.prefix}/"
    assert data["icons"]
    for icon in data["icons"]:
        assert is_hashed(anonymous, icon["src"]), icon
        assert anonymous.get(anonymous.link(icon["src"])).status_code == 200, icon


def test_service_worker_and_everything_it_stores(anonymous: Session) -> None:
    sw = anonymous.get("/sw.js")
    assert sw.status_code == 200, sw.text
    assert sw.header("Content-Type").startswith("application/javascript")
    # Its scope is the folder it is served from: the app, not the whole host.
    assert not sw.header("Service-Worker-Allowed")
    precache = json.loads(re.search(r"var PRECACHE = (\[.*?\]);", sw.text).group(1))  # type: ignore[union-attr]
    assert any(is_hashed(anonymous, url) for url in precache)
    for url in precache:
        assert url.startswith(f"{anonymous.prefix}/"), url
        assert anonymous.get(anonymous.link(url)).status_code == 200, url
    assert f'var STATIC_PREFIX = "{anonymous.prefix}/static/";' in sw.text


def test_api_errors_are_json(base_url: str) -> None:
    api = Session(base_url)
    missing = api.get("/api/v1/no-such-thing/")
    assert missing.status_code == 404
    assert missing.json() == {"detail": "There is no such address in the API."}
    token = api.post("/api/v1/auth/token/", json_body={"username": "demo", "password": "demo"})
    auth = {"Authorization": f"Token {token.json()['token']}"}
    wrong_method = api.request("DELETE", "/api/v1/games/", headers=auth)
    assert wrong_method.status_code == 405
    assert wrong_method.json() == {"detail": 'Method "DELETE" not allowed.'}
    page = api.get("/no-such-page/")
    assert page.status_code == 404
    assert page.header("Content-Type").startswith("text/html")


def test_api_token_games_and_hands(base_url: str) -> None:
    api = Session(base_url)
    response = api.post("/api/v1/auth/token/", json_body={"username": "demo", "password": "demo"})
    assert response.status_code == 200, response.text
    auth = {"Authorization": f"Token {response.json()['token']}"}

    suffix = secrets.token_hex(3)
    seats = []
    for name in ("North", "East", "South", "West"):
        made = api.post("/api/v1/players/", json_body={"name": f"{name} {suffix}"}, headers=auth)
        assert made.status_code == 201, made.text
        seats.append(made.json()["id"])

    for ruleset in RULESETS:
        game = api.post(
            "/api/v1/games/", json_body={"ruleset": ruleset, "players": seats}, headers=auth
        )
        assert game.status_code == 201, f"{ruleset}: {game.text}"
        assert game.json()["status"] == "in_progress"

    game = api.post(
        "/api/v1/games/",
        json_body={"ruleset": "screw-your-neighbour", "players": seats[:3]},
        headers=auth,
    ).json()
    hand = api.post(
        f"/api/v1/games/{game['id']}/hands/",
        json_body={"winner": seats[1]},
        headers={**auth, "Idempotency-Key": f"smoke-{suffix}"},
    )
    assert hand.status_code == 201, hand.text
    again = api.get(f"/api/v1/games/{game['id']}/", headers=auth).json()
    assert len(again["hands"]) == 1
    leader = next(row for row in again["standings"] if row["player"] == seats[1])
    assert (leader["score"], leader["rank"]) == (1, 1)

    bad = api.post(f"/api/v1/games/{game['id']}/hands/", json_body={"winner": 0}, headers=auth)
    assert bad.status_code == 400
    assert api.get("/api/v1/games/").status_code == 401


def test_sheets_of_each_game(demo: Session, base_url: str) -> None:
    """A new game of every ruleset, made through the sign-in page's session and the API,
    shows its score sheet."""
    api = Session(base_url)
    token = api.post("/api/v1/auth/token/", json_body={"username": "demo", "password": "demo"})
    auth = {"Authorization": f"Token {token.json()['token']}"}
    suffix = secrets.token_hex(3)
    seats = [
        api.post("/api/v1/players/", json_body={"name": f"P{i} {suffix}"}, headers=auth).json()[
            "id"
        ]
        for i in range(4)
    ]
    for ruleset in RULESETS:
        game = api.post(
            "/api/v1/games/", json_body={"ruleset": ruleset, "players": seats}, headers=auth
        ).json()
        assert_page(demo, f"/games/{game['id']}/")


def test_wrong_passwords_locked_out_across_workers(base_url: str) -> None:
    """Two gunicorn workers answer in turn; a per-process count would allow twice as
    many tries. Locked out after the limit, even with the right password."""
    username = f"smoke-{secrets.token_hex(4)}"
    password = "a-long-pass-phrase"
    signup = Session(base_url)
    signup.get("/accounts/signup/")
    made = signup.post(
        "/accounts/signup/",
        form={
            "username": username,
            "email": f"{username}@example.org",
            "password1": password,
            "password2": password,
            "csrfmiddlewaretoken": signup.cookies["csrftoken"],
        },
    )
    assert made.status_code == 302, made.text

    statuses = []
    for i in range(10):
        attempt = Session(base_url).post(
            "/api/v1/auth/token/", json_body={"username": username, "password": f"guess-{i}"}
        )
        statuses.append(attempt.status_code)
        if attempt.status_code == 429:
            assert attempt.header("Content-Type") == "application/json"
            break
    assert statuses[-1] == 429
    assert statuses[:-1] == [400] * (len(statuses) - 1)
    assert len(statuses) <= 5
    locked = Session(base_url).sign_in(username, password)
    assert locked.status_code == 429
    assert int(locked.header("Retry-After")) >= 15 * 60
    assert "Too many attempts" in locked.text


def test_healthz_answers_a_monitor_by_any_host_name(anonymous: Session) -> None:
    """Under gunicorn, at the prefix: 200 and JSON, even for a host name outside
    ALLOWED_HOSTS (a load balancer asking by address), which every page refuses (with a
    logged traceback: tests/scorekeeper/test_health.py asks that). The worker started
    beside gunicorn has reported in within a few seconds of its start."""
    deadline = time.monotonic() + 30
    response = anonymous.get("/healthz", headers={"Host": "10.9.8.7"})
    while response.status_code == 503 and time.monotonic() < deadline:
        time.sleep(0.5)
        response = anonymous.get("/healthz", headers={"Host": "10.9.8.7"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "ok"
    assert set(body["checks"]) == {"database", "migrations", "worker", "tasks"}
