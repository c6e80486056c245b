"""A hand saved offline on the app as it is deployed: against the production smoke
(nginx in front, DEBUG off, collectstatic'd modules under hashed names, the service
worker), a phone keeps the sheet, saves a hand with no connection, reloads, and the
hand is recorded once when the connection returns. Run locally, the same from the test
server."""

from __future__ import annotations

import os
import secrets
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import Player
from tests.browser.sheet_ui import watch
from tests.browser.test_sheet_offline import offline_problems, open_kept

pytestmark = [pytest.mark.browser, pytest.mark.production]


@pytest.mark.django_db(transaction=True)
def test_a_hand_saved_offline_reaches_the_deployed_app_once(page: Any, site_url: str) -> None:
    if not os.environ.get("SCOREKEEPER_BASE_URL"):  # the production smoke's demo account
        owner = User.objects.create_user("demo", password="demo")
        Player.objects.create(name="Demo", user=owner, created_by=owner)
    page.set_default_timeout(30_000)
    problems = watch(page)
    page.goto(f"{site_url}/accounts/login/")
    page.fill("#id_username", "demo")
    page.fill("#id_password", "demo")
    page.click("button[type=submit]")
    page.wait_for_url(f"{site_url}/")

    token = page.request.post(
        f"{site_url}/api/v1/auth/token/", data={"username": "demo", "password": "demo"}
    ).json()["token"]
    auth = {"Authorization": f"Token {token}"}
    suffix = secrets.token_hex(3)
    names = [f"Off{i} {suffix}" for i in range(3)]
    seats = [
        page.request.post(f"{site_url}/api/v1/players/", data={"name": n}, headers=auth).json()[
            "id"
        ]
        for n in names
    ]
    game = page.request.post(
        f"{site_url}/api/v1/games/",
        data={"ruleset": "screw-your-neighbour", "players": seats},
        headers=auth,
    ).json()["id"]

    open_kept(page, f"{site_url}/games/{game}/")
    page.context.set_offline(True)
    page.locator("#entry .winner-button").filter(has_text=names[1]).click()
    outbox = page.locator("#sheet-outbox")
    expect(outbox).to_contain_text("1 hand waiting to send")
    page.reload()  # from the phone's own copy
    expect(outbox).to_contain_text("1 hand waiting to send")

    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator(".hand-row[data-hand='1']")).to_be_visible()
    hands = page.request.get(f"{site_url}/api/v1/games/{game}/hands/", headers=auth).json()
    rows = hands["results"] if isinstance(hands, dict) else hands
    assert [h["input"]["winner"] for h in rows] == [seats[1]]
    assert offline_problems(problems) == []
