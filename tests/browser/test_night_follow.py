"""A game night at the table: a watcher joins by the night's watch link before any game
and is taken to the first game when it starts; a guest joins once by the night's score
link; the table display shows the game. When the owner's "Play again" starts the next
game of the night, the phones and the display move to it by themselves, and the guest
records a hand in it without a new link."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import Game, Invite, Player
from scorekeeper.services.games import game_create
from scorekeeper.services.invites import night_invite_create
from scorekeeper.services.nights import night_create
from tests.browser.closing import close_context
from tests.browser.sheet_ui import shoot, watch

pytestmark = pytest.mark.browser


def phone(browser: Any, width: int = 360, height: int = 740) -> Any:
    context = browser.new_context(
        viewport={"width": width, "height": height}, device_scale_factor=2, is_mobile=True,
        has_touch=True,
    )  # fmt: skip
    context.set_default_timeout(30_000)
    return context.new_page()


def test_the_guest_and_the_display_follow_the_night_to_its_next_game(
    signed_in_page: Any, browser: Any, live_server: Any
) -> None:
    owner_page = signed_in_page()
    owner_page.set_viewport_size({"width": 360, "height": 740})
    owner = User.objects.get(username="ana")
    ana = Player.objects.get(user=owner)
    bo, cy = (Player.objects.create(name=n, created_by=owner) for n in ("Bo", "Cy"))
    night = night_create(owner=owner, name="Friday at Jo's")
    # A watcher joins by the night's watch link before any game: the night's page waits.
    watcher = phone(browser, 390, 844)
    watched = night_invite_create(night=night, user=owner, role="watch")
    watcher.goto(f"{live_server.url}/join/{watched.token}/")
    expect(watcher).to_have_url(re.compile(rf"/nights/{night.pk}/$"))
    expect(watcher.locator("#night-current")).to_contain_text("No game yet")
    first = game_create(
        owner=owner,
        ruleset="screw-your-neighbour",
        players=[ana.pk, bo.pk, cy.pk],
        options={"target_wins": 1},
        night=night.pk,
    )
    invite: Invite = night_invite_create(night=night, user=owner, role="score")
    # …and goes to the first game when it starts.
    expect(watcher).to_have_url(re.compile(rf"/games/{first.pk}/$"), timeout=20_000)

    guest = phone(browser)
    problems = watch(guest)
    guest.goto(f"{live_server.url}/join/{invite.token}/")
    expect(guest.locator("h1")).to_contain_text("Join Friday at Jo's")
    guest.fill("#guest-name", "Maya")
    guest.click("button[type=submit]")
    expect(guest).to_have_url(re.compile(rf"/games/{first.pk}/$"))

    display = owner_page.context.new_page()  # the owner's tablet in the middle
    display.set_viewport_size({"width": 1280, "height": 720})
    display.goto(f"{live_server.url}/games/{first.pk}/display/")

    # Maya wins the one hand the game needs: it is over, and the night goes on.
    guest.locator("#entry .winner-button").filter(has_text="Bo").click()
    expect(guest.locator(".result-winners")).to_contain_text("Bo wins")
    expect(guest.locator("#night-next")).to_contain_text("Friday at Jo's")
    shoot(guest, "night-game-over")

    owner_page.goto(f"{live_server.url}/games/{first.pk}/")
    owner_page.click("a:has-text('Play again')")
    expect(owner_page.locator("input[name=night]")).to_be_checked()
    owner_page.click("button.start-game")
    expect(owner_page.locator("#entry-heading")).to_be_visible()
    second = Game.objects.exclude(pk=first.pk).get()
    assert second.night_id == night.pk

    # The guest's phone and the display move on by themselves, with no new link.
    expect(guest).to_have_url(re.compile(rf"/games/{second.pk}/$"), timeout=20_000)
    expect(display).to_have_url(re.compile(rf"/games/{second.pk}/display/$"), timeout=20_000)
    expect(watcher).to_have_url(re.compile(rf"/games/{second.pk}/$"), timeout=20_000)
    expect(guest.locator(".guest-note")).to_contain_text("You keep score as Maya")
    guest.locator("#entry .winner-button").filter(has_text="Cy").click()
    expect(guest.locator(".hand-row[data-hand='1']")).to_be_visible()
    assert second.hands.count() == 1
    shoot(guest, "night-next-game")
    owner_page.goto(f"{live_server.url}/nights/{night.pk}/")
    expect(owner_page.locator("#night-current")).to_contain_text(f"#{second.pk}")
    shoot(owner_page, "night-page")
    assert guest.evaluate("document.documentElement.scrollWidth") <= 360
    assert problems == []
    close_context(guest.context)
    close_context(watcher.context)
    display.close()
