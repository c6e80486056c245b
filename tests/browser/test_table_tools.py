"""The table's tools with two phones at 360 px (two browser contexts) through the events
server: the negotiation timer started on one shows the same time left on the other
(within a second) and after a reload; the draw penalty tapped on one counts on the
other; the red-aces check answers at once; and the table display at 1280x720 follows a
hand saved on a phone. Screenshots go to $SCREENSHOTS (light and dark) when set."""

from __future__ import annotations

import itertools
import json
import os
import re
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import Game, Player
from scorekeeper.services.games import game_create, hand_record
from scorekeeper.services.invites import invite_create
from tests.browser.closing import close_context
from tests.browser.sheet_ui import open_tools, watch

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("SCREENSHOTS", "")


def phone(browser: Any, width: int = 360, height: int = 740) -> Any:
    context = browser.new_context(
        viewport={"width": width, "height": height}, device_scale_factor=1,
        is_mobile=width < 800, has_touch=width < 800,
    )  # fmt: skip
    context.set_default_timeout(30_000)
    return context.new_page()


def join(page: Any, live_server: Any, game: Any, role: str) -> None:
    owner = User.objects.get(username="ana")
    invite = invite_create(game=game, user=owner, role=role)
    page.goto(f"{live_server.url}/join/{invite.token}/")
    if role == "score":
        page.fill("input[name=name]", "Maya")
        page.locator("form button[type=submit]").last.click()
    page.wait_for_url(re.compile(rf"/games/{game.pk}/"))


def shot(page: Any, name: str) -> None:
    if not SHOTS:
        return
    for theme in ("light", "dark"):
        page.evaluate("t => document.documentElement.setAttribute('data-theme', t)", theme)
        page.screenshot(path=f"{SHOTS}/{name}-{theme}.png", full_page=False)
    page.evaluate("() => document.documentElement.setAttribute('data-theme', 'auto')")


def seconds_left(page: Any) -> int:
    text = page.locator("[data-timer-clock]").inner_text()
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def players(*names: str) -> list[int]:
    owner = User.objects.get(username="ana")
    ana = Player.objects.get(user=owner)
    return [ana.pk, *(Player.objects.create(name=n, created_by=owner).pk for n in names)]


def test_the_timer_is_the_same_on_both_phones_and_survives_a_reload(
    events: str, signed_in_page: Any, browser: Any, live_server: Any
) -> None:
    first = signed_in_page()
    first.set_viewport_size({"width": 360, "height": 740})
    owner = User.objects.get(username="ana")
    game = game_create(
        owner=owner, ruleset="dirty-deals", players=players("Bo", "Cy", "Di"),
        options={"negotiation_minutes": 2},
    )  # fmt: skip
    url = f"{live_server.url}/games/{game.pk}/"
    second = phone(browser)
    join(second, live_server, game, "watch")
    problems = watch(first) + watch(second)
    first.goto(url)
    open_tools(first)
    open_tools(second)
    expect(second.locator("html")).to_have_attribute("data-live", "events", timeout=15_000)
    expect(first.locator("[data-timer-clock]")).to_have_text("2:00")
    expect(second.locator("[data-timer-clock]")).to_have_text("2:00")
    # A watch phone sees the timer but has no buttons.
    expect(second.get_by_role("button", name="Start negotiation timer")).to_have_count(0)

    first.get_by_role("button", name="Start negotiation timer").click()
    expect(first.locator("[data-timer-status]")).to_have_text("Running")
    expect(second.locator("[data-timer-status]")).to_have_text("Running", timeout=15_000)
    first.wait_for_timeout(2500)
    a, b = seconds_left(first), seconds_left(second)
    assert abs(a - b) <= 1, (a, b)
    assert 110 <= a <= 118, a

    # Who leads: said on one phone, shown on the other.
    first.locator("[data-leader-select]").select_option(label="Cy")
    expect(second.locator("[data-leader-name]")).to_have_text("Cy", timeout=15_000)
    shot(first, "timer-phone")
    shot(second, "timer-watch")

    second.reload()
    expect(second.locator("[data-timer-status]")).to_have_text("Running")
    assert abs(seconds_left(second) - seconds_left(first)) <= 1

    first.get_by_role("button", name="Pause negotiation timer").click()
    expect(second.locator("[data-timer-status]")).to_have_text("Paused", timeout=15_000)
    paused = seconds_left(first)
    second.wait_for_timeout(1500)
    assert abs(seconds_left(second) - paused) <= 1
    expect(first.get_by_role("button", name="Resume negotiation timer")).to_be_visible()
    first.get_by_role("button", name="Reset negotiation timer").click()
    expect(second.locator("[data-timer-clock]")).to_have_text("2:00", timeout=15_000)
    assert problems == []
    close_context(second.context)


