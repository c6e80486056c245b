"""Two phones on one sheet: a hand saved on one shows on the other within 3 seconds,
without a reload, and an entry in progress on the watching phone survives a correction
made on the other."""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import Hand, Player
from scorekeeper.services.games import game_create, hand_record
from tests.browser.closing import close_context
from tests.browser.sheet_ui import (
    cells,
    open_pad,
    pad_shows,
    tap,
    watch,
    went_out,
)

WITHIN = 3000  # milliseconds


def second_phone(browser: Any, live_server: Any) -> Any:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
        has_touch=True,
    )  # fmt: skip
    context.set_default_timeout(10_000)
    other = context.new_page()
    other.goto(f"{live_server.url}/accounts/login/")
    other.fill("#id_username", "ana")
    other.fill("#id_password", "table-talk-42")
    other.click("button[type=submit]")
    other.wait_for_url(f"{live_server.url}/")
    return other


def test_a_hand_saved_on_one_phone_shows_on_the_other(
    signed_in_page: Any, browser: Any, live_server: Any
) -> None:
    first = signed_in_page()
    owner = User.objects.get(username="ana")
    ana = Player.objects.get(user=owner)
    bo, cy = (Player.objects.create(name=n, created_by=owner) for n in ("Bo", "Cy"))
    game = game_create(owner=owner, ruleset="dirt", players=[ana.pk, bo.pk, cy.pk])
    hand_record(
        game=game, user=owner,
        hand_input={"winner": ana.pk, "results": [
            {"player": bo.pk, "points": 10}, {"player": cy.pk, "points": 20}]},
    )  # fmt: skip
    url = f"{live_server.url}/games/{game.pk}/"
    second = second_phone(browser, live_server)
    problems_first, problems_second = watch(first), watch(second)
    first.goto(url)
    second.goto(url)

    # The second phone starts entering hand 2.
    tap(second, "Bo", "JK", "A")
    pad_shows(second, "Bo", "65 pts")

    # The first phone corrects hand 1: the second sees it, and keeps its entry.
    first.click(".hand-row[data-hand='1'] .hand-col a")
    expect(first.locator("#entry-heading")).to_contain_text("Correct hand 1")
    open_pad(first, "Cy").locator(".points-input").fill("25")
    first.locator("#entry .entry-save").click()
    expect(first.locator("#sheet-notice .flash")).to_contain_text("Hand 1 corrected")
    started = time.monotonic()
    expect(second.locator(".hand-row[data-hand='1'] td .pts").nth(2)).to_have_text(
        "25", timeout=WITHIN
    )
    assert time.monotonic() - started < WITHIN / 1000
    pad_shows(second, "Bo", "65 pts")
    expect(second.locator("#entry-heading")).to_contain_text("Enter hand 2")

    # The first phone records hand 2: the second shows it and moves on to hand 3.
    went_out(first, "Cy")
    tap(first, "Ana", "K")
    tap(first, "Bo", "4", "4")
    first.locator("#entry .entry-save").click()
    expect(first.locator(".hand-row[data-hand='2']")).to_be_visible()
    started = time.monotonic()
    expect(second.locator(".hand-row[data-hand='2']")).to_be_visible(timeout=WITHIN)
    assert time.monotonic() - started < WITHIN / 1000
    assert cells(second, 2) == ["1", "50", "0"]
    expect(second.locator("#sheet-notice")).to_contain_text(
        "Hand 2 was saved on another phone. The entry below is for hand 3."
    )
    expect(second.locator("#entry-heading")).to_contain_text("Enter hand 3")

    # That panel came in the live answer, the same for every phone: its form has no
    # token of its own (htmx sends the page's) and a key this phone made. Hand 3 is
    # saved from it, and the first phone, whose undo came the same way, undoes it.
    form = second.locator("#entry form.entry-form")
    expect(form.locator("input[name='csrfmiddlewaretoken']")).to_have_count(0)
    assert len(form.locator("input[name='idempotency_key']").input_value()) >= 32
    went_out(second, "Bo")
    tap(second, "Ana", "K")
    tap(second, "Cy", "Q")
    second.locator("#entry .entry-save").click()
    expect(second.locator(".hand-row[data-hand='3']")).to_be_visible()
    expect(first.locator(".hand-row[data-hand='3']")).to_be_visible(timeout=WITHIN)
    undo = first.locator("#sheet-grid .undo-form")
    expect(undo.locator("input[name='csrfmiddlewaretoken']")).to_have_count(0)
    first.on("dialog", lambda dialog: dialog.accept())
    undo.get_by_role("button", name="Undo hand 3").click()
    expect(first.locator(".hand-row[data-hand='3']")).to_have_count(0)
    expect(second.locator(".hand-row[data-hand='3']")).to_have_count(0, timeout=WITHIN)
    assert Hand.objects.filter(game=game).count() == 2
    assert not problems_first, problems_first
    assert not problems_second, problems_second
    close_context(second.context)
