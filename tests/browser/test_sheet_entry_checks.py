"""Mistakes caught kindly, on a 360 px phone: two bad values are both shown, each beside
its player; a hand far above the table's usual asks before it is saved, and is saved
once when the table says so."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from scorekeeper.models import Hand
from tests.browser.sheet_ui import (
    cells,
    counted,
    no_sideways_scroll,
    pad,
    save,
    shoot,
    start_game,
    watch,
    went_out,
)


def test_problems_beside_their_players_and_an_unlikely_hand_asks(
    signed_in_page: Any, live_server: Any
) -> None:
    page = signed_in_page()
    problems = watch(page)
    page.set_viewport_size({"width": 360, "height": 740})
    url = start_game(page, live_server, "dirt", ["Ana", "Bo", "Cy", "Di"])
    game_id = int(re.findall(r"/games/(\d+)/", url)[-1])
    # Started: the notice says so, inside the sheet.
    expect(page.locator("#sheet-notice")).to_contain_text("Game started")

    # Hand 1: two bad values (negative totals for Bo and Cy) are both refused at once.
    went_out(page, "Ana")
    counted(page, "Bo", -4)
    counted(page, "Cy", -7)
    counted(page, "Di", 12)
    page.locator("#entry .entry-save").first.click()
    summary = page.locator(".entry-errors")
    expect(summary).to_contain_text("Not saved: 2 things to fix.")
    bo = pad(page, "Bo").locator(".pad-problems")
    cy = pad(page, "Cy").locator(".pad-problems")
    expect(bo).to_have_text("Bo: the points cannot be negative")
    expect(cy).to_have_text("Cy: the points cannot be negative")
    # Both visible at once, even with the pads folded; nothing beside Di.
    expect(bo).to_be_visible()
    expect(cy).to_be_visible()
    assert pad(page, "Di").locator(".pad-problems").count() == 0
    expect(pad(page, "Bo").locator(".points-input")).to_have_attribute("aria-invalid", "true")
    expect(pad(page, "Bo").locator(".points-input")).to_have_attribute(
        "aria-describedby", bo.get_attribute("id") or "?"
    )
    # The entry is kept.
    expect(pad(page, "Di").locator(".points-input")).to_have_value("12")
    expect(page.locator("#sheet-notice")).not_to_contain_text("Game started")
    no_sideways_scroll(page)
    shoot(page, "entry-checks-two-problems")

    # The summary's link opens the player's pad at the field.
    summary.get_by_role("link", name=re.compile("^Cy:")).click()
    expect(pad(page, "Cy")).to_have_attribute("open", "")
    counted(page, "Bo", 40)
    counted(page, "Cy", 38)
    save(page, 1)
    assert cells(page, 1) == ["0", "40", "38", "12"]

    # Hand 2: 9,999 for Bo is far above the table's usual: asked, not saved.
    went_out(page, "Ana")
    counted(page, "Bo", 9999)
    counted(page, "Cy", 30)
    counted(page, "Di", 42)
    page.locator("#entry .entry-save").first.click()
    question = page.locator(".entry-confirm")
    expect(question).to_contain_text("Bo's 9,999 is far above this table's usual (≈38).")
    expect(question).to_contain_text("Save anyway?")
    assert Hand.objects.filter(game_id=game_id).count() == 1
    expect(pad(page, "Bo").locator(".points-input")).to_have_value("9999")
    no_sideways_scroll(page)
    shoot(page, "entry-checks-question")
    question.get_by_role("button", name="Save anyway").click()
    expect(page.locator(".hand-row[data-hand='2']")).to_be_visible()
    assert cells(page, 2) == ["0", "9999", "30", "42"]
    assert Hand.objects.filter(game_id=game_id).count() == 2
    assert Hand.objects.filter(game_id=game_id, number=2).count() == 1
    expect(page.locator(".entry-confirm")).to_have_count(0)
    assert problems == []


def test_fix_it_takes_the_question_back(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    problems = watch(page)
    url = start_game(page, live_server, "dirt", ["Ana", "Bo", "Cy"])
    game_id = int(re.findall(r"/games/(\d+)/", url)[-1])
    went_out(page, "Ana")
    counted(page, "Bo", 999)
    counted(page, "Cy", 3)
    page.locator("#entry .entry-save").first.click()
    question = page.locator(".entry-confirm")
    expect(question).to_contain_text("Bo's 999 is more than a hand usually holds")
    question.get_by_role("link", name="Fix it").click()
    expect(page.locator(".entry-confirm")).to_have_count(0)
    expect(pad(page, "Bo").locator(".points-input")).to_be_focused()
    pad(page, "Bo").locator(".points-input").fill("99")
    save(page, 1)
    assert Hand.objects.filter(game_id=game_id).count() == 1
    assert cells(page, 1) == ["0", "99", "3"]
    assert problems == []
