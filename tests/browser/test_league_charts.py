"""The league charts on a phone (360x740), light and dark: the rating race and the
head-to-head timeline draw inside the page (no sideways scroll), each line in its own
colour and ending in a name no other name covers.

Set ``SCOREKEEPER_SCREENSHOTS=/some/dir`` to keep a screenshot of each chart."""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import League, Player
from tests.scorekeeper.league_factories import play_syn

NAMES = ["Bo", "Cy", "Di", "Eve", "Finn", "Gus", "Hana", "Ivo", "Grandpa Joe Senior", "Kit"]
DAY = 24 * 60


def _seed(owner: User) -> tuple[League, list[Player]]:
    league = League.objects.create(name="Thursday table", owner=owner)
    players = [Player.objects.get(user=owner), *(
        Player.objects.create(name=n, created_by=owner) for n in NAMES
    )]  # fmt: skip
    n = len(players)
    for night in range(5):
        for k in range(3):
            start = (night * 3 + k) * 4
            table = [players[(start + s) % n] for s in range(4)]
            play_syn(
                owner, league, table, [table[(night * 2 + k) % 4]],
                minutes_ago=(6 - night) * DAY - k * 30,
            )  # fmt: skip
    return league, players


def _check_chart(page: Any, labels: int) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page is {width}px wide"
    figure = page.locator("figure.ch").first
    figure.scroll_into_view_if_needed()
    box = figure.bounding_box()
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= page.viewport_size["width"]
    found = page.evaluate(
        """() => {
          const svg = document.querySelector('figure.ch svg').getBoundingClientRect();
          const names = [...document.querySelectorAll('figure.ch .ch-label')].map(t => {
            const r = t.getBoundingClientRect();
            return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
          });
          const lines = [...document.querySelectorAll('figure.ch .ch-line')].map(
            l => getComputedStyle(l).stroke);
          return {svg: {left: svg.left, right: svg.right}, names, lines};
        }"""
    )
    names = sorted(found["names"], key=lambda r: r["top"])
    assert len(names) == labels
    for above, below in itertools.pairwise(names):
        assert above["bottom"] <= below["top"] + 1, (above, below)
    for r in names:
        assert r["right"] <= page.viewport_size["width"] + 0.5
        assert r["left"] >= found["svg"]["left"]
    # Every line its own colour.
    assert len(set(found["lines"])) == len(found["lines"]) == labels


