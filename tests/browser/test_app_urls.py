"""The addresses the scripts work with come from the page (or the service worker's own
rendering), so they hold at the host's root and under a path prefix alike."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.test.utils import override_script_prefix
from playwright.sync_api import expect

from scorekeeper.models import Player
from scorekeeper.services.games import game_create
from tests.browser.sheet_ui import tap, went_out

PATHS = ["/games/12/", "/games/12/live/", "/games/new/", "/rules/", "/scores/games/12/"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("prefix", "sheets"),
    [("/", ["/games/12/"]), ("/scores/", ["/scores/games/12/"])],
)
def test_the_sheets_the_service_worker_keeps(page: Any, prefix: str, sheets: list[str]) -> None:
    """Its idea of a score sheet (the pages it keeps for offline use), worked out by the
    browser's own regular expressions."""
    with override_script_prefix(prefix):
        body = Client().get("/sw.js").content.decode()
    sheet_path = re.search(r"var SHEET_PATH = .*?;\n", body, flags=re.S)
    assert sheet_path is not None
    found = page.evaluate(
        f"(paths) => {{ {sheet_path.group(0)} return paths.filter(p => SHEET_PATH.test(p)); }}",
        PATHS,
    )
    assert found == sheets


def test_a_hand_sent_after_signing_out_waits_for_a_new_sign_in(
    signed_in_page: Any, live_server: Any
) -> None:
    """The sheet knows the sign-in page from the page (data-login-url): a hand answered
    by a redirect there stays on the phone, and the player is asked to sign in."""
    page = signed_in_page()
    ana = Player.objects.get(user__username="ana")
    bo, cy = (Player.objects.create(name=n, created_by=ana.user) for n in ("Bo", "Cy"))
    game = game_create(owner=ana.user, ruleset="dirt", players=[ana.pk, bo.pk, cy.pk])
    page.goto(f"{live_server.url}/games/{game.pk}/")
    went_out(page, "Ana")
    tap(page, "Bo", "A")
    tap(page, "Cy", "4")
    page.context.clear_cookies(name="sessionid")
    page.locator("#entry .entry-save").first.click()
    outbox = page.locator("#sheet-outbox")
    expect(outbox).to_contain_text("Sign in again")
    expect(outbox).to_contain_text("1 hand waiting to send")
    assert game.hands.count() == 0
