"""Two phones at 360 px on one sheet, through the events server (uvicorn in a thread):
the watching phone holds an open event stream instead of polling, and a hand saved on
the other shows on it without a reload, fetched as the changed rows only."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import Game, Player
from scorekeeper.services.games import game_create, hand_record
from tests.browser.closing import close_context
from tests.browser.sheet_ui import watch

pytestmark = pytest.mark.browser


def second_phone(browser: Any, live_server: Any) -> Any:
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True,
        has_touch=True,
    )  # fmt: skip
    context.set_default_timeout(30_000)  # a loaded machine: generous
    other = context.new_page()
    other.goto(f"{live_server.url}/accounts/login/")
    other.fill("#id_username", "ana")
    other.fill("#id_password", "table-talk-42")
    other.click("button[type=submit]")
    other.wait_for_url(f"{live_server.url}/")
    return other


def first_phone(signed_in_page: Any) -> Any:
    """Ana's phone at 360 px, signed in."""
    first = signed_in_page()
    first.set_viewport_size({"width": 360, "height": 740})
    first.set_default_timeout(30_000)
    return first


def open_screw_game(hands: int) -> Game:
    """Ana's open-ended Screw Your Neighbour game with Bo and Cy, ``hands`` hands won by Bo."""
    owner = User.objects.get(username="ana")
    ana = Player.objects.get(user=owner)
    bo, cy = (Player.objects.create(name=n, created_by=owner) for n in ("Bo", "Cy"))
    game = game_create(
        owner=owner,
        ruleset="screw-your-neighbour",
        players=[ana.pk, bo.pk, cy.pk],
        options={"target_wins": 0},
    )
    for _ in range(hands):
        hand_record(game=game, user=owner, hand_input={"winner": bo.pk})
    return game


def test_a_hand_reaches_the_other_phone_through_the_event_stream(
    events: str, signed_in_page: Any, browser: Any, live_server: Any
) -> None:
    first = first_phone(signed_in_page)
    game = open_screw_game(hands=3)
    url = f"{live_server.url}/games/{game.pk}/"
    second = second_phone(browser, live_server)
    problems = watch(second)
    asked: list[str] = []
    second.on("request", lambda r: asked.append(r.url) if "/live/" in r.url else None)
    first_asked: list[str] = []
    first.on("request", lambda r: first_asked.append(r.url) if "/live/" in r.url else None)
    first.goto(url)
    second.goto(url)
    expect(second.locator("html")).to_have_attribute("data-live", "events", timeout=15_000)
    expect(second.locator(".hand-row")).to_have_count(3)
    ticket = second.locator("#sheet-poller").get_attribute("data-events")
    assert ticket

    # While the stream is open, the phone does not poll every 2 s.
    second.wait_for_timeout(4500)
    # Nor does it ask for the sheet when the stream opens: its first event said the
    # game is at the version the page shows.
    assert asked == [], asked

    first.locator("#entry .winner-button").filter(has_text="Cy").click()
    expect(first.locator(".hand-row[data-hand='4']")).to_be_visible()
    expect(second.locator(".hand-row[data-hand='4']")).to_be_visible(timeout=15_000)
    expect(second.locator(".hand-row")).to_have_count(4)
    expect(second.locator(".hand-row[data-hand='4'] td").nth(2)).to_contain_text("✓")
    expect(second.locator("#sheet-notice")).to_contain_text("Hand 4 was saved on another phone")
    # The phone that saved it asked for nothing: its own answer brought the hand.
    expect(first.locator("html")).to_have_attribute("data-live", "events")
    assert [u for u in first_asked if "sse=1" in u] == [], first_asked
    # The answer, the same for every phone, brought no ticket: the phone kept its page's,
    # and its stream, which brings the next hand too.
    expect(second.locator("#sheet-poller")).to_have_attribute("data-events", ticket)
    expect(second.locator("html")).to_have_attribute("data-live", "events")
    first.locator("#entry .winner-button").filter(has_text="Bo").click()
    expect(second.locator(".hand-row[data-hand='5']")).to_be_visible(timeout=15_000)
    expect(second.locator("html")).to_have_attribute("data-live", "events")
    assert all("sse=1" in u for u in asked), asked  # no poll: the stream said so
    # The tap-to-correct links of the merged rows work as before.
    second.locator(".hand-row[data-hand='4'] .hand-col a").click()
    expect(second.locator("#entry-heading")).to_contain_text("Correct hand 4")
    if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        assert any("sse=1" in u for u in asked), asked  # the rows, asked for
    else:  # PostgreSQL's events bring the answer itself: nothing asked
        assert asked == [], asked
    assert second.evaluate("document.documentElement.scrollWidth") <= 360
    assert problems == []
    close_context(second.context)


