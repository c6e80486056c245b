"""Offline, a page the phone stored before (the offline page the service worker shows
for a sheet never opened here) says who is signed in now, not who was when it was
stored; after signing out it never names anyone."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import Player
from scorekeeper.services.games import game_create
from tests.browser.waits import wait_until


def snap(page: Any, name: str) -> None:
    folder = os.environ.get("SCOREKEEPER_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


@pytest.mark.django_db(transaction=True)
def test_the_offline_page_knows_who_is_signed_in(page: Any, context: Any, live_server: Any) -> None:
    user = User.objects.create_user("ana", password="table-talk-42")
    ana = Player.objects.create(name="Ana", user=user, created_by=user)
    bo, cy = (Player.objects.create(name=n, created_by=user) for n in ("Bo", "Cy"))
    game = game_create(owner=user, ruleset="dirt", players=[ana.pk, bo.pk, cy.pk])
    page.set_viewport_size({"width": 360, "height": 740})
    # Stored while signed out: the service worker keeps the offline page as it was then.
    page.goto(f"{live_server.url}/rules/")
    wait_until(
        page,
        "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
        timeout=20_000,
    )
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "ana")
    page.fill("#id_password", "table-talk-42")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    nav = page.locator(".topnav")
    sheet = f"{live_server.url}/games/{game.pk}/"

    context.set_offline(True)
    try:
        page.goto(sheet)  # never opened on this phone: the offline page
        expect(page.locator("h1")).to_have_text("You are offline")
        expect(nav.locator("[data-who]")).to_have_text("Signed in as ana")
        expect(nav.get_by_role("link", name="Sign in")).to_be_hidden()
        snap(page, "offline-who-signed-in")
    finally:
        context.set_offline(False)

    # Signed out: the same stored page names nobody, and offers to sign in.
    page.goto(f"{live_server.url}/")
    page.locator("form[data-sign-out] button").click()
    page.wait_for_load_state()
    expect(nav.get_by_role("link", name="Sign in")).to_be_visible()
    context.set_offline(True)
    try:
        page.goto(sheet)
        expect(page.locator("h1")).to_have_text("You are offline")
        expect(nav.get_by_role("link", name="Sign in")).to_be_visible()
        expect(nav.locator("[data-who]")).to_be_hidden()
        expect(nav).not_to_contain_text("ana")
        page.goto(f"{live_server.url}/rules/")  # stored while signed out too: unchanged
        expect(nav).not_to_contain_text("Signed in")
    finally:
        context.set_offline(False)
