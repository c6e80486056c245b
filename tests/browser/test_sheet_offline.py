"""A phone at the table with a bad signal: hands saved offline are kept on the phone,
survive a reload, and are sent by themselves when the connection returns — recorded
exactly once, in order; a hand another phone recorded first is held with the reason
until the user re-enters or discards it. Each test checks what the server stored."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from scorekeeper.models import Game, Hand, Player, TableState
from scorekeeper.services.games import game_create, hand_record
from tests.browser.closing import close_context
from tests.browser.conftest import CHROMIUM_ARGS  # noqa: F401  (the same browser set-up)
from tests.browser.sheet_ui import (
    OUTBOX,
    kept_on_phone,
    open_pad,
    open_tools,
    pad_shows,
    shoot,
    tap,
    watch,
    went_out,
)
from tests.browser.waits import wait_until

SMALL_PHONE = {"width": 360, "height": 740}


@pytest.fixture
def phone(browser: Any, live_server: Any, transactional_db: None) -> Iterator[Any]:
    """A signed-in phone at 360×740 with the service worker on."""
    context = browser.new_context(
        viewport=SMALL_PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
        service_workers="allow",
    )  # fmt: skip
    context.set_default_timeout(10_000)
    page = context.new_page()
    owner = User.objects.create_user("ana", password="table-talk-42")
    Player.objects.create(name="Ana", user=owner, created_by=owner)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "ana")
    page.fill("#id_password", "table-talk-42")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    yield page
    close_context(context)


def dirt_game() -> tuple[Game, dict[str, Player]]:
    owner = User.objects.get(username="ana")
    ana = Player.objects.get(user=owner)
    bo, cy = (Player.objects.create(name=n, created_by=owner) for n in ("Bo", "Cy"))
    game = game_create(owner=owner, ruleset="dirt", players=[ana.pk, bo.pk, cy.pk])
    return game, {"Ana": ana, "Bo": bo, "Cy": cy}


#: The service worker has stored this page (listed, so stored whole).
KEPT = """async () => {
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
            if (new URL(request.url).pathname === location.pathname) return true;
        }
    }
    return false;
}"""


def open_kept(page: Any, url: str) -> None:
    """Open a sheet and wait until the service worker keeps it for offline use."""
    page.goto(url)
    controlled = "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null"
    try:
        # Installing stores every rules page: slow on a busy machine.
        wait_until(page, controlled, timeout=45_000)
    except PlaywrightTimeoutError:
        # As a person would: open the page again, which the installed worker then serves.
        page.reload()
        wait_until(page, controlled, timeout=60_000)
    wait_until(page, KEPT, timeout=30_000, polling=200)
    page.wait_for_timeout(600)  # the page's own "keep me" message, answered
    wait_until(page, KEPT, timeout=30_000, polling=200)


def winners(game: Game) -> list[int | None]:
    return [h.input.get("winner") for h in Hand.objects.filter(game=game).order_by("number")]


def outbox(page: Any) -> Any:
    return page.locator("#sheet-outbox")


def offline_problems(problems: list[str]) -> list[str]:
    """What went wrong besides the requests the dropped connection cut: a poll in flight
    as the phone goes offline fails (the browser's line, and htmx's two for it)."""
    cut = ("ERR_INTERNET_DISCONNECTED", "htmx:sendError", "htmx:afterRequest")
    return [p for p in problems if not any(word in p for word in cut)]


def test_a_hand_saved_offline_is_kept_through_a_reload_and_recorded_once(
    phone: Any, live_server: Any
) -> None:
    page = phone
    game, players = dirt_game()
    problems = watch(page)
    open_kept(page, f"{live_server.url}/games/{game.pk}/")

    page.context.set_offline(True)
    went_out(page, "Ana")
    tap(page, "Bo", "JK", "A")
    tap(page, "Cy", "4")
    page.locator("#entry .entry-save").first.click()
    expect(outbox(page)).to_contain_text("Offline.")
    expect(outbox(page)).to_contain_text("1 hand waiting to send")
    expect(outbox(page)).to_contain_text("Hand 1 · Ana went out · Bo: JK A · Cy: 4")
    expect(page.locator("#entry-heading")).to_contain_text("Enter hand 2")
    shoot(page, "offline-1-kept")
    assert not Hand.objects.filter(game=game).exists()

    # The page reloaded offline still shows the sheet and the hand waiting.
    page.reload()
    expect(outbox(page)).to_contain_text("1 hand waiting to send")
    expect(page.locator("#entry-heading")).to_contain_text("Enter hand 2")
    kept = kept_on_phone(page, game.pk)
    assert [k["number"] for k in kept] == [1]
    shoot(page, "offline-2-reloaded")

    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator(".hand-row[data-hand='1']")).to_be_visible()
    expect(outbox(page)).to_contain_text("1 hand kept on this phone was sent and saved.")
    expect(page.locator("#entry-heading")).to_contain_text("Enter hand 2")
    assert winners(game) == [players["Ana"].pk]
    shoot(page, "offline-3-sent")

    # However often it is sent again with its key, it is recorded once.
    status = page.evaluate(
        """async (item) => (await fetch(item.action, {method: 'POST', body: item.body,
            headers: {'Content-Type': 'application/x-www-form-urlencoded',
                      'HX-Request': 'true', 'Idempotency-Key': item.key}})).status""",
        kept[0],
    )
    assert status == 200
    assert Hand.objects.filter(game=game).count() == 1
    assert kept_on_phone(page, game.pk) == []
    assert not offline_problems(problems), problems


def test_two_hands_kept_offline_are_sent_in_order(phone: Any, live_server: Any) -> None:
    page = phone
    game, players = dirt_game()
    open_kept(page, f"{live_server.url}/games/{game.pk}/")
    page.context.set_offline(True)
    went_out(page, "Ana")
    tap(page, "Bo", "K")
    tap(page, "Cy", "Q")
    page.locator("#entry .entry-save").first.click()
    expect(page.locator("#entry-heading")).to_contain_text("Enter hand 2")
    went_out(page, "Cy")
    tap(page, "Ana", "3")
    tap(page, "Bo", "JK")
    page.locator("#entry .entry-save").first.click()
    expect(outbox(page)).to_contain_text("2 hands waiting to send")
    expect(page.locator("#entry-heading")).to_contain_text("Enter hand 3")
    shoot(page, "offline-4-two-kept")

    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator(".hand-row[data-hand='2']")).to_be_visible()
    expect(outbox(page)).to_contain_text("2 hands kept on this phone were sent and saved.")
    assert winners(game) == [players["Ana"].pk, players["Cy"].pk]
    hands = list(Hand.objects.filter(game=game).order_by("number"))
    assert hands[1].input["results"][1]["cards"] == ["JK"]


def test_tool_taps_wait_with_the_hands_in_one_outbox_and_go_once_in_order(
    phone: Any, live_server: Any
) -> None:
    """The draw penalty and the direction belong to the hand in play: a tap made before
    a hand kept offline is for that hand, one made after it for the next. Sent in the
    order they were made, each once, the table ends as the phone saw it."""
    page = phone
    game, players = dirt_game()
    problems = watch(page)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    open_tools(page)
    expect(page.locator("[data-penalty-count]")).to_have_text("0")
    page.context.set_offline(True)
    page.get_by_role("button", name="+ Joker (5)").click()
    went_out(page, "Ana")
    tap(page, "Bo", "K")
    tap(page, "Cy", "4")
    page.locator("#entry .entry-save").first.click()
    expect(page.locator("#entry-heading")).to_contain_text("Enter hand 2")
    page.get_by_role("button", name=re.compile("Reverse direction")).click()
    page.get_by_role("button", name="+ Joker (5)").click()
    expect(page.locator("[data-tools-sync]")).to_contain_text("3 changes kept on this phone")
    expect(outbox(page)).to_contain_text("1 hand waiting to send")
    kept = kept_on_phone(page, game.pk)
    assert [(k.get("kind"), k.get("act", {}).get("action")) for k in kept] == [
        ("tool", "penalty-add"),
        ("hand", None),
        ("tool", "direction-flip"),
        ("tool", "penalty-add"),
    ]

    sent: list[str] = []
    page.on(
        "requestfinished",
        lambda r: (
            sent.append("tool" if "/table/" in r.url else "hand") if r.method == "POST" else None
        ),
    )
    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator(".hand-row[data-hand='1']")).to_be_visible()
    expect(page.locator("[data-tools-sync]")).to_be_hidden()
    wait_until(page, f"async () => (await ({OUTBOX})({game.pk})).length === 0")
    assert sent == ["tool", "hand", "tool", "tool"]
    assert winners(game) == [players["Ana"].pk]
    table = TableState.objects.get(game=game)
    # Hand 2's: one joker (not two: each tap went once), and play reversed.
    assert (table.hand, table.penalty, table.clockwise) == (2, 5, False)
    expect(page.locator("[data-penalty-count]")).to_have_text("5")
    expect(page.locator("[data-direction]")).to_contain_text("counter-clockwise")
    assert not offline_problems(problems), problems


def test_a_kept_hand_whose_form_token_expired_is_sent_with_a_current_one(
    phone: Any, live_server: Any
) -> None:
    """Kept while its form token went stale (a sign-in elsewhere, a page the phone kept):
    the server's refusal carries a current token, and the hand goes with it, once."""
    page = phone
    game, players = dirt_game()
    open_kept(page, f"{live_server.url}/games/{game.pk}/")
    page.context.set_offline(True)
    went_out(page, "Bo")
    tap(page, "Ana", "K")
    tap(page, "Cy", "Q")
    page.locator("#entry .entry-save").first.click()
    expect(outbox(page)).to_contain_text("1 hand waiting to send")
    stale = "x" * 64
    page.evaluate(
        """(stale) => {
            document.body.setAttribute("hx-headers", JSON.stringify({"X-CSRFToken": stale}));
            document.querySelectorAll('input[name="csrfmiddlewaretoken"]')
                .forEach((input) => { input.value = stale; });
        }""",
        stale,
    )
    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(outbox(page)).to_contain_text(
        "1 hand kept on this phone was sent and saved.", timeout=20_000
    )
    assert winners(game) == [players["Bo"].pk]
    assert "x" * 64 not in page.evaluate("() => document.body.getAttribute('hx-headers')")