def test_the_phone_that_saved_asks_nothing_when_its_hands_event_comes_first(
    events: str, signed_in_page: Any, live_server: Any
) -> None:
    """The hand's event reaches the saving phone before its own answer (held back here):
    the answer brings the hand, so the phone asks the server for nothing more."""
    page = signed_in_page()
    page.set_viewport_size({"width": 360, "height": 740})
    page.set_default_timeout(30_000)
    game = open_screw_game(hands=1)
    problems = watch(page)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/live/" in r.url else None)
    answered: list[bool] = []

    def held_back(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        response = route.fetch()  # saved: the events server tells every stream
        time.sleep(4)  # …and its event reaches this page before the answer does
        answered.append(True)
        route.fulfill(response=response)

    page.route(f"**/games/{game.pk}/hands/**", held_back)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator("html")).to_have_attribute("data-live", "events", timeout=15_000)
    page.locator("#entry .winner-button").filter(has_text="Cy").click()
    expect(page.locator(".hand-row[data-hand='2']")).to_be_visible(timeout=20_000)
    assert answered == [True]
    page.wait_for_timeout(2000)  # anything it would ask for after the answer
    expect(page.locator(".hand-row")).to_have_count(2)
    expect(page.locator("html")).to_have_attribute("data-live", "events")
    assert [u for u in asked if "sse=1" in u] == [], asked
    assert problems == []


@pytest.mark.skipif(
    "postgresql" not in settings.DATABASES["default"]["ENGINE"],
    reason="the answer is pushed on PostgreSQL's notifications (with-postgres.sh)",
)
def test_a_hand_saved_on_one_phone_shows_on_the_other_without_asking(
    events: str, signed_in_page: Any, browser: Any, live_server: Any
) -> None:
    """The hand's event brings the live answer kept for it: the watching phone, at the
    version before, swaps it in and asks the server for nothing."""
    first = signed_in_page()
    first.set_viewport_size({"width": 360, "height": 740})
    first.set_default_timeout(30_000)
    game = open_screw_game(hands=1)
    url = f"{live_server.url}/games/{game.pk}/"
    second = second_phone(browser, live_server)
    problems = watch(second)
    asked: list[str] = []
    second.on("request", lambda r: asked.append(r.url) if "/live/" in r.url else None)
    first.goto(url)
    second.goto(url)
    for page in (first, second):
        expect(page.locator("html")).to_have_attribute("data-live", "events", timeout=15_000)
    for hand, winner in ((2, "Cy"), (3, "Bo")):
        first.locator("#entry .winner-button").filter(has_text=winner).click()
        expect(second.locator(f".hand-row[data-hand='{hand}']")).to_be_visible(timeout=3_000)
        expect(second.locator(".hand-row")).to_have_count(hand)
        expect(second.locator("#sheet-notice")).to_contain_text(
            f"Hand {hand} was saved on another phone"
        )
        expect(second.locator("#entry-heading")).to_contain_text(f"{hand + 1}")
    second.wait_for_timeout(1000)  # anything it would still ask for
    assert asked == [], asked
    expect(second.locator("html")).to_have_attribute("data-live", "events")
    # The entry the answer brought saves the next hand from this phone.
    second.locator("#entry .winner-button").filter(has_text="Cy").click()
    expect(first.locator(".hand-row[data-hand='4']")).to_be_visible(timeout=3_000)
    assert second.evaluate("document.documentElement.scrollWidth") <= 360
    second.screenshot(path="/tmp/push-watcher.png")
    assert problems == []
    close_context(second.context)


def test_a_broken_stream_tries_once_before_polling_and_the_hand_still_arrives(
    events: str, signed_in_page: Any, browser: Any, live_server: Any
) -> None:
    """The events server refuses every stream (gone, or both full): the phone says it is
    reconnecting and polls nothing while its first try is on its way (a room whose
    server restarted does not poll Django meanwhile), then polls, and a hand saved on the
    other phone still shows."""
    first = first_phone(signed_in_page)
    game = open_screw_game(hands=2)
    url = f"{live_server.url}/games/{game.pk}/"
    second = second_phone(browser, live_server)
    second.add_init_script(
        "window.skLive = [];"
        "new MutationObserver(function (changes) { changes.forEach(function (c) {"
        "  if (c.target === document.documentElement)"
        "    window.skLive.push(c.target.getAttribute('data-live'));"
        "}); }).observe(document,"
        "  {attributes: true, subtree: true, attributeFilter: ['data-live']});"
    )
    moments: list[tuple[str, float]] = []
    second.on(
        "request",
        lambda r: moments.append(("poll", time.monotonic())) if "/live/" in r.url else None,
    )

    def refuse(route: Any) -> None:
        moments.append(("stream", time.monotonic()))
        route.fulfill(status=503, headers={"Retry-After": "1"}, body="")

    second.route("**/events/**", refuse)
    first.goto(url)
    second.goto(url)
    expect(second.locator("html")).to_have_attribute("data-live", "poll", timeout=15_000)
    said = second.evaluate("window.skLive")
    assert said[:2] == ["reconnecting", "poll"], said
    kinds = [kind for kind, _ in moments]
    assert kinds[:2] == ["stream", "stream"], kinds  # tried again before any poll
    first.locator("#entry .winner-button").filter(has_text="Cy").click()
    expect(second.locator(".hand-row[data-hand='3']")).to_be_visible(timeout=30_000)


