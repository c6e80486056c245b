"""Undo puts the hand back into the pads (Dirt, on a 390×844 phone): the wrong card is
fixed with one tap and the hand saved again, not tapped in from the start."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.sheet_ui import (
    cells,
    footer,
    no_sideways_scroll,
    open_pad,
    pad,
    pad_points,
    pad_shows,
    save,
    start_game,
    tap,
    watch,
    went_out,
)


def test_undo_brings_the_hand_back_to_fix_one_card(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    problems = watch(page)
    page.on("dialog", lambda dialog: dialog.accept())
    start_game(page, live_server, "dirt", ["Ana", "Bo", "Cy", "Di"])
    assert page.viewport_size == {"width": 390, "height": 844}

    went_out(page, "Bo")
    tap(page, "Ana", "6", "A")
    tap(page, "Cy", "K")
    tap(page, "Di", "Q", "J")
    shown = {name: pad_points(page, name) for name in ("Ana", "Cy", "Di")}
    save(page, 1)
    saved = cells(page, 1)
    assert saved[0] == "40"

    # Di's queen was a nine: undo, and the hand is back in the pads as it was saved.
    page.click("button:has-text('Undo hand 1')")
    expect(page.locator(".hand-row[data-hand='1']")).to_have_count(0)
    expect(page.locator("#entry-heading")).to_contain_text("Enter hand 1")
    expect(page.locator("#sheet-notice")).to_contain_text("back below to fix")
    for name, points in shown.items():
        pad_shows(page, name, points)
    expect(page.locator("#entry .winner-pick input:checked")).to_have_count(1)

    # One card changed: the queen off, a nine on; the others are saved as they were.
    open_pad(page, "Di")
    pad(page, "Di").locator(".pad-chips .chip").filter(has_text="Q").first.click()
    tap(page, "Di", "9")
    fixed = pad_points(page, "Di")
    assert fixed != shown["Di"]
    save(page, 1)
    assert cells(page, 1) == [saved[0], saved[1], saved[2], fixed.split()[0]]
    assert footer(page) == cells(page, 1)
    no_sideways_scroll(page)
    assert not problems, problems