def test_a_kept_hand_another_phone_recorded_first_is_held_for_the_user(
    phone: Any, live_server: Any
) -> None:
    page = phone
    game, players = dirt_game()
    problems = watch(page)
    page.on("dialog", lambda dialog: dialog.accept())
    open_kept(page, f"{live_server.url}/games/{game.pk}/")
    page.context.set_offline(True)
    went_out(page, "Ana")
    tap(page, "Bo", "JK", "A")
    tap(page, "Cy", "4")
    page.locator("#entry .entry-save").first.click()
    expect(outbox(page)).to_contain_text("1 hand waiting to send")

    # Meanwhile another phone records hand 1.
    owner = User.objects.get(username="ana")
    hand_record(
        game=game, user=owner, expected_number=1,
        hand_input={"winner": players["Cy"].pk, "results": [
            {"player": players["Ana"].pk, "points": 10},
            {"player": players["Bo"].pk, "points": 5}]},
    )  # fmt: skip

    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    held = page.locator(".outbox-held")
    expect(held).to_contain_text("Hand 1 was not saved.")
    expect(held).to_contain_text("Hand 1 was already saved on another phone")
    expect(held).to_contain_text("Ana went out · Bo: JK A · Cy: 4")
    expect(page.locator(".hand-row[data-hand='1']")).to_be_visible()
    shoot(page, "offline-5-held")
    assert winners(game) == [players["Cy"].pk]

    # A reload does not lose it: it waits for the user's word.
    page.reload()
    expect(held).to_contain_text("Hand 1 was not saved.")

    # Re-entered as the next hand: the form holds it, and saving records it once.
    held.locator(".outbox-reenter").click()
    expect(page.locator("#entry-heading")).to_contain_text("Enter hand 2")
    pad_shows(page, "Bo", "65 pts")
    expect(page.locator("#entry input[name='winner']:checked")).to_have_value(
        str(players["Ana"].pk)
    )
    expect(held).to_have_count(0)
    shoot(page, "offline-6-reentered")
    page.locator("#entry .entry-save").first.click()
    expect(page.locator(".hand-row[data-hand='2']")).to_be_visible()
    assert winners(game) == [players["Cy"].pk, players["Ana"].pk]

    # Another kept hand overtaken, this time discarded: nothing is recorded.
    page.context.set_offline(True)
    went_out(page, "Bo")
    tap(page, "Ana", "5")
    page.locator("#entry .entry-save").first.click()
    hand_record(
        game=game, user=owner, expected_number=3,
        hand_input={"winner": players["Ana"].pk, "results": [
            {"player": players["Bo"].pk, "points": 1},
            {"player": players["Cy"].pk, "points": 2}]},
    )  # fmt: skip
    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(held).to_contain_text("Hand 3 was not saved.")
    held.locator(".outbox-discard").click()
    expect(held).to_have_count(0)
    assert Hand.objects.filter(game=game).count() == 3
    assert kept_on_phone(page, game.pk) == []
    assert not offline_problems(problems), problems


