"""Sharing a finished game's result from a 360 px phone: the last hand ends the game, the
"Share the result" section appears with the text (Copy puts it on the clipboard) and the
image; publishing gives a public page that a signed-out phone opens; unpublishing makes
that page a 404 at once."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.services.games import game_create, hand_record
from scorekeeper.services.players import player_create
from tests.browser.closing import close_context
from tests.browser.sheet_ui import no_sideways_scroll, shoot, watch
from tests.browser.waits import wait_until

SMALL = {"width": 360, "height": 780}
LONG = "Bartholomew" + "x" * 49  # 60 characters, no spaces


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(
        viewport=SMALL,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        permissions=["clipboard-read", "clipboard-write"],
    )
    ctx.set_default_timeout(15_000)
    yield ctx
    close_context(ctx)


@pytest.fixture
def stranger(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport=SMALL, device_scale_factor=2, is_mobile=True)
    ctx.set_default_timeout(15_000)
    yield ctx
    close_context(ctx)


def sign_in(page: Any, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "ana")
    page.fill("#id_password", "table-talk-42")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")


def test_share_a_result_and_its_public_page(
    phone: Any, stranger: Any, live_server: Any, transactional_db: None
) -> None:
    base = live_server.url
    user = User.objects.create_user("ana", password="table-talk-42")
    maya = player_create(name="Maya", created_by=user, user=user)
    bob = player_create(name="Bob", created_by=user)
    cy = player_create(name="Cy", created_by=user)
    game = game_create(
        owner=user,
        ruleset="screw-your-neighbour",
        players=[maya.pk, bob.pk, cy.pk],
        options={"target_wins": 2},
    )
    hand_record(game=game, user=user, hand_input={"winner": maya.pk})
    hand_record(game=game, user=user, hand_input={"winner": bob.pk})

    page = phone.new_page()
    problems = watch(page)
    sign_in(page, base)
    page.goto(f"{base}/games/{game.pk}/")
    expect(page.locator("#result-share")).to_have_count(0)
    # The last hand: Maya's second win ends the game, and the section appears.
    page.locator("#entry .winner-button").filter(has_text=re.compile(r"^\s*Maya\b")).click()
    section = page.locator("#result-share")
    expect(section).to_be_visible()
    field = section.locator("textarea[data-result-text]")
    text = field.input_value()
    assert text.split("\n")[1:3] == ["🏆 Maya 2 hand wins", "2. Bob 1 hand win"]
    assert text.endswith("scored with scorekeeper")

    copy = section.locator("button[data-result-copy]")
    expect(copy).to_be_visible()
    box = copy.bounding_box()
    assert box
    assert box["height"] >= 44
    copy.click()
    expect(section.locator("[data-result-status]")).to_have_text("Result copied.")
    assert page.evaluate("navigator.clipboard.readText()") == text

    image = section.locator("img.result-image")
    image.scroll_into_view_if_needed()
    wait_until(
        page,
        "() => { const i = document.querySelector('#result-share img.result-image');"
        " return i && i.complete && i.naturalWidth === 1200; }",
    )
    download = section.locator("a[download]")
    assert download.get_attribute("download") == f"scorekeeper-screw-your-neighbour-{game.pk}.png"
    shoot(page, "result-share")

    # Publish: the section is swapped in place with the public link.
    section.locator("button", has_text="Make a public page").click()
    expect(section.locator(".flash")).to_contain_text("The public page is on")
    link = section.locator("a[data-result-public-url]")
    public_url = link.get_attribute("href")
    assert public_url
    assert re.fullmatch(rf"{re.escape(base)}/r/[A-Za-z0-9_-]{{32}}/", public_url)
    expect(section.locator("button[data-result-copy-link]")).to_be_visible()
    shoot(page, "result-share-published")

    # A phone that never signed in opens it.
    outsider = stranger.new_page()
    outside_problems = watch(outsider)
    response = outsider.goto(public_url)
    assert response is not None
    assert response.status == 200
    expect(outsider.locator("h1")).to_have_text("Screw Your Neighbour")
    expect(outsider.locator(".public-ranking li").first).to_contain_text("Maya")
    expect(outsider.locator(".public-ranking")).to_contain_text("Cy")
    expect(outsider.locator(".public-grid tbody tr")).to_have_count(3)
    robots = outsider.locator("meta[name=robots]").get_attribute("content")
    assert robots
    assert "noindex" in robots
    og_image = outsider.locator("meta[property='og:image']").get_attribute("content")
    assert og_image
    assert og_image.startswith(f"{base}/r/")
    outsider.locator("img.result-image").scroll_into_view_if_needed()
    wait_until(
        outsider,
        "() => { const i = document.querySelector('img.result-image');"
        " return i && i.complete && i.naturalWidth === 1200; }",
    )
    no_sideways_scroll(outsider)

    # A 60-character name without spaces fits a 360 px screen, here and on the sheet.
    cy.name = LONG
    cy.save(update_fields=["name"])
    outsider.reload()
    expect(outsider.locator(".public-ranking")).to_contain_text("Bartholomew")
    no_sideways_scroll(outsider)
    shoot(outsider, "result-public")
    page.reload()
    expect(field).to_contain_text("Bartholomew")
    assert section.evaluate(
        "e => e.getBoundingClientRect().right <= window.innerWidth"
        " && e.scrollWidth <= e.clientWidth"
    )

    # Off again, after saying the link goes for good: the same link is a 404 at once.
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", answer)
    section.locator("button", has_text="Turn the public page off").click()
    expect(section.locator(".flash")).to_contain_text("The public page is off")
    assert asked
    assert "stops working at once, for good" in asked[0]
    expect(section.locator("button", has_text="Make a public page")).to_be_visible()
    gone = outsider.goto(public_url)
    assert gone is not None
    assert gone.status == 404
    assert not problems, problems
    assert not outside_problems, outside_problems