def _two_phones(signed_in_page: Any, browser: Any, live_server: Any) -> tuple[Any, Any, Any]:
    """The owner's phone (360 px, signed in) and a second one joined by a score link, at
    a new Dirt game (not opened yet)."""
    first = signed_in_page()
    first.set_viewport_size({"width": 360, "height": 740})
    owner = User.objects.get(username="ana")
    game = game_create(owner=owner, ruleset="dirt", players=players("Bo", "Cy"))
    second = phone(browser)
    join(second, live_server, game, "score")
    return first, second, game


def test_the_draw_penalty_and_direction_are_shared(
    events: str, signed_in_page: Any, browser: Any, live_server: Any
) -> None:
    first, second, game = _two_phones(signed_in_page, browser, live_server)
    problems = watch(first) + watch(second)
    first.goto(f"{live_server.url}/games/{game.pk}/")
    open_tools(first)
    open_tools(second)
    expect(second.locator("html")).to_have_attribute("data-live", "events", timeout=15_000)
    first.get_by_role("button", name="+ Joker (5)").click()
    first.get_by_role("button", name="+ Dirt 6 (6)").click()
    expect(first.locator("[data-penalty-count]")).to_have_text("11")
    expect(second.locator("[data-penalty-count]")).to_have_text("11", timeout=15_000)
    second.get_by_role("button", name=re.compile("Reverse direction")).click()
    expect(first.locator("[data-direction]")).to_contain_text("counter-clockwise", timeout=15_000)
    shot(second, "penalty-phone")
    second.get_by_role("button", name="Drawn — clear").click()
    expect(first.locator("[data-penalty-count]")).to_have_text("0", timeout=15_000)
    assert problems == []
    close_context(second.context)


