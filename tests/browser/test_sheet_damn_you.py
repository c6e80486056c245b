"""A full game of D$%n You! kept from a phone: passes tapped during the hand (kept over a
reload), the live pot, the settlement, the widow rule, and chips that always add up."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.sheet_ui import (
    footer,
    no_sideways_scroll,
    ranking,
    shoot,
    start_game,
    watch,
    went_out,
)


def passes(page: Any, name: str, times: int) -> None:
    button = page.locator(f"#entry .pass-tap[data-name='{name}']")
    for _ in range(times):
        button.click()


def cards_left(page: Any, left: dict[str, int]) -> None:
    for name, count in left.items():
        row = page.locator("#entry .dy-row").filter(has=page.locator(f"strong:text-is('{name}')"))
        row.locator(".cards-left-input").fill(str(count))


def typed_passes(page: Any, typed: dict[str, int]) -> None:
    for name, count in typed.items():
        row = page.locator("#entry .dy-row").filter(has=page.locator(f"strong:text-is('{name}')"))
        row.locator(".passes-input").fill(str(count))


def save(page: Any, number: int) -> None:
    page.locator("#entry .entry-save").click()
    expect(page.locator(f".hand-row[data-hand='{number}']")).to_be_visible()


def pot(page: Any) -> str:
    return str(page.locator("#entry .pot-value").inner_text())


def test_a_game_of_damn_you(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    problems = watch(page)
    start_game(page, live_server, "damn-you", ["Ana", "Bo", "Cy", "Di"])
    no_sideways_scroll(page)

    # Hand 1: the spec's worked example. Ana deals; Di and Ana are short.
    expect(page.locator("#sheet-banner .fact").first).to_contain_text("Short (ante 2)")
    expect(page.locator("#sheet-banner .fact dd").first).to_have_text("Ana, Di")
    assert pot(page) == "6"
    passes(page, "Ana", 2)
    passes(page, "Cy", 1)
    passes(page, "Di", 3)
    assert pot(page) == "12"
    # The taps survive a reload of the page.
    page.reload()
    assert pot(page) == "12"
    expect(page.locator("#entry .pass-tap[data-name='Ana'] .pass-count")).to_have_text("2")
    went_out(page, "Bo")
    cards_left(page, {"Ana": 5, "Cy": 3, "Di": 7})
    expect(page.locator("#preview")).to_contain_text("If saved, hand 1 scores")
    shoot(page, "damn-you-hand-1-entry")
    save(page, 1)
    assert footer(page) == ["11", "46", "15", "8"]
    expect(page.locator(".settlement summary")).to_have_text(
        "Hand 1 settled: Bo took the final pot of 27"
    )
    assert pot(page) == "6"  # the next hand's pot starts with its ante

    # Hand 2: Bo deals; Ana and Bo are short.
    passes(page, "Ana", 1)
    passes(page, "Cy", 3)
    page.locator("#entry .pass-minus[aria-label='One pass less for Cy']").click()
    assert pot(page) == "9"
    went_out(page, "Cy")
    cards_left(page, {"Ana": 4, "Bo": 2, "Di": 6})
    save(page, 2)
    assert footer(page) == ["4", "42", "33", "1"]

    # Hand 3: Di runs out of chips and plays on for free (the widow rule).
    passes(page, "Bo", 3)
    passes(page, "Di", 2)
    assert pot(page) == "9"
    went_out(page, "Ana")
    cards_left(page, {"Bo": 5, "Cy": 4, "Di": 9})
    save(page, 3)
    assert footer(page) == ["21", "32", "27", "0"]

    # Hand 4: Di still has nothing to pay.
    for name in ("Ana", "Bo", "Cy"):
        passes(page, name, 1)
    passes(page, "Di", 4)
    assert pot(page) == "7"
    went_out(page, "Bo")
    cards_left(page, {"Ana": 2, "Cy": 3, "Di": 5})
    save(page, 4)
    chips = footer(page, "total")
    assert chips == ["17", "42", "21", "0"]
    assert sum(int(c) for c in chips) == 80
    expect(page.locator(".result-winners")).to_contain_text("Bo wins")
    assert ranking(page) == ["1st Bo 42", "2nd Cy 21", "3rd Ana 17", "4th Di 0"]
    no_sideways_scroll(page)
    shoot(page, "damn-you-finished")
    assert not problems, problems


def test_who_paid_the_last_chip_is_asked_only_when_it_matters(
    signed_in_page: Any, live_server: Any
) -> None:
    # The document: "In the unlikely event that only one player has chips, the game
    # ends immediately and they win (this can happen in the middle of a hand)." Passes
    # go in one at a time, so when they leave nobody any chips, the last payer won.
    page = signed_in_page()
    problems = watch(page)
    start_game(page, live_server, "damn-you", ["Ana", "Bo", "Cy"])
    question = page.locator("#entry .last-chip-pick")
    expect(question).to_be_hidden()
    # 20 chips each, 19 after the ante.
    typed_passes(page, {"Ana": 19, "Bo": 25})
    expect(question).to_be_hidden()  # Cy still holds chips
    typed_passes(page, {"Cy": 18})
    passes(page, "Cy", 1)
    expect(question).to_be_visible()
    page.locator("#entry .pass-minus[aria-label='One pass less for Cy']").click()
    expect(question).to_be_hidden()
    passes(page, "Cy", 1)
    expect(question).to_be_visible()
    went_out(page, "Ana")
    cards_left(page, {"Bo": 3, "Cy": 4})
    went_out(page, "Bo", ".last-chip-pick")
    page.locator("#entry .entry-save").click()
    expect(page.locator(".result-winners")).to_contain_text("Bo wins")
    assert not problems, problems