def _shoot(page: Any, name: str) -> None:
    folder = os.environ.get("SCOREKEEPER_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.locator("figure.ch").first.screenshot(path=str(Path(folder) / f"{name}.png"))


def test_league_charts_fit_a_phone_in_both_themes(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    page.set_viewport_size({"width": 360, "height": 740})
    league, players = _seed(User.objects.get(username="ana"))
    pages = {
        "race": (f"/leagues/{league.pk}/", 10),
        "timeline": (f"/leagues/{league.pk}/head-to-head/?a={players[0].pk}&b={players[1].pk}", 2),
    }
    strokes: dict[str, list[str]] = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for name, (url, labels) in pages.items():
            page.goto(f"{live_server.url}{url}")
            _check_chart(page, labels)
            _shoot(page, f"chart-{name}-{scheme}")
            strokes.setdefault(name, []).append(
                page.evaluate("getComputedStyle(document.querySelector('.ch-line')).stroke")
            )
    # The dark theme draws the same players in its own (lighter) colours.
    for light, dark in strokes.values():
        assert light != dark


def _axe(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    result = Axe().run(page, options={"rules": {"label-content-name-mismatch": {"enabled": True}}})
    return [
        f"{v['id']}: {[n['target'] for n in v['nodes']][:5]}" for v in result.response["violations"]
    ]


def _faded(page: Any) -> list[str]:
    """The series drawn faded (their opacity), by index, on the first chart."""
    return page.evaluate(
        """() => [...document.querySelectorAll('figure.ch .ch-series')]
            .filter(g => parseFloat(getComputedStyle(g).opacity) < 0.5)
            .map(g => g.dataset.series)"""
    )


def test_a_tap_on_the_key_brings_one_line_forward(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    page.set_viewport_size({"width": 360, "height": 740})
    league, _ = _seed(User.objects.get(username="ana"))
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.goto(f"{live_server.url}/leagues/{league.pk}/")
        key = page.locator("figure.ch .ch-key-item")
        assert key.count() == 10
        # The key wraps inside the page, every name in full.
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        names = page.locator("figure.ch .ch-key-name").all_inner_texts()
        assert "Grandpa Joe Senior" in names
        for i in range(key.count()):
            box = key.nth(i).bounding_box()
            assert box is not None
            assert box["x"] >= 0
            assert box["x"] + box["width"] <= 360
        # Every end label in its line's colour (no two alike).
        fills = page.evaluate(
            "[...document.querySelectorAll('figure.ch .ch-label')]"
            ".map(t => getComputedStyle(t).fill)"
        )
        assert len(set(fills)) == 10
        grandpa = key.filter(has_text="Grandpa Joe Senior")
        series = grandpa.get_attribute("data-series")
        grandpa.click()
        expect(page.locator("figure.ch .ch-series")).to_have_count(10)
        page.wait_for_timeout(250)  # the fade's transition
        faded = _faded(page)
        assert len(faded) == 9
        assert series not in faded
        assert grandpa.get_attribute("aria-pressed") == "true"
        # Drawn last: in front of the others.
        last = page.evaluate(
            "[...document.querySelectorAll('figure.ch .ch-series')].pop().dataset.series"
        )
        assert last == series
        _shoot(page, f"chart-race-focus-{scheme}")
        assert _axe(page) == []
        # Again: all alike.
        grandpa.click()
        page.locator("h1").first.click()
        page.wait_for_timeout(250)
        assert _faded(page) == []
        # By keyboard: Tab onto an entry previews its line; Enter keeps it.
        key.first.focus()
        page.wait_for_timeout(250)
        assert len(_faded(page)) == 9
        page.keyboard.press("Enter")
        assert key.first.get_attribute("aria-pressed") == "true"
        page.keyboard.press("Escape")
        assert key.first.get_attribute("aria-pressed") == "false"


def test_the_head_to_head_table_fits_or_scrolls_with_a_cue(
    signed_in_page: Any, live_server: Any
) -> None:
    from tests.scorekeeper.league_factories import seed_league

    page = signed_in_page()
    page.set_viewport_size({"width": 360, "height": 740})
    owner = User.objects.get(username="ana")
    league = League.objects.create(name="Thursday table", owner=owner)
    players = [Player.objects.get(user=owner), *(
        Player.objects.create(name=n, created_by=owner)
        for n in ("Cy", "Di", "Grandpa Joe Senior", "Eve")
    )]  # fmt: skip
    seed_league(owner, league, players, 20)
    # Ana and Grandpa: rivals at Screw Your Neighbour and at Partner Dirt.
    url = f"/leagues/{league.pk}/head-to-head/?a={players[0].pk}&b={players[3].pk}"
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.goto(f"{live_server.url}{url}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        wrap = page.locator(".lg-h2h-wrap")
        assert wrap.count() == 1, page.locator("main").inner_text()
        wrap.scroll_into_view_if_needed()
        box = wrap.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 360
        ties = page.locator(".lg-h2h-table th", has_text="Ties")
        ties_box = ties.bounding_box()
        assert ties_box is not None
        fits = ties_box["x"] + ties_box["width"] <= box["x"] + box["width"] + 0.5
        if not fits:
            # It scrolls: the box says so (a visible cue) and scrolling shows the column.
            assert page.locator(".lg-h2h-cue").is_visible()
            cue = page.locator(".lg-h2h-cue").bounding_box()
            assert cue is not None
            assert cue["x"] + cue["width"] <= 360
            if folder := os.environ.get("SCOREKEEPER_SCREENSHOTS"):
                page.screenshot(path=str(Path(folder) / f"h2h-page-{scheme}.png"))
            wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")
            ties_box = ties.bounding_box()
            assert ties_box is not None
            assert ties_box["x"] + ties_box["width"] <= box["x"] + box["width"] + 0.5
            # At the end: the cue is gone.
            expect(page.locator(".lg-h2h-cue")).to_be_hidden()
        folder = os.environ.get("SCOREKEEPER_SCREENSHOTS")
        if folder:
            wrap.evaluate("w => { w.scrollLeft = 0; }")
            page.locator(".lg-h2h-wrap").screenshot(path=str(Path(folder) / f"h2h-{scheme}.png"))