def test_refused_tries_to_reopen_the_stream_do_not_put_off_the_poll(
    events: str, signed_in_page: Any, live_server: Any
) -> None:
    """Every try to reopen the stream is refused (both events servers away): the poll
    keeps its own pace. Before, each refusal started the poll's wait again, so with
    tries every few seconds the first poll came after 14 s or more instead of 8."""
    phone = first_phone(signed_in_page)
    game = open_screw_game(hands=2)
    phone.add_init_script(
        # Every jittered wait at 99 % of its ceiling: the poll's first 7.9 s, the
        # tries to reconnect 1, 2, 4, 7.9 s apart.
        "Math.random = function () { return 0.99; };"
        "window.skAt = {};"
        "new MutationObserver(function () {"
        "  if (document.documentElement.getAttribute('data-live') === 'poll' && !skAt.poll)"
        "    skAt.poll = Date.now();"
        "}).observe(document, {attributes: true, subtree: true, attributeFilter: ['data-live']});"
        "document.addEventListener('htmx:beforeSend', function (e) {"
        "  if (e.detail.elt && e.detail.elt.id === 'sheet-poller' && skAt.poll && !skAt.polled)"
        "    skAt.polled = Date.now();"
        "});"
    )
    phone.route("**/events/**", lambda route: route.fulfill(status=503, body=""))
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    deadline = time.monotonic() + 30
    while not (at := phone.evaluate("window.skAt")).get("polled") and time.monotonic() < deadline:
        phone.wait_for_timeout(200)
    assert at["polled"] - at["poll"] <= 11_000, at
    close_context(phone.context)


def test_an_answer_refused_while_streaming_is_asked_for_again_after_its_retry_after(
    events: str, signed_in_page: Any, live_server: Any
) -> None:
    """The app sheds load (503, Retry-After) just as a hand's event makes the phone ask
    for the rows: the phone, still streaming, asks again once Retry-After has passed
    (not before), and the hand shows; before, it stayed behind until the next change."""
    phone = first_phone(signed_in_page)
    game = open_screw_game(hands=2)
    asked: list[tuple[str, float]] = []

    def shed_the_first(route: Any) -> None:
        asked.append((route.request.url, time.monotonic()))
        if len(asked) == 1:
            route.fulfill(status=503, headers={"Retry-After": "2"}, body="")
        else:
            route.continue_()

    phone.goto(f"{live_server.url}/games/{game.pk}/")
    expect(phone.locator("html")).to_have_attribute("data-live", "events", timeout=15_000)
    phone.route("**/live/?*sse=1*", shed_the_first)
    owner = User.objects.get(username="ana")
    cy = Player.objects.get(name="Cy")
    hand_record(game=game, user=owner, hand_input={"winner": cy.pk})
    expect(phone.locator(".hand-row[data-hand='3']")).to_be_visible(timeout=20_000)
    expect(phone.locator("html")).to_have_attribute("data-live", "events")
    assert len(asked) == 2, asked
    assert asked[1][1] - asked[0][1] >= 2.0, asked  # not before its Retry-After
    assert asked[1][0] == asked[0][0], asked  # what it asked for (rows or sheet), again
    close_context(phone.context)


@pytest.mark.parametrize(("ahead", "asks_rows"), [(1, True), (2, False)])
def test_a_stream_reopening_one_version_behind_asks_for_the_rows_its_change_began_at(
    events: str, signed_in_page: Any, live_server: Any, ahead: int, asks_rows: bool
) -> None:
    """The stream's first event says the version the game is at and, when its server
    heard the change, the hand that change began at (``f``): a phone one version
    behind asks for the rows from that hand on, the answer the phones that heard the
    change share; a phone further behind asks for the whole sheet."""
    phone = first_phone(signed_in_page)
    game = open_screw_game(hands=2)
    version = Game.objects.get(pk=game.pk).version
    asked: list[str] = []
    phone.on("request", lambda r: asked.append(r.url) if "sse=1" in r.url else None)

    def hello(route: Any) -> None:
        said = f'{{"v":{version + ahead},"r":0,"f":3}}'
        route.fulfill(
            status=200,
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"},
            body=f"retry: 60000\nevent: hello\ndata: {said}\n\n",
        )

    phone.route("**/events/**", hello)
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    deadline = time.monotonic() + 15
    while not asked and time.monotonic() < deadline:
        phone.wait_for_timeout(100)
    assert asked, "the phone behind asked for nothing"
    rows = f"&from=3&to={version + ahead}"
    assert (rows in asked[0]) is asks_rows, asked[0]
    assert ("from=" in asked[0]) is asks_rows, asked[0]
