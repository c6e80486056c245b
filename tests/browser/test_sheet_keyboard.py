"""The score sheet by keyboard alone, on a 360×740 phone: the skip link, one Tab stop per
card pad with ranks typed on it, the focus ring unlike the dirt card's yellow, the next
hand's question focused after Save, and the save bar's Undo for a moment after it.

Set ``SCOREKEEPER_SCREENSHOTS=/some/dir`` to keep screenshots of the focused pad."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.cards import parse_french
from games.dirt import card_points
from scorekeeper.models import Game, Hand, Player
from scorekeeper.services.games import game_create
from scorekeeper.services.invites import invite_create
from tests.browser.closing import close_context
from tests.browser.sheet_ui import save, tap, watch, went_out

SMALL = {"width": 360, "height": 740}
SCREENSHOTS = os.environ.get("SCOREKEEPER_SCREENSHOTS")


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A 360×740 phone (a physical keyboard attached: the keys are typed, never tapped)."""
    context = browser.new_context(
        viewport=SMALL, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(10_000)
    yield context
    close_context(context)


def signed_in(context: Any, live_server: Any, *, theme: str = "light") -> Any:
    page = context.new_page()
    page.emulate_media(color_scheme=theme)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "ana")
    page.fill("#id_password", "table-talk-42")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    return page


def a_dirt_game() -> tuple[Game, dict[str, int]]:
    user = User.objects.create_user("ana", password="table-talk-42")
    ana = Player.objects.create(name="Ana", user=user, created_by=user)
    others = [Player.objects.create(name=n, created_by=user) for n in ("Bo", "Cy", "Di")]
    players = [ana, *others]
    game = game_create(owner=user, ruleset="dirt", players=[p.pk for p in players])
    return game, {p.name: p.pk for p in players}


class Keys:
    """The keyboard, counting every key pressed."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0

    def press(self, *keys: str) -> None:
        for key in keys:
            self.page.keyboard.press(key)
            self.count += 1


def focused(page: Any) -> str:
    """What has the focus: its text (or the checked radio's label), to follow along."""
    return str(
        page.evaluate(
            """() => {
              const el = document.activeElement;
              if (!el || el === document.body) return "<body>";
              const label = el.closest("label");
              return (label || el).textContent.replace(/\\s+/g, " ").trim();
            }"""
        )
    )


def open_sheet(page: Any, live_server: Any, game: Game) -> None:
    page.goto(f"{live_server.url}/games/{game.pk}/")
    # Ready once the pads are built and take the keyboard (pad-keys.js).
    expect(page.locator("#entry[data-keys] .pad-key[tabindex='0']").first).to_be_attached()


def points_of(cards: list[str], dirt: str) -> int:
    return sum(card_points(parse_french("JK" if c == "JK" else f"{c}S"), dirt) for c in cards)


def test_a_dirt_hand_by_keyboard_alone_in_at_most_25_keys(
    phone: Any, live_server: Any, transactional_db: None
) -> None:
    game, ids = a_dirt_game()
    page = signed_in(phone, live_server)
    problems = watch(page)
    open_sheet(page, live_server, game)
    keys = Keys(page)

    # The skip link is the first Tab stop, and goes to the hand's first question.
    keys.press("Tab")
    expect(page.locator(".skip-link")).to_be_focused()
    expect(page.locator(".skip-link")).to_be_in_viewport()
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SCREENSHOTS) / "keyboard-skip-link.png"))
    keys.press("Enter")
    first = page.locator("#entry .winner-pick input[name='winner']").first
    expect(first).to_be_focused()
    # Bo went out: the arrow moves along the radios and picks.
    keys.press("ArrowRight")
    expect(page.locator(f"input[name='winner'][value='{ids['Bo']}']")).to_be_checked()
    # Ana's pad opens; its summary, then its buttons: one stop for all of them.
    keys.press("Tab")
    expect(page.locator(".pad[data-name='Ana'] summary")).to_be_focused()
    keys.press("Tab")
    ana = page.locator(".pad[data-name='Ana']")
    expect(ana.locator(".pad-key[data-key='JK']")).to_be_focused()
    assert ana.locator("[tabindex='0']").count() == 1
    expect(ana.locator(".pad-keyhint")).to_be_visible()
    expect(ana.locator(".pad-keyhint")).to_contain_text("X for a joker")
    keys.press("k", "4", "x")
    expect(ana.locator(".chip")).to_have_count(3)
    # Then on: Next (one Tab away) hands the focus to Cy's keys.
    keys.press("Tab")
    expect(ana.locator(".pad-next")).to_be_focused()
    keys.press("Enter")
    cy = page.locator(".pad[data-name='Cy']")
    expect(cy).to_have_attribute("open", "")
    expect(cy.locator(".pad-key[tabindex='0']")).to_be_focused()
    keys.press("a", "0")
    keys.press("Tab", "Enter")
    di = page.locator(".pad[data-name='Di']")
    expect(di.locator(".pad-key[tabindex='0']")).to_be_focused()
    # A slip, taken back with Backspace.
    keys.press("q", "Backspace", "j")
    expect(di.locator(".chip")).to_have_count(1)
    keys.press("Tab", "Enter")
    expect(page.locator("#entry .entry-save")).to_be_focused()
    keys.press("Enter")
    expect(page.locator(".hand-row[data-hand='1']")).to_be_visible()
    assert keys.count <= 25, keys.count
    # The next hand's pads take the keyboard the same way.
    expect(page.locator("#entry[data-keys][data-number='2']")).to_be_attached()

    hand = Hand.objects.get(game=game, number=1)
    assert hand.input["winner"] == ids["Bo"]
    results = {r["player"]: r.get("cards") for r in hand.input["results"]}
    assert results == {ids["Ana"]: ["K", "4", "JK"], ids["Cy"]: ["A", "10"], ids["Di"]: ["J"]}
    dirt = hand.derived["dirt_rank"]
    points = {row["player"]: row["points"] for row in hand.derived["points"]}
    assert points[ids["Ana"]] == points_of(["K", "4", "JK"], dirt)
    assert points[ids["Cy"]] == points_of(["A", "10"], dirt)
    assert points[ids["Di"]] == points_of(["J"], dirt)
    assert points[ids["Bo"]] == 0

    # The next hand's first question is on screen, below the top bar and above the
    # save bar, with the focus; one Tab to its answers.
    question = page.locator("#entry fieldset").first
    expect(question.locator("legend")).to_have_text("Who went out?")
    expect(page.locator("#entry-heading")).to_contain_text("Enter hand 2")
    expect(question).to_be_focused()
    box = question.bounding_box()
    savebar = page.locator("#entry .savebar").bounding_box()
    assert box is not None
    assert savebar is not None
    assert box["y"] >= 0
    assert box["y"] + 40 <= savebar["y"]
    page.keyboard.press("Tab")
    expect(page.locator("#entry .winner-pick input[name='winner']").first).to_be_focused()
    assert problems == [], problems