def test_the_red_aces_check_answers_at_once(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    page.set_viewport_size({"width": 360, "height": 740})
    owner = User.objects.get(username="ana")
    game = game_create(owner=owner, ruleset="screw-your-neighbour", players=players("Bo", "Cy"))
    page.goto(f"{live_server.url}/games/{game.pk}/")
    open_tools(page)
    verdict = page.locator("[data-red-aces-verdict]")
    page.locator("[data-red-aces-count]").fill("2")
    expect(verdict).to_contain_text("Red aces are live")
    page.locator("[data-red-aces-count]").fill("-3")
    expect(verdict).to_contain_text("not live")
    page.get_by_role("button", name="One more").click()
    expect(verdict).to_contain_text("Red aces are live for the dealer this hand (2 short)")
    page.locator("#table-tools").scroll_into_view_if_needed()
    shot(page, "red-aces-phone")
    # Offline it answers just the same: it never asks the server.
    page.context.set_offline(True)
    page.locator("[data-red-aces-count]").fill("7")
    expect(verdict).to_contain_text("not live")
    page.context.set_offline(False)


def test_the_table_display_follows_a_hand_saved_on_a_phone(
    events: str, signed_in_page: Any, browser: Any, live_server: Any
) -> None:
    first = signed_in_page()
    first.set_viewport_size({"width": 360, "height": 740})
    owner = User.objects.get(username="ana")
    game = game_create(
        owner=owner, ruleset="screw-your-neighbour", players=players("Bo", "Cy"),
        options={"target_wins": 0},
    )  # fmt: skip
    tv = phone(browser, 1280, 720)
    join(tv, live_server, game, "watch")
    problems = watch(first) + watch(tv)
    tv.goto(f"{live_server.url}/games/{game.pk}/display/")
    expect(tv.locator("html")).to_have_attribute("data-live", "events", timeout=15_000)
    expect(tv.locator(".display-hand-number")).to_contain_text("Hand 1")
    # The events server (SQLite: a version poll a second) first learns of the game.
    tv.wait_for_timeout(1500)
    first.goto(f"{live_server.url}/games/{game.pk}/")
    first.locator("#entry .winner-button").filter(has_text="Cy").click()
    expect(first.locator(".hand-row[data-hand='1']")).to_be_visible()
    expect(tv.locator(".display-hand-number")).to_contain_text("Hand 2", timeout=15_000)
    expect(tv.locator(".board-line.leader .board-name")).to_contain_text("Cy")
    assert tv.evaluate("document.documentElement.scrollWidth") <= 1280
    shot(tv, "display")
    assert problems == []
    close_context(tv.context)


def test_the_dirty_deals_display_shows_the_timer(
    events: str, signed_in_page: Any, browser: Any, live_server: Any
) -> None:
    first = signed_in_page()
    owner = User.objects.get(username="ana")
    game = game_create(owner=owner, ruleset="dirty-deals", players=players("Bo", "Cy", "Di"))
    first.goto(f"{live_server.url}/games/{game.pk}/display/")
    first.set_viewport_size({"width": 1280, "height": 720})
    expect(first.locator("[data-timer-clock]")).to_have_text("3:00")
    expect(first.get_by_role("button", name="Start negotiation timer")).to_have_count(0)
    shot(first, "display-deals")


def test_the_timer_counts_on_offline_and_a_pause_kept_offline_reaches_the_table(
    events: str, signed_in_page: Any, browser: Any, live_server: Any
) -> None:
    first = signed_in_page()
    first.set_viewport_size({"width": 360, "height": 740})
    owner = User.objects.get(username="ana")
    game = game_create(owner=owner, ruleset="dirty-deals", players=players("Bo", "Cy", "Di"))
    second = phone(browser)
    join(second, live_server, game, "watch")
    first.goto(f"{live_server.url}/games/{game.pk}/")
    open_tools(first)
    expect(second.locator("html")).to_have_attribute("data-live", "events", timeout=15_000)
    first.get_by_role("button", name="Start negotiation timer").click()
    expect(second.locator("[data-timer-status]")).to_have_text("Running", timeout=15_000)

    first.context.set_offline(True)
    before = seconds_left(first)
    first.wait_for_timeout(2200)
    assert seconds_left(first) <= before - 1  # it counts on with no connection
    first.get_by_role("button", name="Pause negotiation timer").click()
    expect(first.locator("[data-timer-status]")).to_have_text("Paused")
    expect(first.locator("[data-tools-sync]")).to_contain_text("kept on this phone")
    expect(second.locator("[data-timer-status]")).to_have_text("Running")

    first.context.set_offline(False)
    first.evaluate("window.dispatchEvent(new Event('online'))")
    expect(second.locator("[data-timer-status]")).to_have_text("Paused", timeout=15_000)
    expect(first.locator("[data-tools-sync]")).to_be_hidden()
    close_context(second.context)


def test_the_tools_follow_another_phone_and_a_hand_without_asking_for_them_again(
    events: str, signed_in_page: Any, browser: Any, live_server: Any
) -> None:
    """Dirt on two phones: the page brings the tools' state, the stream's hello says it
    is current (no request for it), a tap on one phone is read once by the other (on
    the stream's "tools" event), and a hand saved brings the new hand's tools with the
    live answer: no request for them after it."""
    first = signed_in_page()
    first.set_viewport_size({"width": 360, "height": 740})
    owner = User.objects.get(username="ana")
    seats = players("Bo", "Cy")
    game = game_create(owner=owner, ruleset="dirt", players=seats)
    second = phone(browser)
    join(second, live_server, game, "score")
    asked: list[str] = []
    second.on("request", lambda r: asked.append(r.url) if "/table/" in r.url else None)
    problems = watch(first) + watch(second)
    first.goto(f"{live_server.url}/games/{game.pk}/")
    second.goto(f"{live_server.url}/games/{game.pk}/")
    open_tools(first)
    open_tools(second)
    expect(second.locator("html")).to_have_attribute("data-live", "events", timeout=15_000)
    expect(second.locator("[data-penalty-count]")).to_have_text("0")
    second.wait_for_timeout(2500)  # the hello came, and the events server's first round
    assert asked == [], asked

    first.get_by_role("button", name="+ Joker (5)").click()
    expect(second.locator("[data-penalty-count]")).to_have_text("5", timeout=15_000)
    first.get_by_role("button", name=re.compile("Reverse direction")).click()
    expect(second.locator("[data-direction]")).to_contain_text("counter-clockwise", timeout=15_000)
    asked_for_taps = len(asked)
    assert 1 <= asked_for_taps <= 2, asked

    # A hand saved elsewhere: the live answer brings the next hand's tools.
    from scorekeeper.services.games import hand_record

    ana, bo, cy = seats
    hand_record(
        game=game, user=owner,
        hand_input={"winner": ana, "results": [
            {"player": bo, "points": 10}, {"player": cy, "points": 20}]},
    )  # fmt: skip
    expect(second.locator(".hand-row[data-hand='1']")).to_be_visible(timeout=15_000)
    expect(second.locator("[data-penalty-count]")).to_have_text("0")
    expect(second.locator("[data-direction]")).to_contain_text("clockwise ↻")
    expect(second.get_by_role("button", name="+ Dirt 4 (4)")).to_be_visible()
    second.wait_for_timeout(2000)
    assert len(asked) == asked_for_taps, asked  # nothing asked after the live answer
    assert problems == []
    close_context(second.context)


def test_a_server_shedding_load_is_asked_again_only_after_its_retry_after(
    signed_in_page: Any, live_server: Any
) -> None:
    """No events server: the sheet polls its live answer; answered 503 with
    Retry-After: 4 (a server shedding load), the phone asks again no sooner."""
    page = signed_in_page()
    owner = User.objects.get(username="ana")
    game = game_create(owner=owner, ruleset="dirt", players=players("Bo", "Cy"))
    times: list[float] = []

    def shed(route: Any) -> None:
        times.append(time.monotonic())
        route.fulfill(status=503, headers={"Retry-After": "4"}, body="busy")

    page.route(re.compile(rf"/games/{game.pk}/live/"), shed)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    deadline = time.monotonic() + 30
    while len(times) < 3 and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    assert len(times) >= 3, times
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert all(gap >= 3.9 for gap in gaps), gaps


def test_a_tools_read_refused_while_streaming_is_made_again_after_its_retry_after(
    events: str, signed_in_page: Any, browser: Any, live_server: Any
) -> None:
    """A tap's "tools" event makes the other phone read the tools just as the app sheds
    load (503, Retry-After: 2): it reads them again no sooner, while its stream holds,
    and shows the tap; before, it kept the old state until the next tap."""
    first, second, game = _two_phones(signed_in_page, browser, live_server)
    reads: list[float] = []

    def shed_the_first(route: Any) -> None:
        if route.request.method != "GET":
            route.continue_()
            return
        reads.append(time.monotonic())
        if len(reads) == 1:
            route.fulfill(status=503, headers={"Retry-After": "2"}, body="busy")
        else:
            route.continue_()

    first.goto(f"{live_server.url}/games/{game.pk}/")
    second.goto(f"{live_server.url}/games/{game.pk}/")
    open_tools(first)
    open_tools(second)
    expect(second.locator("html")).to_have_attribute("data-live", "events", timeout=15_000)
    second.route(re.compile(rf"/games/{game.pk}/table/"), shed_the_first)
    first.get_by_role("button", name="+ Joker (5)").click()
    expect(second.locator("[data-penalty-count]")).to_have_text("5", timeout=20_000)
    expect(second.locator("html")).to_have_attribute("data-live", "events")
    assert len(reads) == 2, reads
    assert reads[1] - reads[0] >= 2.0, reads  # not before its Retry-After
    close_context(second.context)


def _stream_saying(page: Any, *events: tuple[str, dict[str, Any]]) -> None:
    """The page's event stream, routed: these events, then the stream ends (reopened a
    minute later)."""
    body = "retry: 60000\n" + "".join(
        f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"
        for name, data in events
    )

    def fulfil(route: Any) -> None:
        route.fulfill(
            status=200,
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"},
            body=body,
        )

    page.route("**/events/**", fulfil)


def _said(version: int, hand: int, penalty: int) -> dict[str, Any]:
    """What a tap's event says the Dirt tools are (``selectors.table.shared_of``)."""
    return {
        "revision": 1, "server_now": int(time.time() * 1000), "hand": hand, "timer": None,
        "penalty": penalty, "clockwise": False, "leader": None, "version": version,
    }  # fmt: skip


@pytest.mark.parametrize("hand_saved_first", [False, True])
def test_a_taps_event_brings_the_tools_to_the_other_phones_without_a_read(
    events: str, signed_in_page: Any, live_server: Any, hand_saved_first: bool
) -> None:
    """A tap's "tools" event says what the tools now are: the phone shows it and reads
    nothing. A hand saved just before the tap (the event is for the version after the
    one shown): the phone waits for the hand's live answer, which brings tools older
    than the tap, and then shows the event's. (Nothing was tapped in the database: only
    the event can show a penalty of 7.)"""
    page = signed_in_page()
    page.set_viewport_size({"width": 360, "height": 740})
    owner = User.objects.get(username="ana")
    ana, bo, cy = players("Bo", "Cy")
    game = game_create(owner=owner, ruleset="dirt", players=[ana, bo, cy])
    version = Game.objects.get(pk=game.pk).version
    said: list[tuple[str, dict[str, Any]]] = [("hello", {"v": version, "r": 0})]
    if hand_saved_first:
        hand_record(
            game=game, user=owner,
            hand_input={"winner": ana, "results": [
                {"player": bo, "points": 10}, {"player": cy, "points": 20}]},
        )  # fmt: skip
        said.append(("change", {"v": version + 1, "from": 1}))
        said.append(("tools", {"r": 1, "s": _said(version + 1, 2, 7)}))
    else:
        said.append(("tools", {"r": 1, "s": _said(version, 1, 7)}))
    reads: list[str] = []
    page.on("request", lambda r: reads.append(r.url) if "/table/" in r.url else None)
    _stream_saying(page, *said)
    problems = watch(page)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    open_tools(page)
    expect(page.locator("[data-penalty-count]")).to_have_text("7", timeout=15_000)
    assert reads == [], reads
    expect(page.locator("[data-direction]")).to_contain_text("counter-clockwise")
    if hand_saved_first:
        expect(page.locator(".hand-row[data-hand='1']")).to_be_visible()
    assert problems == []
