"""Browser tests: pip's Playwright driving Debian's Chromium at phone size against
pytest-django's live server. Playwright cannot download its own browsers here, so the
tests use the system ``chromium``; without it they skip, unless
``SCOREKEEPER_REQUIRE_BROWSER=1`` (CI) makes a missing browser a failure."""

from __future__ import annotations

import copy
import os
import shutil
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.closing import close_context, quiet_page
from tests.scorekeeper.events_server import events_server

# Playwright's sync API runs an event loop in this thread; the ORM calls in fixtures are
# still synchronous, so Django must not refuse them.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE = {"width": 390, "height": 844}


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    path = chromium_path()
    if path is None:
        if os.environ.get("SCOREKEEPER_REQUIRE_BROWSER") == "1":
            pytest.fail("chromium is not installed (apt-get install chromium)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        yield instance
        instance.close()


@pytest.fixture
def context(browser: object) -> Iterator[object]:
    ctx = browser.new_context(  # type: ignore[attr-defined]
        viewport=PHONE,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        service_workers="allow",
    )
    ctx.set_default_timeout(10_000)
    yield ctx
    close_context(ctx)


@pytest.fixture
def site_url(request: pytest.FixtureRequest) -> str:
    """Where the app under test answers: ``SCOREKEEPER_BASE_URL`` when set (the
    production smoke's gunicorn, for the tests marked ``production``), else
    pytest-django's live server."""
    external = os.environ.get("SCOREKEEPER_BASE_URL", "").rstrip("/")
    if external:
        return external
    return str(request.getfixturevalue("live_server").url)


@pytest.fixture
def page(context: object) -> Iterator[object]:
    pg = context.new_page()  # type: ignore[attr-defined]
    yield pg
    quiet_page(pg)


@pytest.fixture
def signed_in_page(
    page: object, live_server: object, transactional_db: None
) -> Callable[[str, str], object]:
    """Sign a user in through the real login form; returns the page."""

    def sign_in(username: str = "ana", password: str = "table-talk-42") -> object:
        if not User.objects.filter(username=username).exists():
            user = User.objects.create_user(username, password=password)
            from scorekeeper.services.players import player_create

            player_create(name=username.capitalize(), created_by=user, user=user)
        page.goto(f"{live_server.url}/accounts/login/")  # type: ignore[attr-defined]
        page.fill("#id_username", username)  # type: ignore[attr-defined]
        page.fill("#id_password", password)  # type: ignore[attr-defined]
        page.click("button[type=submit]")  # type: ignore[attr-defined]
        page.wait_for_url(f"{live_server.url}/")  # type: ignore[attr-defined]
        return page

    return sign_in


@pytest.fixture
def events(settings: Any) -> Iterator[str]:
    """An events server of the test's own (tests/scorekeeper/events_server.py), which the
    sheets' pages are told of and their content security policy lets them reach."""
    with events_server() as (base, _app):
        settings.LIVE_EVENTS_URL = f"{base}/events/"
        policy = copy.deepcopy(settings.CONTENT_SECURITY_POLICY)
        policy["DIRECTIVES"]["connect-src"] = [*policy["DIRECTIVES"]["connect-src"], base]
        settings.CONTENT_SECURITY_POLICY = policy
        yield base