def ring_and_dirt(page: Any) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """() => {
              const key = document.activeElement;
              const s = getComputedStyle(key);
              const other = document.querySelector(".pad[open] .pad-key.marked:not(:focus)")
                || [...document.querySelectorAll(".pad-key.marked")].find(k => k !== key);
              const d = getComputedStyle(other);
              return { dirt: key.classList.contains("marked"),
                       outline: s.outlineColor, width: parseFloat(s.outlineWidth),
                       style: s.outlineStyle,
                       halo: s.boxShadow,
                       dirtBg: d.backgroundColor, dirtBorder: d.borderColor,
                       dirtShadow: d.boxShadow };
            }"""
        )
    )


def rgb(text: str) -> tuple[int, ...]:
    return tuple(int(float(x)) for x in re.findall(r"[\d.]+", text)[:3])


def far(a: str, b: str) -> bool:
    return sum(abs(x - y) for x, y in zip(rgb(a), rgb(b), strict=True)) > 150


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_focus_ring_is_unlike_the_dirt_card(
    phone: Any, live_server: Any, transactional_db: None, theme: str
) -> None:
    game, _ = a_dirt_game()
    page = signed_in(phone, live_server, theme=theme)
    problems = watch(page)
    open_sheet(page, live_server, game)
    went_out(page, "Bo")
    ana = page.locator(".pad[data-name='Ana']")
    expect(ana).to_have_attribute("open", "")
    dirt_rank = str(ana.locator(".pad-key.marked").get_attribute("data-key"))
    # To the pad's keys by keyboard, then along them to the dirt rank.
    ana.locator("summary").focus()
    page.keyboard.press("Tab")
    expect(ana.locator(".pad-key[data-key='JK']")).to_be_focused()
    for _ in range(20):
        if ana.locator(f".pad-key[data-key='{dirt_rank}']").evaluate(
            "el => el === document.activeElement"
        ):
            break
        page.keyboard.press("ArrowRight")
    dirt_key = ana.locator(f".pad-key[data-key='{dirt_rank}']")
    expect(dirt_key).to_be_focused()
    seen = ring_and_dirt(page)
    assert seen["dirt"]
    assert seen["style"] == "solid"
    assert seen["width"] >= 3
    # Not the dirt card's yellow, in its fill or its border, and not the old gold ring.
    assert far(seen["outline"], seen["dirtBg"]), seen
    assert far(seen["outline"], seen["dirtBorder"]), seen
    assert far(seen["outline"], "rgb(240, 180, 41)"), seen
    # Two tones: the ring stands on a halo of another colour (the last shadow; a dirt
    # key keeps its own inset line before it).
    halo = re.findall(r"rgba?\([^)]*\)", seen["halo"])
    assert halo, seen
    assert far(halo[-1], seen["outline"]), seen
    # An unfocused dirt key wears no such ring.
    other = page.locator(f".pad[data-name='Cy'] .pad-key[data-key='{dirt_rank}']")
    assert other.evaluate("el => getComputedStyle(el).outlineStyle") in ("none", "")
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.keyboard.press("ArrowUp")
        page.keyboard.press("ArrowDown")
        ana.scroll_into_view_if_needed()
        page.screenshot(path=str(Path(SCREENSHOTS) / f"keyboard-pad-{theme}.png"))
    assert problems == [], problems


