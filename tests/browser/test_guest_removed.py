"""An owner removes one guest from the Share page (after a page saying what that does):
the guest's phone, in the middle of entering a hand, is told at once that its access
ended and keeps the hand as a read-only draft it can copy; opened again by a new link,
the sheet puts the draft back into the entry. Two phones at 360×740."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import Guest, Hand, Player
from scorekeeper.services.games import game_create
from tests.browser.closing import close_context
from tests.browser.sheet_ui import no_sideways_scroll, shoot, tap, watch, went_out
from tests.browser.test_invites import shared_link, sign_in

SMALL_PHONE = {"width": 360, "height": 740}


@pytest.fixture
def phones(browser: Any) -> Iterator[Any]:
    opened: list[Any] = []

    def open_phone() -> Any:
        context = browser.new_context(
            viewport=SMALL_PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
        )
        context.set_default_timeout(10_000)
        opened.append(context)
        return context.new_page()

    yield open_phone
    for context in opened:
        close_context(context)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_removed_guest_keeps_the_hand_they_were_entering(
    phones: Any, live_server: Any, transactional_db: None, theme: str
) -> None:
    owner_user = User.objects.create_user("ana", password="table-talk-42")
    ana = Player.objects.create(name="Ana", user=owner_user, created_by=owner_user)
    bo, cy = (Player.objects.create(name=n, created_by=owner_user) for n in ("Bo", "Cy"))
    game = game_create(owner=owner_user, ruleset="dirt", players=[ana.pk, bo.pk, cy.pk])
    sheet = f"{live_server.url}/games/{game.pk}/"

    owner = phones()
    owner.context.add_cookies([{"name": "theme", "value": theme, "url": live_server.url}])
    sign_in(owner, live_server)
    owner.goto(f"{sheet}share/")
    link = shared_link(owner, "score")

    friend = phones()
    friend.context.add_cookies([{"name": "theme", "value": theme, "url": live_server.url}])
    friend.context.grant_permissions(["clipboard-read", "clipboard-write"])
    problems = watch(friend)
    friend.goto(link)
    friend.fill("#guest-name", "Maya")
    friend.get_by_role("button", name="Keep score").click()
    friend.wait_for_url(sheet)
    # Half a hand: who went out, and one player's cards.
    went_out(friend, "Bo")
    tap(friend, "Ana", "K", "4")

    # The owner removes Maya: the Share page lists her, and asks first.
    owner.goto(f"{sheet}share/")
    no_sideways_scroll(owner)
    shoot(owner, f"guest-share-list-{theme}")
    owner.get_by_role("link", name="Remove Maya…").click()
    expect(owner.locator("h1")).to_have_text("Remove Maya?")
    expect(owner.locator("main")).to_contain_text("can no longer enter, correct or undo hands")
    no_sideways_scroll(owner)
    shoot(owner, f"guest-remove-confirm-{theme}")
    owner.get_by_role("button", name="Remove Maya").click()
    expect(owner.locator(".messages")).to_contain_text("Maya was removed")

    # Maya's phone is told at once (its next live check), and keeps the hand.
    friend.wait_for_url(re.compile(rf"/games/{game.pk}/ended/$"), timeout=15_000)
    expect(friend.locator("h1")).to_have_text("Your access to this game ended")
    expect(friend.locator("main")).to_contain_text("The game's owner removed you from it")
    kept = friend.locator("#kept-draft")
    expect(kept).to_be_visible()
    expect(kept).to_contain_text("Hand 1")
    expect(kept).to_contain_text("Went out (or won): Bo")
    expect(kept).to_contain_text("Ana: cards")
    no_sideways_scroll(friend)
    shoot(friend, f"guest-removed-draft-{theme}")
    friend.get_by_role("button", name="Copy it").click()
    expect(kept.locator("[data-kept-status]")).to_have_text("Copied.")
    copied = friend.evaluate("navigator.clipboard.readText()")
    assert "Went out (or won): Bo" in copied
    # Kept on the phone, not just in this tab.
    assert friend.evaluate(f"localStorage.getItem('sk:kept:{game.pk}') !== null")
    assert Hand.objects.filter(game=game).count() == 0

    # A new link lets Maya in again: the sheet puts her draft back into the entry.
    owner.goto(f"{sheet}share/")
    second = shared_link(owner, "score")
    fresh = friend.context.new_page()
    fresh.goto(second)
    fresh.fill("#guest-name", "Maya")
    fresh.get_by_role("button", name="Keep score").click()
    fresh.wait_for_url(sheet)
    expect(fresh.locator(f"input[name='winner'][value='{bo.pk}']")).to_be_checked()
    assert fresh.locator(f"input[name='cards_{ana.pk}']").input_value().strip() != ""
    assert fresh.evaluate(f"localStorage.getItem('sk:kept:{game.pk}')") is None
    assert Guest.objects.filter(name="Maya", removed_at__isnull=True).count() == 1
    assert not problems, problems
