"""Every phone at the table, without an account: the owner shares the game from the sheet,
a friend opens the score link on their own phone, gives a name and records a hand; a
watch link only watches; a revoked link is refused. Two browser contexts at 360×740."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import Hand, HandRevision, Invite, Player
from scorekeeper.services.games import game_create
from tests.browser.closing import close_context
from tests.browser.sheet_ui import no_sideways_scroll, save, shoot, tap, watch, went_out
from tests.browser.waits import wait_until

SCREENSHOTS = os.environ.get("SCOREKEEPER_SCREENSHOTS")

SMALL_PHONE = {"width": 360, "height": 740}


@pytest.fixture
def phones(browser: Any) -> Iterator[Any]:
    """New phone-sized browser contexts, each with its own cookies: separate phones."""
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


def snap(page: Any, name: str) -> None:
    """The whole page (``shoot``) and what the phone's screen shows."""
    shoot(page, name)
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}-screen.png"))


def sign_in(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "ana")
    page.fill("#id_password", "table-talk-42")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")


def csrf_post(page: Any, url: str, form: dict[str, str]) -> int:
    """A form post from this phone, with its own cookies and CSRF token."""
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    response = page.request.post(
        url, form=form, headers={"X-CSRFToken": token, "Referer": url}, max_redirects=0
    )
    return int(response.status)


def shared_link(owner: Any, role: str) -> str:
    """Make a link on the Share page; returns it once its QR code is drawn."""
    owner.get_by_role("button", name=f"New {role} link").click()
    expect(owner.locator("#shown-heading")).to_have_text(f"{role.capitalize()} link")
    qr = owner.locator("img.share-qr")
    expect(qr).to_be_visible()
    wait_until(owner, "document.querySelector('img.share-qr').naturalWidth > 100")
    return str(owner.locator("#share-url").input_value())


def test_a_guest_scores_by_link_a_watcher_watches_and_revoking_shuts_them_out(
    phones: Any, live_server: Any, transactional_db: None
) -> None:
    owner_user = User.objects.create_user("ana", password="table-talk-42")
    ana = Player.objects.create(name="Ana", user=owner_user, created_by=owner_user)
    bo, cy = (Player.objects.create(name=n, created_by=owner_user) for n in ("Bo", "Cy"))
    game = game_create(owner=owner_user, ruleset="dirt", players=[ana.pk, bo.pk, cy.pk])
    sheet = f"{live_server.url}/games/{game.pk}/"

    owner = phones()
    owner.context.grant_permissions(["clipboard-read", "clipboard-write"])
    owner_problems = watch(owner)
    sign_in(owner, live_server)
    owner.goto(sheet)
    snap(owner, "invites-owner-sheet")
    owner.get_by_role("link", name=re.compile("Share this game")).click()
    expect(owner.locator("h1")).to_contain_text("Share Dirt on Your Neighbor")
    link = shared_link(owner, "score")
    assert re.fullmatch(rf"{re.escape(live_server.url)}/join/[\w-]{{32}}/", link)
    owner.get_by_role("button", name="Copy link").click()
    expect(owner.locator("[data-share-status]")).to_have_text("Link copied.")
    assert owner.evaluate("navigator.clipboard.readText()") == link
    no_sideways_scroll(owner)
    snap(owner, "invites-share-panel")

    # The friend's phone: no account, a name once, then the sheet with the entry panel.
    friend = phones()
    friend_problems = watch(friend)
    friend.goto(link)
    expect(friend.locator("h1")).to_contain_text(f"Join Dirt on Your Neighbor #{game.pk}")
    snap(friend, "invites-join")
    friend.fill("#guest-name", "Maya")
    friend.get_by_role("button", name="Keep score").click()
    friend.wait_for_url(sheet)
    expect(friend.locator(".guest-note")).to_contain_text("You keep score as Maya (guest)")
    expect(friend.locator("#entry-heading")).to_contain_text("Enter hand 1")
    went_out(friend, "Bo")
    tap(friend, "Ana", "K", "4")
    tap(friend, "Cy", "JK")
    save(friend, 1)
    no_sideways_scroll(friend)
    snap(friend, "invites-guest-sheet")

    hands = list(Hand.objects.filter(game=game))
    assert [(h.number, h.input["winner"], h.created_by_id) for h in hands] == [(1, bo.pk, None)]
    revision = HandRevision.objects.get(game=game)
    assert revision.guest is not None
    assert (revision.action, revision.guest.name, revision.user_id) == ("recorded", "Maya", None)
    # The owner's phone picks the hand up, and its history names the guest.
    expect(owner.locator("body")).to_be_visible()
    owner.goto(f"{sheet}hands/1/")
    expect(owner.locator(".hand-history")).to_contain_text("Recorded by Maya (guest)")

    # A watch link shows the live sheet, and nothing to enter hands with.
    owner.goto(f"{sheet}share/")
    watch_link = shared_link(owner, "watch")
    watcher = phones()
    watcher.goto(watch_link)
    watcher.wait_for_url(sheet)
    expect(watcher.locator(".guest-note")).to_contain_text("You are watching through a shared link")
    expect(watcher.locator(".hand-row[data-hand='1']")).to_be_visible()
    expect(watcher.locator("#entry-heading")).to_have_count(0)
    snap(watcher, "invites-watcher")
    assert csrf_post(watcher, f"{sheet}hands/", {"number": "2", "winner": str(cy.pk)}) == 403
    assert Hand.objects.filter(game=game).count() == 1
    # It follows the sheet live: a hand the friend records shows without a reload.
    went_out(friend, "Cy")
    tap(friend, "Ana", "2")
    tap(friend, "Bo", "3")
    save(friend, 2)
    expect(watcher.locator(".hand-row[data-hand='2']")).to_be_visible(timeout=15_000)
    assert Hand.objects.filter(game=game).count() == 2

    # Revoked: the link and the friend's phone are refused at their next request.
    owner.on("dialog", lambda dialog: dialog.accept())
    score = Invite.objects.get(game=game, role="score")
    owner.locator(f"form[action$='/share/{score.pk}/revoke/'] button").click()
    expect(owner.locator(".messages")).to_contain_text("The score link was revoked")
    # Asked with the phone's cookies, not by navigating: the sheet's own poll may be
    # sending the phone away at that moment, which cancels a navigation.
    # The sheet sends the phone to the page that says its link was revoked.
    ended = friend.request.get(sheet)
    assert (ended.status, ended.url) == (403, f"{sheet}ended/")
    assert "was revoked" in ended.text()
    assert friend.request.get(link).status == 404
    assert Hand.objects.filter(game=game).count() == 2
    assert not owner_problems, owner_problems
    assert not friend_problems, friend_problems
