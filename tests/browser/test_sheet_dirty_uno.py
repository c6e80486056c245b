"""Full games of Dirty UNO kept from a phone, both scoring methods: UNO value pads with
colours, counted totals, exactly 500 dropping to 0 and the game ending past 500."""

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
    pad,
    pad_shows,
    ranking,
    running,
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


def test_standard_scoring_to_past_500(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    problems = watch(page)
    start_game(page, live_server, "dirty-uno", ["Ana", "Bo", "Cy"])
    no_sideways_scroll(page)
    expect(page.locator("#entry .reminder")).to_contain_text("settle the last card")

    went_out(page, "Ana")
    expect(page.locator("#entry .savebar-points")).to_have_text("Ana out · 2 to enter")
    counted(page, "Bo", 400)
    counted(page, "Cy", 49)
    save(page, 1)
    assert footer(page) == ["449", "0", "0"]

    # The spec: Ana goes out, Bo holds a Wild: exactly 500 drops back to 0. (Cy holds
    # a card too: "0 and 7 Cards – 50 points", so no card scores 0 and nobody who did
    # not go out holds 0 points; her 1 makes Ana's 449 the spec's 450.)
    went_out(page, "Ana")
    tap(page, "Bo", "W")
    pad_shows(page, "Bo", "50 pts")
    counted(page, "Cy", 1)
    expect(page.locator(".pad[data-name='Ana'] .pad-points")).to_have_text("scores 51")
    save(page, 2)
    assert running(page, 2)[0] == "0"
    expect(page.locator(".hand-row[data-hand='2'] td .note")).to_have_text("500 → 0")

    went_out(page, "Ana")
    counted(page, "Bo", 200)
    counted(page, "Cy", 220)
    save(page, 3)
    assert footer(page) == ["420", "0", "0"]

    # The spec: Ana at 420; Bo holds B+2 YS RR (60), Cy G9 Y0 (59): 539, game over.
    went_out(page, "Ana")
    tap(page, "Bo", "B:+2", "Y:S", "R:R")
    pad_shows(page, "Bo", "60 pts")
    tap(page, "Cy", "G:9", "Y:0")
    pad_shows(page, "Cy", "59 pts")
    expect(page.locator(".pad[data-name='Ana'] .pad-points")).to_have_text("scores 119")
    expect(page.locator("#entry .savebar-points")).to_have_text("Ana out +119 · Bo 60 · Cy 59")
    shoot(page, "uno-standard-entry")
    save(page, 4)
    assert cells(page, 4) == ["119", "·", "·"]
    assert footer(page) == ["539", "0", "0"]
    expect(page.locator(".result-winners")).to_contain_text("Ana wins")
    assert ranking(page)[0] == "1st Ana 539"
    no_sideways_scroll(page)
    assert not problems, problems


def test_penalty_scoring_lowest_wins(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    problems = watch(page)
    url = start_game(
        page, live_server, "dirty-uno", ["Ana", "Bo", "Cy"], options={"scoring": "penalty"}
    )
    went_out(page, "Ana")
    counted(page, "Bo", 300)
    counted(page, "Cy", 99)
    save(page, 1)
    went_out(page, "Bo")
    counted(page, "Ana", 470)
    counted(page, "Cy", 1)  # every card scores at least 1: a player holding cards never 0
    save(page, 2)
    assert footer(page) == ["470", "300", "100"]

    # The spec's penalty examples: 493 / 354 / 100, then 543 and 101: Cy wins.
    # Ana's 3 goes in without a colour ("Any"): it is saved as just "3".
    went_out(page, "Cy")
    tap(page, "Ana", "3", "R:+2")
    pad_shows(page, "Ana", "23 pts")
    assert chips(page, "Ana") == ["3", "+2R"]
    expect(pad(page, "Ana").locator(".chip").first).not_to_have_class(re.compile(r"uno-"))
    tap(page, "Bo", "W+4", "G:4")
    pad_shows(page, "Bo", "54 pts")
    save(page, 3)
    assert footer(page) == ["493", "354", "100"]
    assert stored_cards(url, 3) == {"Ana": ["3", "R+2"], "Bo": ["W+4", "G4"]}

    # The deck holds four 0s in all: a fifth is refused, with or without a colour.
    went_out(page, "Bo")
    tap(page, "Cy", "0", "0", "B:0", "0", "0")
    expect(pad(page, "Cy").locator(".pad-message")).to_have_text(
        "All 4 × 0 in the UNO deck are already entered."
    )
    tap(page, "Cy", "B:0")
    expect(pad(page, "Cy").locator(".pad-message")).to_have_text(
        "There is only 1 × B0 in the UNO deck, all entered."
    )
    assert chips(page, "Cy") == ["0", "0", "0B", "0"]
    for _ in range(4):
        pad(page, "Cy").locator(".chip").first.click()
    tap(page, "Ana", "G:7")
    tap(page, "Cy", "R:1")
    save(page, 4)
    assert footer(page) == ["543", "354", "101"]
    expect(page.locator(".result-winners")).to_contain_text("Cy wins")
    assert ranking(page) == ["1st Cy 101", "2nd Bo 354", "3rd Ana 543"]
    shoot(page, "uno-penalty-finished")
    assert not problems, problems
