"""A full game of Screw Your Neighbour kept from a phone: one tap per hand, a correction of
an earlier hand, an undo, and the first to three hand wins taking the game."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.sheet_ui import (
    cells,
    footer,
    no_sideways_scroll,
    ranking,
    running,
    shoot,
    start_game,
    watch,
)
from tests.browser.waits import wait_until


def won(page: Any, name: str, number: int) -> None:
    page.locator("#entry .winner-button").filter(has_text=re.compile(rf"^\s*{name}\b")).click()
    expect(page.locator(f".hand-row[data-hand='{number}']")).to_be_visible()


def test_a_game_to_three_hand_wins(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    problems = watch(page)
    page.on("dialog", lambda dialog: dialog.accept())
    start_game(page, live_server, "screw-your-neighbour", ["Ana", "Bo", "Cy", "Di", "Eve"])
    no_sideways_scroll(page)
    expect(page.locator("#sheet-banner")).to_contain_text("first to 3 wins")
    # The screen stays on while the sheet is open (Chromium has the Wake Lock API).
    wait_until(page, "document.documentElement.dataset.wakeLock === 'on'")

    won(page, "Cy", 1)
    won(page, "Di", 2)
    assert cells(page, 2) == ["", "", "", "✓", ""]
    won(page, "Cy", 3)
    shoot(page, "syn-mid-game")

    # Hand 2 was really Bo's: correct it from the grid.
    page.click(".hand-row[data-hand='2'] .hand-col a")
    expect(page.locator("#entry-heading")).to_contain_text("Correct hand 2")
    page.locator("#entry .winner-button").filter(has_text=re.compile(r"^\s*Bo\b")).click()
    expect(page.locator("#sheet-notice .flash")).to_contain_text("Hand 2")
    assert cells(page, 2) == ["", "✓", "", "", ""]
    assert running(page, 3) == ["0", "1", "2", "0", "0"]

    # A mistaken tap on hand 4, undone.
    won(page, "Eve", 4)
    page.click("button:has-text('Undo hand 4')")
    expect(page.locator(".hand-row[data-hand='4']")).to_have_count(0)
    expect(page.locator("#entry-heading")).to_contain_text("Enter hand 4")

    won(page, "Ana", 4)
    won(page, "Cy", 5)
    assert footer(page) == ["1", "1", "3", "0", "0"]
    expect(page.locator(".result-winners")).to_contain_text("Cy wins")
    assert ranking(page)[:3] == ["1st Cy 3", "2nd Ana 1", "2nd Bo 1"]
    expect(page.locator("svg.chart-svg")).to_be_visible()
    no_sideways_scroll(page)
    shoot(page, "syn-finished")
    assert not problems, problems
