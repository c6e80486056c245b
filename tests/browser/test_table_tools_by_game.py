"""Each game's own table tools on a 390 px phone (issue 27): Dirty UNO's direction of
play (a Reverse reverses it, a 0 passes hands that way) flipped by a tap and still
flipped after a reload; D$%n You!'s "who holds the 7♦?" naming who plays first; Dirt's
first player worked out from the dealer. Nothing is wider than the phone."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.services.games import game_create
from tests.browser.sheet_ui import open_tools, watch
from tests.browser.test_table_tools import players

pytestmark = pytest.mark.browser


def _fits(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width


def test_each_games_own_tools_on_a_phone(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    page.set_viewport_size({"width": 390, "height": 844})
    problems = watch(page)
    owner = User.objects.get(username="ana")

    uno = game_create(owner=owner, ruleset="dirty-uno", players=players("Bo", "Cy"))
    page.goto(f"{live_server.url}/games/{uno.pk}/")
    open_tools(page)
    tools = page.locator("#table-tools")
    expect(tools).to_be_visible()
    expect(tools.locator("[data-direction]")).to_have_text("clockwise ↻")
    expect(tools).to_contain_text("A 0 passes every hand to the next player this way.")
    # (The reload waits for the server to have it: the tap shows at once, and is sent.)
    with page.expect_response(lambda r: "/table/" in r.url and r.request.method == "POST"):
        tools.get_by_role("button", name="Reverse direction (a Reverse played)").click()
    expect(tools.locator("[data-direction]")).to_have_text("counter-clockwise ↺")
    _fits(page)
    page.reload()
    expect(page.locator("#table-tools [data-direction]")).to_have_text("counter-clockwise ↺")

    damn = game_create(owner=owner, ruleset="damn-you", players=players("Bo", "Cy"))
    page.goto(f"{live_server.url}/games/{damn.pk}/")
    tools = page.locator("#table-tools")
    expect(tools.locator("[data-leader-name]")).to_have_text("whoever holds the 7♦")
    tools.get_by_label("Who holds the 7♦? They lay it in the centre and play first.").select_option(
        label="Cy"
    )
    expect(tools.locator("[data-leader-name]")).to_have_text("Cy")
    expect(tools.get_by_role("button", name="Reverse direction")).to_have_count(0)
    _fits(page)

    dirt = game_create(owner=owner, ruleset="dirt", players=players("Bo", "Cy"))
    page.goto(f"{live_server.url}/games/{dirt.pk}/")
    tools = page.locator("#table-tools")
    expect(tools.locator("[data-first-player]")).to_have_text("Bo")
    expect(tools).to_contain_text("An ace turned up: Cy (on the dealer's right) plays first")
    _fits(page)
    assert problems == []
