"""The sheet on a small phone (360×740): Save always on screen, one pad open at a time,
and a scoreboard that keeps the leader in view however many sit at the table.

Set ``SCOREKEEPER_SCREENSHOTS=/some/dir`` to keep screenshots of every game at 4 and 8
players (the viewport at the top, at the entry, and the whole page)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import Hand, Player
from scorekeeper.services.games import game_create, hand_record
from tests.browser.closing import close_context
from tests.browser.sheet_ui import (
    counted,
    no_sideways_scroll,
    pad,
    save,
    start_game,
    watch,
    went_out,
)

SMALL = {"width": 360, "height": 740}
EIGHT = [
    "Ana",
    "Bartholomew",
    "Clementine",
    "Dimitrios",
    "Evangeline",
    "Fitzgerald",
    "Genevieve",
    "Hieronymus",
]


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A small phone: 360×740, the size the sheet must fit."""
    ctx = browser.new_context(viewport=SMALL, device_scale_factor=2, is_mobile=True, has_touch=True)
    ctx.set_default_timeout(10_000)
    yield ctx
    close_context(ctx)


def snap(page: Any, name: str, *, full: bool = False) -> None:
    folder = os.environ.get("SCOREKEEPER_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=full)


def on_screen(page: Any, locator: Any) -> dict[str, float]:
    """The box of ``locator``, asserted to lie wholly inside the viewport."""
    box = locator.bounding_box()
    assert box is not None, "not rendered"
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    assert box["x"] >= 0, box
    assert box["x"] + box["width"] <= width, box
    assert box["y"] >= 0, box
    assert box["y"] + box["height"] <= height + 0.5, box
    return dict(box)


TOUCH = (
    "#entry button, #entry summary, #entry a.button, #entry .chip-radio > span, "
    "#entry .suit-radio > span, #entry .card-check > span, "
    "#entry input:not([type=hidden]):not([type=radio]):not([type=checkbox])"
)
SMALL_PARTS = """(selector) => {
    const small = [];
    for (const el of document.querySelectorAll(selector)) {
        const box = el.getBoundingClientRect();
        if (!box.width || !box.height) continue;  // not shown
        if (box.width >= 43.5 && box.height >= 43.5) continue;
        const name = el.className || el.tagName;
        small.push(`${name} ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
    return small;
}"""
TINY_TEXT = """(selector) => {
    const tiny = [];
    for (const el of document.querySelectorAll(selector)) {
        for (const node of el.querySelectorAll("*")) {
            const own = [...node.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
            if (!own || !node.getClientRects().length) continue;
            if (node.closest(".visually-hidden")) continue;
            const size = parseFloat(getComputedStyle(node).fontSize);
            if (size < 14) tiny.push(`${node.className || node.tagName} ${size}px`);
        }
    }
    return tiny;
}"""


def fits_a_finger(page: Any) -> None:
    """What is tapped in the entry is at least 44×44 px; the text there, the save bar and
    the scoreboard read at 14 px or more."""
    assert page.evaluate(SMALL_PARTS, TOUCH) == []
    assert page.evaluate(TINY_TEXT, "#entry, .scoreboard") == []


def save_on_screen(page: Any) -> None:
    on_screen(page, page.locator("#entry .savebar .entry-save"))


def between_the_bars(page: Any, locator: Any) -> None:
    """Wholly visible: below the sticky top bar and above the save bar (once the page
    has settled: the pad's scroll into view follows its opening)."""
    for _ in range(30):
        box = locator.bounding_box()
        top = page.locator(".topbar").bounding_box()
        bar = page.locator("#entry .savebar").bounding_box()
        assert box is not None
        assert top is not None
        assert bar is not None
        below_top = box["y"] >= top["y"] + top["height"] - 0.5
        above_bar = box["y"] + box["height"] <= bar["y"] + 0.5
        if below_top and above_bar:
            return
        page.wait_for_timeout(100)
    assert below_top, (box, top)
    assert above_bar, (box, bar)


def test_an_eight_player_dirt_hand_with_save_on_screen(
    signed_in_page: Any, live_server: Any
) -> None:
    page = signed_in_page()
    problems = watch(page)
    url = start_game(page, live_server, "dirt", EIGHT)
    no_sideways_scroll(page)
    save_on_screen(page)
    expect(page.locator("#entry .savebar")).to_contain_text("Hand 1")

    # Every pad is folded to its line until someone went out.
    page.locator("#entry").scroll_into_view_if_needed()
    save_on_screen(page)
    expect(page.locator("#entry .pad")).to_have_count(8)
    expect(page.locator("#entry .pad[open]")).to_have_count(0)
    snap(page, "layout-dirt-8-folded")

    went_out(page, "Clementine")
    save_on_screen(page)
    expect(pad(page, "Ana")).to_have_attribute("open", "")
    expect(page.locator("#entry .pad[open]")).to_have_count(1)
    expect(pad(page, "Clementine").locator(".pad-sum")).to_have_text("went out")

    # Dirt rank 6: a 6 scores 25, an ace 15, a joker 50, J Q K 10 score 1.
    hands = {
        "Ana": ["6", "A"],
        "Bartholomew": ["K"],
        "Dimitrios": ["JK"],
        "Evangeline": ["2", "3"],
        "Fitzgerald": ["10"],
        "Genevieve": ["Q", "Q"],
        "Hieronymus": ["9"],
    }
    start = page.evaluate("window.scrollY")
    for name, keys in hands.items():
        # "Next" opened this pad, whole, between the top bar and the save bar: no
        # scrolling needed to tap its cards.
        expect(pad(page, name)).to_have_attribute("open", "")
        expect(page.locator("#entry .pad[open]")).to_have_count(1)
        between_the_bars(page, pad(page, name))
        for key in keys:
            pad(page, name).locator(f".pad-key[data-key='{key}']").click()
            save_on_screen(page)
        if name == "Ana":
            snap(page, "layout-dirt-8-pad-open")
            fits_a_finger(page)
        pad(page, name).locator(".pad-next").click()
        save_on_screen(page)
    # After the last pad, "Done" folds it: all eight are one line each.
    expect(page.locator("#entry .pad[open]")).to_have_count(0)
    # The whole hand moved the page by less than one screen.
    assert page.evaluate("window.scrollY") - start < SMALL["height"]

    # The folded lines say what was entered, and so does the save bar.
    expect(pad(page, "Ana").locator(".pad-points")).to_have_text("40 pts")
    expect(pad(page, "Ana").locator(".pad-points")).to_be_visible()
    expect(pad(page, "Ana").locator(".pad-sum")).to_have_text("6 A")
    expect(pad(page, "Genevieve").locator(".pad-points")).to_have_text("2 pts")
    expect(page.locator("#entry .savebar-hand")).to_have_text("Hand 1")
    expect(page.locator("#entry .savebar-points")).to_have_text(
        "Ana 40 · Bartholomew 1 · Clementine out · Dimitrios 50 · Evangeline 5 · "
        "Fitzgerald 1 · Genevieve 2 · Hieronymus 9"
    )
    snap(page, "layout-dirt-8-entered")

    # Tapping a folded line opens that pad again (and only it) to correct it.
    pad(page, "Dimitrios").locator("summary").click()
    expect(page.locator("#entry .pad[open]")).to_have_count(1)
    pad(page, "Dimitrios").locator(".chip").first.click()
    pad(page, "Dimitrios").locator(".pad-key[data-key='A']").click()
    save_on_screen(page)
    expect(page.locator("#entry .savebar-points")).to_contain_text("Dimitrios 15")

    save(page, 1)
    game_id = int(re.findall(r"/games/(\d+)/", url)[-1])
    hand = Hand.objects.get(game_id=game_id, number=1)
    names = dict(Player.objects.values_list("id", "name"))
    assert names[hand.input["winner"]] == "Clementine"
    assert {names[r["player"]]: r["cards"] for r in hand.input["results"]} == {
        "Ana": ["6", "A"],
        "Bartholomew": ["K"],
        "Dimitrios": ["A"],
        "Evangeline": ["2", "3"],
        "Fitzgerald": ["10"],
        "Genevieve": ["Q", "Q"],
        "Hieronymus": ["9"],
    }
    # The next hand's bar is there at once, and the scoreboard puts the winner first.
    save_on_screen(page)
    expect(page.locator("#entry .savebar")).to_contain_text("Hand 2")
    expect(page.locator(".board-line").first).to_contain_text("Clementine")
    assert not problems, problems


def seat(owner: User, names: list[str]) -> list[int]:
    own = Player.objects.get(user=owner)
    return [own.pk] + [Player.objects.create(name=n, created_by=owner).pk for n in names[1:]]


def test_the_scoreboard_keeps_the_leader_in_view(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    problems = watch(page)
    owner = User.objects.get(username="ana")
    ids = seat(owner, EIGHT)
    game = game_create(owner=owner, ruleset="dirt", players=ids)
    # Hieronymus, in the last seat, went out both times: lowest total, first place.
    for hand in range(2):
        hand_record(
            game=game,
            user=owner,
            hand_input={
                "winner": ids[-1],
                "results": [
                    {"player": p, "points": 10 + 3 * i + hand} for i, p in enumerate(ids[:-1])
                ],
            },
        )
    page.goto(f"{live_server.url}/games/{game.pk}/")
    no_sideways_scroll(page)
    lines = page.locator(".board-line")
    expect(lines).to_have_count(8)
    expect(lines.first).to_contain_text("1st")
    expect(lines.first).to_contain_text("Hieronymus")
    expect(lines.first.locator(".board-number")).to_have_text("0")
    expect(lines.first.locator(".board-need")).to_have_text("leads by 21")
    expect(lines.nth(1)).to_contain_text("Ana")
    expect(lines.nth(1).locator(".board-need")).to_have_text("21 behind")
    expect(lines.last).to_contain_text("Genevieve")
    expect(page.locator(".scoreboard-title")).to_contain_text("After hand 2 of 6 · 4 hands left")
    page.locator(".scoreboard").scroll_into_view_if_needed()
    on_screen(page, lines.first)
    on_screen(page, lines.first.locator(".board-number"))
    # The grid still scrolls sideways below it: its last column starts off screen.
    last = page.locator(".score-grid thead th").last.bounding_box()
    assert last is not None
    assert last["x"] > SMALL["width"]
    snap(page, "layout-scoreboard-dirt-8")
    assert not problems, problems


def results(ruleset: str, ids: list[int], hand: int) -> dict[str, Any]:
    """A plausible hand for each game, with the last seat doing best."""
    winner = ids[-1]
    others = ids[:-1]
    if ruleset in ("dirt", "dirty-uno"):
        pts = [{"player": p, "points": 5 + 7 * i + hand} for i, p in enumerate(others)]
        if ruleset == "dirty-uno":
            pts = [{"player": p, "points": 20 + i} for i, p in enumerate(others)]
        return {"winner": winner, "results": pts}
    if ruleset == "damn-you":
        rows = [{"player": p, "passes": 1, "cards_left": 2 + i % 3} for i, p in enumerate(others)]
        rows.append({"player": winner, "passes": 0, "cards_left": 0})
        return {"winner": winner, "results": rows}
    if ruleset == "dirty-deals":
        return {"winner": winner, "suit": "H", "surplus": ["9C"], "bower_holder": ids[0]}
    return {"winner": winner}


@pytest.mark.parametrize(
    ("ruleset", "players", "need"),
    [
        ("dirt", 4, "behind"),
        ("dirt", 8, "behind"),
        ("dirty-uno", 4, "to pass 500"),
        ("dirty-uno", 8, "to pass 500"),
        ("damn-you", 4, "chips"),
        ("damn-you", 8, "chips"),
        ("screw-your-neighbour", 4, "needs 3 more wins"),
        ("screw-your-neighbour", 8, "needs 3 more wins"),
        ("dirty-deals", 4, "needs 9 more for the rubber"),
    ],
)
def test_every_game_fits_a_small_phone(
    signed_in_page: Any, live_server: Any, ruleset: str, players: int, need: str
) -> None:
    page = signed_in_page()
    problems = watch(page)
    owner = User.objects.get(username="ana")
    ids = seat(owner, EIGHT[:players])
    game = game_create(owner=owner, ruleset=ruleset, players=ids)
    hand_record(game=game, user=owner, hand_input=results(ruleset, ids, 1))
    page.goto(f"{live_server.url}/games/{game.pk}/")
    name = f"layout-{ruleset}-{players}"
    snap(page, f"{name}-top")
    snap(page, f"{name}-page", full=True)
    no_sideways_scroll(page)

    # The leader (the last seat) is first on the scoreboard, whole, without scrolling
    # sideways; every line says what that player needs.
    first = page.locator(".board-line").first
    expect(first).to_contain_text(EIGHT[players - 1])
    expect(page.locator(".board-line")).to_have_count(players)
    expect(page.locator(".board-need").last).to_contain_text(need)
    first.scroll_into_view_if_needed()
    on_screen(page, first)
    fits_a_finger(page)

    if ruleset == "screw-your-neighbour":
        # The winner buttons save; while they are off screen the bar leads to them.
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        jump = page.locator("#entry .savebar-go")
        expect(jump).to_be_in_viewport(ratio=1)
        on_screen(page, jump)
        jump.click()
        expect(page.locator("#entry .savebar-jump")).to_have_class(re.compile("is-away"))
        on_screen(page, page.locator("#entry .winner-button").last)
        snap(page, f"{name}-entry")
    else:
        save_on_screen(page)
        page.locator("#entry-heading").scroll_into_view_if_needed()
        save_on_screen(page)
        snap(page, f"{name}-entry")
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        save_on_screen(page)
        # Nothing hides behind the bar at the very bottom of the page.
        actions = page.locator("#sheet-actions .button").last
        bar = page.locator("#entry .savebar").bounding_box()
        box = actions.bounding_box()
        assert bar is not None
        assert box is not None
        assert box["y"] + box["height"] <= bar["y"], (box, bar)
    snap(page, f"{name}-page", full=True)
    assert not problems, problems


def test_without_script_every_pad_is_open_and_the_hand_saves(
    browser: Any, live_server: Any, transactional_db: None
) -> None:
    from scorekeeper.services.players import player_create

    ctx = browser.new_context(viewport=SMALL, java_script_enabled=False)
    ctx.set_default_timeout(10_000)
    page = ctx.new_page()
    owner = User.objects.create_user("ana", password="table-talk-42")
    player_create(name="Ana", created_by=owner, user=owner)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "ana")
    page.fill("#id_password", "table-talk-42")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    ids = seat(owner, EIGHT)
    game = game_create(owner=owner, ruleset="dirt", players=ids)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    no_sideways_scroll(page)

    # Every pad open, with its typed field; the save bar holds the bottom of the screen.
    expect(page.locator("#entry .pad[open]")).to_have_count(8)
    save_on_screen(page)
    page.locator("#entry .winner-pick .chip-radio").filter(has_text="Clementine").click()
    typed = {name: "K" for name in EIGHT if name != "Clementine"}
    typed["Ana"] = "6H A"
    for pid, name in zip(ids, EIGHT, strict=True):
        if name in typed:
            page.fill(f"#cards_{pid}", typed[name])
    save_on_screen(page)
    page.locator("#entry .entry-save").click()
    expect(page.locator(".hand-row[data-hand='1']")).to_be_visible()
    hand = Hand.objects.get(game=game, number=1)
    names = dict(zip(ids, EIGHT, strict=True))
    assert {names[r["player"]]: r["cards"] for r in hand.input["results"]} == {
        name: cards.split() for name, cards in typed.items()
    }
    close_context(ctx)


# The phone's keyboard, played by a stand-in for ``window.visualViewport`` (a headless
# browser shows none): ``__keyboard(px)`` covers the bottom of the screen by that much.
FAKE_KEYBOARD = """(() => {
    const fake = new EventTarget();
    let covered = 0;
    Object.defineProperties(fake, {
        height: { get: () => window.innerHeight - covered },
        width: { get: () => window.innerWidth },
        offsetTop: { get: () => 0 }, offsetLeft: { get: () => 0 }, scale: { get: () => 1 },
    });
    Object.defineProperty(window, "visualViewport", { value: fake, configurable: true });
    window.__keyboard = (px) => { covered = px; fake.dispatchEvent(new Event("resize")); };
})();"""


def test_the_save_bar_rises_above_the_keyboard(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    problems = watch(page)
    page.add_init_script(FAKE_KEYBOARD)
    url = start_game(page, live_server, "dirt", EIGHT[:4])
    went_out(page, "Bartholomew")
    expect(pad(page, "Ana")).to_have_attribute("open", "")
    pad(page, "Ana").locator(".mode-button[data-mode='points']").click()
    field = pad(page, "Ana").locator(".points-input")
    expect(field).to_be_focused()
    field.fill("12")
    page.evaluate("window.__keyboard(320)")
    keyboard_top = SMALL["height"] - 320
    bar = page.locator("#entry .savebar")
    expect(page.locator("html")).to_have_class(re.compile("keyboard-open"))
    box = bar.bounding_box()
    assert box is not None
    assert abs(box["y"] + box["height"] - keyboard_top) <= 1, box
    # The field being typed in is above the bar, and Save is above the keyboard.
    field_box = field.bounding_box()
    assert field_box is not None
    assert field_box["y"] + field_box["height"] <= box["y"], (field_box, box)
    expect(page.locator("#entry .savebar-points")).to_contain_text("Ana 12")
    snap(page, "layout-keyboard")

    # The keyboard goes away with the focus: the bar returns to the bottom.
    page.locator("#entry .winner-pick legend").click()
    page.evaluate("window.__keyboard(0)")
    expect(page.locator("html")).not_to_have_class(re.compile("keyboard-open"))
    save_on_screen(page)
    box = bar.bounding_box()
    assert box is not None
    assert abs(box["y"] + box["height"] - SMALL["height"]) <= 1, box
    for name in ("Clementine", "Dimitrios"):
        pad(page, name).locator("summary").click()
        pad(page, name).locator(".pad-key[data-key='K']").click()
    save(page, 1)
    game_id = int(re.findall(r"/games/(\d+)/", url)[-1])
    stored = Hand.objects.get(game_id=game_id, number=1).input["results"]
    names = dict(Player.objects.values_list("id", "name"))
    assert {names[r["player"]]: r.get("points", r.get("cards")) for r in stored} == {
        "Ana": 12,
        "Clementine": ["K"],
        "Dimitrios": ["K"],
    }
    assert not problems, problems


def test_after_save_the_next_hand_s_first_question_is_in_view(
    signed_in_page: Any, live_server: Any
) -> None:
    """Hand after hand with no scrolling back: after Save, the next hand's first
    question is on screen (below the top bar, above the save bar) and has the focus,
    and the save bar says what was saved for a while."""
    page = signed_in_page()
    problems = watch(page)
    url = start_game(page, live_server, "dirty-uno", ["Ana", "Bo", "Cy", "Di"])
    for number in (1, 2):
        went_out(page, "Ana")
        for name in ("Bo", "Cy", "Di"):
            counted(page, name, 10)
        save(page, number)
        question = page.locator("#entry fieldset").first
        expect(question.locator("legend")).to_have_text("Who went out?")
        box = question.bounding_box()
        bar = page.locator(".topbar").bounding_box()
        savebar = page.locator("#entry .savebar").bounding_box()
        assert box is not None
        assert bar is not None
        assert savebar is not None
        assert box["y"] >= bar["y"] + bar["height"] - 1  # not under the sticky top bar
        assert box["y"] + 40 <= savebar["y"]  # its first line above the save bar
        assert question.evaluate("el => el === document.activeElement")
        expect(page.locator("#entry .savebar-saved")).to_contain_text(f"Hand {number}")
        expect(page.locator("#entry .savebar-hand")).to_have_text(f"Hand {number + 1}")
    game_id = int(re.findall(r"/games/(\d+)/", url)[-1])
    assert Hand.objects.filter(game_id=game_id).count() == 2
    assert problems == []
