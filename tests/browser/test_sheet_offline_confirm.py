"""An unlikely hand and the phone's outbox: a hand confirmed before it was kept carries
the confirmation when it is sent; one kept unconfirmed comes back with the question."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from scorekeeper.models import Hand
from tests.browser.sheet_ui import counted, shoot, watch, went_out
from tests.browser.test_sheet_offline import (  # noqa: F401  (the phone fixture)
    dirt_game,
    offline_problems,
    open_kept,
    outbox,
    phone,
)


def test_unlikely_hands_through_the_outbox(phone: Any, live_server: Any) -> None:  # noqa: F811
    page = phone
    game, players = dirt_game()
    problems = watch(page)
    open_kept(page, f"{live_server.url}/games/{game.pk}/")

    # Hand 1, online: asked; the connection drops; "Save anyway" keeps it on the phone.
    went_out(page, "Ana")
    counted(page, "Bo", 9999)
    counted(page, "Cy", 3)
    page.locator("#entry .entry-save").first.click()
    question = page.locator("#entry .entry-confirm")
    expect(question).to_contain_text("Bo's 9,999 is more than a hand usually holds")
    page.context.set_offline(True)
    question.get_by_role("button", name="Save anyway").click()
    expect(outbox(page)).to_contain_text("1 hand waiting to send")
    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator(".hand-row[data-hand='1']")).to_be_visible()
    assert Hand.objects.filter(game=game).count() == 1
    bo = players["Bo"].pk
    stored = Hand.objects.get(game=game, number=1).input["results"]
    assert {r["player"]: r.get("points") for r in stored}[bo] == 9999

    # Hand 2, offline and unconfirmed: kept, then held with the question when sent.
    page.context.set_offline(True)
    went_out(page, "Bo")
    counted(page, "Ana", 99999)
    counted(page, "Cy", 2)
    page.locator("#entry .entry-save").first.click()
    expect(outbox(page)).to_contain_text("1 hand waiting to send")
    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    held = page.locator(".outbox-held")
    expect(held).to_contain_text("Hand 2 was not saved.")
    expect(held).to_contain_text("Ana's 99,999 is far above this table's usual (≈5,001).")
    assert Hand.objects.filter(game=game).count() == 1
    shoot(page, "offline-confirm-held")
    held.get_by_role("button", name="Save anyway").click()
    expect(page.locator(".hand-row[data-hand='2']")).to_be_visible()
    expect(page.locator(".outbox-held")).to_have_count(0)
    assert Hand.objects.filter(game=game).count() == 2
    assert Hand.objects.filter(game=game, number=2).count() == 1
    assert not offline_problems(problems), problems