def test_the_save_bar_s_undo_takes_the_hand_back(
    phone: Any, browser: Any, live_server: Any, transactional_db: None
) -> None:
    game, _ = a_dirt_game()
    page = signed_in(phone, live_server)
    problems = watch(page)
    open_sheet(page, live_server, game)
    went_out(page, "Bo")
    tap(page, "Ana", "K")
    tap(page, "Cy", "4")
    tap(page, "Di", "A")
    save(page, 1)
    assert Hand.objects.filter(game=game).count() == 1
    undo = page.locator("#entry .savebar .savebar-undo")
    expect(undo).to_be_visible()
    expect(undo).to_have_accessible_name("Undo hand 1")
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / "keyboard-savebar-undo.png"))
    undo.click()
    expect(page.locator("#entry-heading")).to_contain_text("Enter hand 1")
    expect(page.locator("#sheet-notice")).to_contain_text("Hand 1 undone")
    assert Hand.objects.filter(game=game).count() == 0
    expect(undo).to_have_count(0)

    # Saved again: Undo shows, and goes once the next hand's entry begins.
    went_out(page, "Cy")
    tap(page, "Ana", "2")
    tap(page, "Bo", "3")
    tap(page, "Di", "5")
    save(page, 1)
    expect(undo).to_be_visible()
    went_out(page, "Di")
    expect(undo).to_have_count(0)
    assert Hand.objects.filter(game=game).count() == 1

    # A watch link's guest sees the sheet, and no Undo (nor any save bar) on it.
    invite = invite_create(game=game, user=User.objects.get(username="ana"), role="watch")
    guest_context = browser.new_context(viewport=SMALL, is_mobile=True, has_touch=True)
    try:
        guest = guest_context.new_page()
        guest.goto(f"{live_server.url}/join/{invite.token}/")
        guest.wait_for_url(f"{live_server.url}/games/{game.pk}/")
        expect(guest.locator(".hand-row[data-hand='1']")).to_be_visible()
        expect(guest.locator(".savebar-undo")).to_have_count(0)
        expect(guest.locator("#savebar-undo")).to_have_count(0)
        expect(guest.locator(".skip-link")).to_have_count(0)
    finally:
        close_context(guest_context)
    assert problems == [], problems


def test_no_undo_for_a_hand_kept_on_the_phone_to_send_later(
    phone: Any, live_server: Any, transactional_db: None
) -> None:
    """A hand saved offline waits in the phone's outbox: the save bar offers no Undo for
    it, neither then nor when it is sent by itself later."""
    game, _ = a_dirt_game()
    page = signed_in(phone, live_server)
    open_sheet(page, live_server, game)
    page.context.set_offline(True)
    went_out(page, "Ana")
    tap(page, "Bo", "K")
    tap(page, "Cy", "Q")
    tap(page, "Di", "3")
    page.locator("#entry .entry-save").first.click()
    expect(page.locator("#sheet-outbox")).to_contain_text("1 hand waiting to send")
    expect(page.locator("#entry-heading")).to_contain_text("Enter hand 2")
    expect(page.locator(".savebar-undo")).to_have_count(0)
    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator(".hand-row[data-hand='1']")).to_be_visible()
    expect(page.locator("#sheet-outbox")).to_contain_text("sent and saved")
    page.wait_for_timeout(300)
    expect(page.locator(".savebar-undo")).to_have_count(0)
    assert Hand.objects.filter(game=game).count() == 1


def test_dirty_uno_cards_by_their_keys(
    phone: Any, live_server: Any, transactional_db: None
) -> None:
    """Dirty UNO's pad types its own values: digits, S R, D for draw two, W and F."""
    user = User.objects.create_user("ana", password="table-talk-42")
    players = [Player.objects.create(name="Ana", user=user, created_by=user)]
    players += [Player.objects.create(name=n, created_by=user) for n in ("Bo", "Cy")]
    game = game_create(owner=user, ruleset="dirty-uno", players=[p.pk for p in players])
    page = signed_in(phone, live_server)
    problems = watch(page)
    open_sheet(page, live_server, game)
    went_out(page, "Ana")
    bo = page.locator(".pad[data-name='Bo']")
    expect(bo).to_have_attribute("open", "")
    bo.locator("summary").focus()
    page.keyboard.press("Tab")
    expect(bo.locator(".pad-keyhint")).to_contain_text("D draw two")
    for key in ("7", "d", "f", "s"):
        page.keyboard.press(key)
    chips = [" ".join(t.split()) for t in bo.locator(".chip").all_inner_texts()]
    assert len(chips) == 4, chips
    assert bo.locator(".cards-input").input_value() == "7 +2 W+4 S"
    assert problems == [], problems
