"""A full game of Dirt kept from a phone: tally pads, the counted-total keypad, a refused
save that keeps the entry, and the spec's worked examples on the sheet."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from scorekeeper.models import Hand, Player
from tests.browser.sheet_ui import (
    cells,
    counted,
    footer,
    no_sideways_scroll,
    open_pad,
    pad,
    pad_shows,
    ranking,
    save,
    shoot,
    start_game,
    tap,
    watch,
    went_out,
)


def stored_cards(url: str, number: int) -> dict[str, list[str]]:
    """The cards saved for hand ``number`` of the game at ``url``, by player name."""
    game_id = int(re.findall(r"/games/(\d+)/", url)[-1])
    hand = Hand.objects.get(game_id=game_id, number=number)
    names = dict(Player.objects.values_list("id", "name"))
    return {names[r["player"]]: r["cards"] for r in hand.input["results"] if "cards" in r}


def chips(page: Any, name: str) -> list[str]:
    return [str(t) for t in pad(page, name).locator(".chip").all_text_contents()]


def test_a_game_of_baby_dirt(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    problems = watch(page)
    url = start_game(page, live_server, "dirt", ["Ana", "Bo", "Cy", "Di"])
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
    expect(page.locator("#entry .callout-value")).to_have_text("4")
    expect(page.locator(".pad[data-name='Bo'] .pad-key.marked")).to_have_attribute("data-key", "4")
    went_out(page, "Ana")
    tap(page, "Bo", "JK", "H:4", "S:4", "K")
    pad_shows(page, "Bo", "101 pts")
    tap(page, "Cy", "A", "7", "10", "3")
    pad_shows(page, "Cy", "26 pts")
    tap(page, "Di", "9", "2", "J")
    pad_shows(page, "Di", "12 pts")
    # A suit shows only where one was picked; "Any" records the rank alone.
    assert chips(page, "Bo") == ["Joker", "4♥", "4♠", "K"]
    shoot(page, "dirt-hand-2-entry")
    save(page, 2)
    assert cells(page, 2) == ["0", "101", "26", "12"]
    assert stored_cards(url, 2) == {
        "Bo": ["JK", "4H", "4S", "K"],
        "Cy": ["A", "7", "10", "3"],
        "Di": ["9", "2", "J"],
    }

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
    expect(page.locator("#entry .callout-value")).to_have_text("7")
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
    expect(page.locator("svg.chart-svg polyline.chart-line")).to_have_count(4)
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


def test_the_pads_stop_at_the_copies_of_a_rank_in_the_decks(
    signed_in_page: Any, live_server: Any
) -> None:
    page = signed_in_page()
    problems = watch(page)
    url = start_game(page, live_server, "dirt", ["Ana", "Bo", "Cy", "Di"])
    went_out(page, "Bo")
    # Three decks hold twelve aces, whatever their suits.
    tap(page, "Ana", "A", "A", "A", "A", "A")
    tap(page, "Cy", "A", "A", "H:A", "A")
    tap(page, "Di", "A", "A", "A")
    tap(page, "Di", "A")
    expect(pad(page, "Di").locator(".pad-message")).to_have_text(
        "All 12 × A in 3 decks are already entered."
    )
    tap(page, "Di", "S:A")
    expect(pad(page, "Di").locator(".pad-message")).to_contain_text("All 12 × A")
    assert chips(page, "Di") == ["A", "A", "A"]
    assert chips(page, "Cy") == ["A", "A", "A♥", "A"]
    # Take one back and there is room again, with a suit or without.
    open_pad(page, "Ana").locator(".chip").first.click()
    tap(page, "Di", "D:A")
    pad_shows(page, "Di", "60 pts")
    assert chips(page, "Di") == ["A", "A", "A", "A♦"]
    # What the form posts: the rank alone unless a suit was picked.
    assert pad(page, "Ana").locator(".cards-input").input_value() == "A A A A"
    assert pad(page, "Di").locator(".cards-input").input_value() == "A A A AD"
    save(page, 1)
    assert cells(page, 1) == ["60", "0", "60", "60"]
    assert stored_cards(url, 1) == {
        "Ana": ["A", "A", "A", "A"],
        "Cy": ["A", "A", "AH", "A"],
        "Di": ["A", "A", "A", "AD"],
    }

    # Correcting the hand reads the stored codes back onto the pads.
    page.locator(".hand-row[data-hand='1'] a").first.click()
    expect(page.locator("#entry-heading")).to_contain_text("Correct hand 1")
    pad_shows(page, "Di", "60 pts")
    assert chips(page, "Di") == ["A", "A", "A", "A♦"]
    # Typed codes (as without script) read the same way: ranks alone, T for ten.
    page.locator(".pad[data-name='Ana'] .cards-input").evaluate(
        "el => { el.value = 't 4h k 9'; el.dispatchEvent(new Event('input')); }"
    )
    assert chips(page, "Ana") == ["10", "4♥", "K", "9"]
    pad_shows(page, "Ana", "15 pts")
    assert not problems, problems