def test_an_entry_in_progress_survives_reload_and_back_and_a_faster_phone(
    phone: Any, live_server: Any
) -> None:
    page = phone
    game, players = dirt_game()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    went_out(page, "Cy")
    tap(page, "Bo", "JK", "A")
    open_pad(page, "Ana")
    page.locator(".pad[data-name='Ana'] .mode-button[data-mode='points']").click()
    page.locator(".pad[data-name='Ana'] .points-input").fill("7")
    page.reload()
    pad_shows(page, "Bo", "65 pts")
    pad_shows(page, "Ana", "7 pts")
    expect(page.locator("#entry input[name='winner']:checked")).to_have_value(str(players["Cy"].pk))

    page.goto(f"{live_server.url}/rules/")
    page.go_back()
    pad_shows(page, "Bo", "65 pts")
    expect(page.locator("#entry input[name='winner']:checked")).to_have_value(str(players["Cy"].pk))

    # Another phone saves hand 1 meanwhile: the taps are kept as a draft beside it.
    owner = User.objects.get(username="ana")
    hand_record(
        game=game, user=owner,
        hand_input={"winner": players["Ana"].pk, "results": [
            {"player": players["Bo"].pk, "points": 3},
            {"player": players["Cy"].pk, "points": 4}]},
    )  # fmt: skip
    held = page.locator(".outbox-held")
    expect(held).to_contain_text("Hand 1 was not saved.")
    expect(held).to_contain_text("saved on another phone while this entry was being made")
    expect(held).to_contain_text("Cy went out")
    expect(page.locator("#entry-heading")).to_contain_text("Enter hand 2")
    shoot(page, "offline-7-overtaken-draft")
    held.locator(".outbox-reenter").click()
    pad_shows(page, "Bo", "65 pts")
    assert Hand.objects.filter(game=game).count() == 1


