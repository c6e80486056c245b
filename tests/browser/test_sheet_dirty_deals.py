"""A full match of Dirty Deals kept from a phone: claims with surplus cards and bowers,
the points shown before saving, a tie at the top played on, and rubbers to the match."""

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
    save,
    shoot,
    start_game,
    watch,
    went_out,
)

SUITS = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}


def claim(
    page: Any, claimant: str, suit: str, surplus: list[str], bower_holder: str | None = None
) -> None:
    went_out(page, claimant)
    page.locator("#entry .suit-radio").filter(has_text=SUITS[suit]).click()
    for code in surplus:
        page.locator(f"#entry .card-check[data-code='{code}']").click()
    if bower_holder:
        went_out(page, bower_holder, group=".bower-pick")


def preview_shows(page: Any, name: str, points: str) -> None:
    """The engine's points for ``name`` in the preview (retried: it follows each tick)."""
    row = page.locator("#preview tbody tr").filter(has=page.locator(f"td:text-is('{name}')"))
    expect(row.locator("td").nth(1)).to_have_text(points)


def test_a_match_of_dirty_deals(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    problems = watch(page)
    start_game(page, live_server, "dirty-deals", ["Ana", "Bo", "Cy", "Di"])
    no_sideways_scroll(page)

    # Rubber 1. Hearts with JD 9C QS: the bower costs 3, the others 1 each: 4.
    claim(page, "Ana", "H", ["JD", "9C", "QS"])
    expect(page.locator("#entry .card-check[data-code='JD']")).to_have_class(
        re.compile(r"\bis-bower\b")
    )
    expect(page.locator("#entry .surplus-suit[data-suit='H']")).to_be_hidden()
    expect(page.locator("#preview")).to_contain_text("If saved, hand 1 scores")
    preview_shows(page, "Ana", "4")
    shoot(page, "deals-hand-1-entry")
    save(page, 1)
    assert cells(page, 1) == ["4", "·", "·", "·"]

    # Spades with 10H; Cy holds the bower JC: 8 and 3.
    claim(page, "Bo", "S", ["10H"], bower_holder="Cy")
    save(page, 2)
    assert cells(page, 2) == ["·", "8", "3", "·"]

    # Clubs with the bower JS and seven more: never below 0.
    claim(page, "Cy", "C", ["JS", "9H", "10H", "QH", "KH", "AH", "9D", "10D"])
    # With the bower among the surplus nobody else can hold it.
    expect(page.locator("#entry .bower-pick input[value='']")).to_be_checked()
    save(page, 3)
    assert cells(page, 3) == ["·", "·", "0", "·"]

    # A clean claim leaves the bower JD with another player: "Nobody else" is refused,
    # with the reason beside the question, and nothing is saved.
    claim(page, "Bo", "H", [])
    page.locator("#entry .entry-save").first.click()
    expect(page.locator("#entry #problems-bower_holder")).to_contain_text(
        "not in the claimant's surplus, so another player holds it: say who"
    )
    expect(page.locator(".hand-row[data-hand='4']")).to_have_count(0)
    shoot(page, "deals-bower-nowhere")
    went_out(page, "Di", group=".bower-pick")
    save(page, 4)
    assert running(page, 4) == ["4", "17", "3", "3"]
    expect(page.locator(".score-grid tr.divider").first).to_contain_text("Rubber 1 to Bo")
    assert footer(page, "rubbers") == ["0", "1", "0", "0"]
    assert footer(page) == ["0", "0", "0", "0"]

    # Rubber 2: the spec's tie. Ana 7, Bo 6; Ana claims for 2 and Bo holds the bower.
    # Every bower not in the surplus is with someone: Cy, then Di, gets the 3.
    claim(page, "Ana", "H", ["9C", "QS"], bower_holder="Cy")
    save(page, 5)
    claim(page, "Bo", "S", ["10H", "9H", "9D"], bower_holder="Di")
    save(page, 6)
    assert footer(page) == ["7", "6", "3", "3"]
    claim(page, "Ana", "C", ["9H", "10H", "QH", "KH", "AH", "9D", "10D"], bower_holder="Bo")
    save(page, 7)
    assert cells(page, 7) == ["2", "3", "·", "·"]
    assert footer(page) == ["9", "9", "3", "3"]  # tied at the top: play on
    expect(page.locator("#sheet-banner")).to_contain_text("Rubber")
    claim(page, "Ana", "D", ["9S", "QS", "KS", "AS", "9C", "10C"], bower_holder="Cy")
    save(page, 8)
    assert running(page, 8)[0] == "12"
    expect(page.locator(".score-grid tr.divider").nth(1)).to_contain_text("Rubber 2 to Ana")

    # Rubber 3: a clean claim of 9 wins it, and with it the match.
    claim(page, "Ana", "H", [], bower_holder="Bo")
    save(page, 9)
    assert footer(page, "rubbers") == ["2", "1", "0", "0"]
    expect(page.locator(".result-winners")).to_contain_text("Ana wins")
    assert ranking(page)[:2] == ["1st Ana 2 rubbers", "2nd Bo 1 rubber"]
    no_sideways_scroll(page)
    shoot(page, "deals-finished")
    assert not problems, problems
