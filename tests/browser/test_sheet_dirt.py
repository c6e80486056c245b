"""A full game of Dirt kept from a phone: tally pads, the counted-total keypad, a refused
save that keeps the entry, and the spec's worked examples on the sheet."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.sheet_ui import (
    cells,
    counted,
    footer,
    no_sideways_scroll,
    pad_shows,
    ranking,
    save,
    shoot,
    start_game,
    tap,
    watch,
    went_out,
)


def test_a_game_of_baby_dirt(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    problems = watch(page)
    start_game(page, live_server, "dirt", ["Ana", "Bo", "Cy", "Di"])
    no_sideways_scroll(page)
    expect(page.locator("#sheet-banner")).to_contain_text("Hand 1 of 6")
    expect(page.locator("#sheet-banner .fact.big")).to_contain_text("6")

    # Hand 1 (dirt 6). Saving without saying who went out is refused; nothing is lost.
    tap(page, "Ana", "6", "A")
    pad_shows(page, "Ana", "40 pts")
    tap(page, "Cy", "K")
    counted(page, "Di", 12)
    page.locator("#entry .entry-save").click()
    expect(page.locator(".entry-errors")).to_contain_text("Say who went out")
    pad_shows(page, "Ana", "40 pts")
    assert page.locator(".hand-row").count() == 0
    went_out(page, "Bo")
    save(page, 1)
    assert cells(page, 1) == ["40", "0", "1", "12"]

    # Hand 2 (dirt 4): the spec's worked example, suits picked for Bo's fours.
    expect(page.locator("#entry .dirt-rank")).to_have_text("4")
    expect(page.locator(".pad[data-name='Bo'] .pad-key.dirt")).to_have_attribute("data-key", "4")
    went_out(page, "Ana")
    tap(page, "Bo", "JK", "H:4", "S:4", "K")
    pad_shows(page, "Bo", "101 pts")
    tap(page, "Cy", "A", "7", "10", "3")
    pad_shows(page, "Cy", "26 pts")
    tap(page, "Di", "9", "2", "J")
    pad_shows(page, "Di", "12 pts")
    shoot(page, "dirt-hand-2-entry")
    save(page, 2)
    assert cells(page, 2) == ["0", "101", "26", "12"]

    # Hands 3 to 5.
    went_out(page, "Cy")
    tap(page, "Ana", "2")
    tap(page, "Bo", "3", "Q")
    tap(page, "Di", "JK")
    save(page, 3)
    assert cells(page, 3) == ["25", "4", "0", "50"]
    went_out(page, "Di")
    tap(page, "Ana", "3", "3")
    tap(page, "Bo", "5")
    tap(page, "Cy", "8", "9")
    save(page, 4)
    assert cells(page, 4) == ["50", "5", "17", "0"]
    went_out(page, "Ana")
    tap(page, "Bo", "5", "K")
    tap(page, "Cy", "7")
    tap(page, "Di", "10")
    save(page, 5)
    assert cells(page, 5) == ["0", "26", "7", "1"]

    # Hand 6 (dirt 7): sevens score 25, so Bo's 7 7 6 is 56.
    expect(page.locator("#entry .dirt-rank")).to_have_text("7")
    went_out(page, "Cy")
    tap(page, "Bo", "7", "7", "6")
    pad_shows(page, "Bo", "56 pts")
    tap(page, "Ana", "A")
    tap(page, "Di", "2", "2")
    save(page, 6)
    assert cells(page, 6) == ["15", "56", "0", "4"]

    assert footer(page) == ["130", "192", "51", "79"]
    expect(page.locator(".result-winners")).to_contain_text("Cy wins")
    assert ranking(page) == ["1st Cy 51", "2nd Di 79", "3rd Ana 130", "4th Bo 192"]
    expect(page.locator("svg.chart-svg polyline")).to_have_count(4)
    expect(page.locator("#entry-heading")).to_have_count(0)
    no_sideways_scroll(page)
    shoot(page, "dirt-finished")
    assert not problems, problems


def test_partner_dirt_with_tens_at_face_value(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    problems = watch(page)
    start_game(
        page, live_server, "dirt", ["Ana", "Bo", "Cy", "Di"],
        variant="tiny-baby-down", options={"ten_points": "10"}, teams=[1, 2, 1, 2],
    )  # fmt: skip
    heads = [
        str(t).strip() for t in page.locator(".score-grid thead th .col-name").all_inner_texts()
    ]
    assert heads == ["Ana & Cy", "Bo & Di"]

    went_out(page, "Bo")
    for name in ("Ana", "Cy", "Di"):
        tap(page, name, "K")
    save(page, 1)
    assert cells(page, 1) == ["2", "0"]

    # The spec's Partner Dirt example: Ana went out, so Cy's cards do not count.
    went_out(page, "Ana")
    tap(page, "Bo", "JK", "4", "4", "K")
    tap(page, "Cy", "A", "7", "10", "3")
    pad_shows(page, "Cy", "35 pts")  # ten_points = 10
    tap(page, "Di", "9", "2", "J")
    save(page, 2)
    assert cells(page, 2) == ["0", "113"]

    went_out(page, "Cy")
    tap(page, "Ana", "2")
    tap(page, "Bo", "2")
    tap(page, "Di", "3")
    save(page, 3)
    assert cells(page, 3) == ["0", "28"]
    assert footer(page) == ["2", "141"]
    expect(page.locator(".result-winners")).to_contain_text("Ana & Cy win")
    assert not problems, problems
