"""Any other game of the evening on two phones at 360×740: started from the new-game
page (a named game, lowest wins, the table's own rules), three hands entered — one
phone offline for the second, sent when it is back — and both phones show the same
totals; the table's rules open as the game's rules page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import Game, Hand, Player
from tests.browser.closing import close_context
from tests.browser.sheet_ui import no_sideways_scroll, shoot, watch
from tests.browser.test_sheet_offline import offline_problems, open_kept

SMALL_PHONE = {"width": 360, "height": 740}
NOTES = "## Passing\n\nPass **three** cards to the left, then right, then across.\n"


def new_phone(browser: Any, live_server: Any) -> Any:
    context = browser.new_context(
        viewport=SMALL_PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
        service_workers="allow",
    )  # fmt: skip
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "ana")
    page.fill("#id_password", "table-talk-42")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    return page


@pytest.fixture
def phones(browser: Any, live_server: Any, transactional_db: None) -> Iterator[tuple[Any, Any]]:
    owner = User.objects.create_user("ana", password="table-talk-42")
    Player.objects.create(name="Ana", user=owner, created_by=owner)
    first, second = new_phone(browser, live_server), new_phone(browser, live_server)
    yield first, second
    close_context(first.context)
    close_context(second.context)


def row(page: Any, name: str) -> Any:
    who = page.locator(".points-who strong", has_text=re.compile(f"^{name}$"))
    return page.locator("#entry .points-row").filter(has=who)


def enter(page: Any, points: dict[str, str]) -> None:
    for name, value in points.items():
        row(page, name).locator(".points-input").fill(value)


def totals(page: Any) -> list[str]:
    return [t.strip() for t in page.locator("tfoot tr.total td").all_inner_texts()]


def test_a_named_game_on_two_phones_one_offline(phones: tuple[Any, Any], live_server: Any) -> None:
    first, second = phones
    problems = watch(first)
    first.goto(f"{live_server.url}/games/new/")
    first.click("a[href='/games/new/?ruleset=custom']")
    first.wait_for_selector("#new-game-form")
    for index, name in enumerate(["Bo", "Cy"], start=1):
        first.fill(f"input[name='seat-{index}-name']", name)
    first.fill("#option-name", "Hearts")
    first.select_option("#option-winner", "low")
    first.select_option("#option-end", "target")
    first.fill("#option-target", "50")
    first.fill("#option-notes", NOTES)
    no_sideways_scroll(first)
    first.locator("#option-name").scroll_into_view_if_needed()
    shoot(first, "custom-1-new-game")
    first.click("button.start-game")
    first.wait_for_url(re.compile(r".*/games/\d+/$"))
    game = Game.objects.get()
    assert game.options["name"] == "Hearts"
    assert game.league_scope == "custom/Hearts"
    url = f"{live_server.url}/games/{game.pk}/"
    expect(first.locator("#entry-heading")).to_contain_text("Enter hand 1")
    expect(first.locator("h1")).to_contain_text("Hearts")

    # Hand 1 on the first phone: Bo's points typed, the sign flipped, the rest 0.
    enter(first, {"Bo": "7"})
    row(first, "Bo").locator(".points-sign").click()
    enter(first, {"Ana": "13"})
    first.locator(".points-fill").click()
    expect(row(first, "Cy").locator(".points-input")).to_have_value("0")
    no_sideways_scroll(first)
    shoot(first, "custom-2-entry")
    first.locator("#entry .entry-save").first.click()
    expect(first.locator("#entry-heading")).to_contain_text("Enter hand 2")
    assert totals(first) == ["13", "-7", "0"] or totals(first) == ["13", "−7", "0"]

    # Hand 2 on the second phone, offline: kept, then sent when it is back.
    second_problems = watch(second)
    open_kept(second, url)
    expect(second.locator("#entry-heading")).to_contain_text("Enter hand 2")
    second.context.set_offline(True)
    enter(second, {"Ana": "0", "Bo": "20", "Cy": "6"})
    second.locator("#entry .entry-save").first.click()
    expect(second.locator("#sheet-outbox")).to_contain_text("1 hand waiting to send")
    expect(second.locator("#entry-heading")).to_contain_text("Enter hand 3")
    assert not Hand.objects.filter(game=game, number=2).exists()
    second.context.set_offline(False)
    second.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(second.locator(".hand-row[data-hand='2']")).to_be_visible()
    expect(second.locator("#sheet-outbox")).to_contain_text("sent and saved")

    # Hand 3 on the first phone, which has followed: Bo reaches 50 and the game ends.
    expect(first.locator(".hand-row[data-hand='2']")).to_be_visible(timeout=15_000)
    expect(first.locator("#entry-heading")).to_contain_text("Enter hand 3")
    enter(first, {"Ana": "0", "Bo": "37", "Cy": "0"})
    first.locator("#entry .entry-save").first.click()
    expect(first.locator(".hand-row[data-hand='3']")).to_be_visible()
    expect(second.locator(".hand-row[data-hand='3']")).to_be_visible(timeout=15_000)
    game.refresh_from_db()
    assert game.status == "finished"
    assert [h.number for h in Hand.objects.filter(game=game).order_by("number")] == [1, 2, 3]
    expect(first.locator("tfoot tr.total td").first).to_have_text("13")
    assert totals(first) == totals(second)
    assert [t.replace("\u2212", "-") for t in totals(first)] == ["13", "50", "6"]
    shoot(first, "custom-3-finished")

    # The table's rules are the game's rules page.
    first.goto(f"{url}rules/")
    expect(first.locator(".table-notes-body strong")).to_have_text("three")
    no_sideways_scroll(first)
    shoot(first, "custom-4-rules")
    assert not offline_problems(problems), problems
    assert not offline_problems(second_problems), second_problems
