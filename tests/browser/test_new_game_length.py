"""Starting a D$%n You! game on the phone with a game length: the form names the three
lengths, and the sheet counts the hands the chosen length lasts."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.sheet_ui import no_sideways_scroll, shoot, watch


def test_damn_you_over_two_rounds(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    problems = watch(page)
    page.goto(f"{live_server.url}/games/new/?ruleset=damn-you")
    page.wait_for_selector("#new-game-form")
    lengths = page.locator("#option-game_length option").all_inner_texts()
    assert lengths == [
        "One deal by each player (default)",
        "A number of rounds",
        "Until one player has all chips",
    ]
    for index, name in enumerate(["Bo", "Cy"], start=1):
        page.fill(f"input[name='seat-{index}-name']", name)
    page.select_option("#option-game_length", "rounds")
    page.fill("#option-rounds", "2")
    no_sideways_scroll(page)
    page.locator("#option-game_length").scroll_into_view_if_needed()
    shoot(page, "new-game-length-light")
    page.emulate_media(color_scheme="dark")
    shoot(page, "new-game-length-dark")
    page.emulate_media(color_scheme="light")
    page.click("button.start-game")
    page.wait_for_url(f"{live_server.url}/games/*/")
    # Three players, two rounds: six hands.
    expect(page.locator("#sheet-banner .banner-hand")).to_have_text("Hand 1 of 6")
    assert not problems, problems
