"""The sheet's first screen is the hand (issue 29): at 360×740 the hand's banner and its
first question show on load, for the owner and for a guest who joined by a link; the
table tools wait folded one tap away, and the phone keeps them as it last left them."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.services.games import game_create
from scorekeeper.services.invites import invite_create
from tests.browser.sheet_ui import watch
from tests.browser.test_table_tools import players

pytestmark = pytest.mark.browser
SCREENSHOTS = os.environ.get("SCOREKEEPER_SCREENSHOTS")

#: The first thing the entry asks, by game.
FIRST_QUESTION = {
    "dirt": ("#entry .winner-pick", "Who went out?"),
    "screw-your-neighbour": ("#entry .winner-buttons", "Who won hand 1?"),
    "dirty-deals": ("#entry .winner-pick", "Who claimed the hand?"),
}


def on_screen(page: Any, selector: str) -> None:
    """Wholly on the screen, above the save bar where one is shown."""
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    bottom = page.viewport_size["height"]
    bar = page.locator("#entry .savebar")
    if bar.count() and bar.is_visible():
        bar_box = bar.bounding_box()
        if bar_box is not None and bar_box["y"] < bottom:
            bottom = bar_box["y"]
    assert box["y"] >= 0, (selector, box)
    assert box["y"] + box["height"] <= bottom + 0.5, (selector, box, bottom)


def first_screen(page: Any, ruleset: str) -> None:
    selector, question = FIRST_QUESTION[ruleset]
    expect(page.locator(f"{selector} legend")).to_contain_text(question)
    expect(page.locator("details.tools-fold")).to_be_visible()
    on_screen(page, "#sheet-banner .banner")
    on_screen(page, selector)
    # The tools' state holder is in the page whatever the fold shows.
    assert page.locator("#table-tools-state").count() == 1


@pytest.mark.parametrize("ruleset", sorted(FIRST_QUESTION))
def test_the_hand_is_the_first_screen_and_the_tools_one_tap_away(
    signed_in_page: Any, live_server: Any, ruleset: str
) -> None:
    page = signed_in_page()
    page.set_viewport_size({"width": 360, "height": 740})
    problems = watch(page)
    owner = User.objects.get(username="ana")
    game = game_create(owner=owner, ruleset=ruleset, players=players("Bo", "Cy", "Di"))
    page.goto(f"{live_server.url}/games/{game.pk}/")
    first_screen(page, ruleset)
    fold = page.locator("details.tools-fold")
    expect(fold).not_to_have_attribute("open", "")
    expect(page.locator("#table-tools")).not_to_be_visible()
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / f"first-screen-{ruleset}.png"))

    # One tap opens the tools; this phone keeps them open, then closed, across reloads.
    fold.locator("summary").click()
    expect(page.locator("#table-tools")).to_be_visible()
    expect(page.locator("#table-tools .tool").first).to_be_visible()
    page.reload()
    expect(page.locator("details.tools-fold")).to_have_attribute("open", "")
    expect(page.locator("#table-tools")).to_be_visible()
    page.locator("details.tools-fold summary").click()
    expect(page.locator("#table-tools")).not_to_be_visible()
    page.reload()
    expect(page.locator("details.tools-fold")).to_be_visible()
    expect(page.locator("details.tools-fold")).not_to_have_attribute("open", "")
    first_screen(page, ruleset)
    assert problems == []


def test_a_guests_welcome_fits_the_first_screen(
    browser: Any, live_server: Any, transactional_db: None
) -> None:
    owner = User.objects.create_user("ana", password="table-talk-42")
    from scorekeeper.models import Player

    Player.objects.create(name="Ana", user=owner, created_by=owner)
    game = game_create(owner=owner, ruleset="dirt", players=players("Bo", "Cy", "Di"))
    invite = invite_create(game=game, user=owner, role="score")
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True,
        has_touch=True,
    )  # fmt: skip
    try:
        page = context.new_page()
        problems = watch(page)
        page.goto(f"{live_server.url}/join/{invite.token}/")
        page.fill("#guest-name", "Maya")
        page.get_by_role("button", name="Keep score").click()
        page.wait_for_url(re.compile(rf"/games/{game.pk}/$"))
        expect(page.locator(".guest-note")).to_contain_text("You keep score as Maya (guest)")
        if SCREENSHOTS:
            page.screenshot(path=str(Path(SCREENSHOTS) / "first-screen-guest.png"))
        on_screen(page, ".guest-note")
        first_screen(page, "dirt")
        assert problems == []
    finally:
        context.close()