def test_back_and_start_again_opens_the_same_game(phone: Any, live_server: Any) -> None:
    page = phone
    page.goto(f"{live_server.url}/games/new/?ruleset=screw-your-neighbour")
    for index, name in enumerate(["Bo", "Cy"], start=1):
        page.fill(f"input[name='seat-{index}-name']", name)
    page.click("button.start-game")
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    first = page.url
    page.go_back()
    page.wait_for_url(re.compile(r".*/games/new/.*"))
    page.click("button.start-game")
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    assert page.url == first
    assert Game.objects.count() == 1


def live_requests(page: Any) -> list[str]:
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url) if "/live/" in r.url else None)
    return seen


def test_polling_pauses_while_hidden_and_stops_when_the_game_is_over(
    phone: Any, live_server: Any
) -> None:
    page = phone
    game, players = dirt_game()
    seen = live_requests(page)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_timeout(4500)
    assert len(seen) >= 1

    page.evaluate(
        """() => {
            const set = (name, value) =>
                Object.defineProperty(document, name, {value: value, configurable: true});
            set('visibilityState', 'hidden');
            set('hidden', true);
            document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )
    page.wait_for_timeout(300)
    before = len(seen)
    page.wait_for_timeout(4500)
    assert len(seen) == before, "a hidden page polled"

    page.evaluate(
        """() => {
            const set = (name, value) =>
                Object.defineProperty(document, name, {value: value, configurable: true});
            set('visibilityState', 'visible');
            set('hidden', false);
            document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )
    page.wait_for_timeout(500)
    assert len(seen) > before, "shown again, the page did not refresh at once"

    # Restored from the back/forward cache, the page asks at once (not at the next tick).
    with page.expect_request(lambda r: "/live/" in r.url):
        pass
    started = len(seen)
    page.evaluate(
        "() => window.dispatchEvent(new PageTransitionEvent('pageshow', {persisted: true}))"
    )
    page.wait_for_timeout(700)
    assert len(seen) > started, "a page restored from the back/forward cache did not refresh"

    # The game ends (on another phone): the sheet shows it, then polls no more.
    owner = User.objects.get(username="ana")
    from scorekeeper.services.games import game_close

    hand_record(
        game=game, user=owner,
        hand_input={"winner": players["Ana"].pk, "results": [
            {"player": players["Bo"].pk, "points": 3},
            {"player": players["Cy"].pk, "points": 4}]},
    )  # fmt: skip
    game_close(game=game, user=owner)
    expect(page.locator("#sheet-result")).to_contain_text("Game over", timeout=5000)
    page.wait_for_timeout(300)
    after = len(seen)
    page.wait_for_timeout(4500)
    assert len(seen) == after, "a finished game kept polling"


def test_signing_out_forgets_the_sheets_kept_on_the_phone(phone: Any, live_server: Any) -> None:
    page = phone
    game, _ = dirt_game()
    open_kept(page, f"{live_server.url}/games/{game.pk}/")
    page.click("button:has-text('Sign out')")
    page.wait_for_load_state()
    wait_until(
        page,
        f"""async () => {{
            for (const name of await caches.keys()) {{
                const cache = await caches.open(name);
                for (const request of await cache.keys()) {{
                    if (new URL(request.url).pathname === '/games/{game.pk}/') return false;
                }}
            }}
            return true;
        }}""",
        timeout=10_000,
        polling=200,
    )
