"""The players' page on a 360 px phone: rename a player and see the new name on an old
sheet, give them a colour and see it on the scoreboard, hide one and miss them in the
new-game picker, merge two and see the standings combined and the merge recorded.

Set ``SCOREKEEPER_SCREENSHOTS=/some/dir`` to keep screenshots of the pages."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User

from scorekeeper.models import League, Player
from tests.browser.sheet_ui import watch
from tests.scorekeeper.league_factories import play_syn

SMALL = {"width": 360, "height": 740}


def _shoot(page: Any, name: str) -> None:
    folder = os.environ.get("SCOREKEEPER_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def _fits(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SMALL["width"], f"page is {width}px wide"


def _row(page: Any, player: Player) -> Any:
    return page.locator(f"#player-{player.pk}")


def test_manage_players_on_a_phone(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    page.set_viewport_size(SMALL)
    problems = watch(page)  # script errors and CSP violations
    owner = User.objects.get(username="ana")
    ana = Player.objects.get(user=owner)
    bo, cy, rob = (Player.objects.create(name=n, created_by=owner) for n in ("Bo", "Cy", "Robert"))
    long = Player.objects.create(name="X" * 60, created_by=owner)
    league = League.objects.create(name="Thursday", owner=owner)
    old = play_syn(owner, league, [ana, bo, cy], [bo], minutes_ago=60)
    play_syn(owner, league, [ana, rob, cy], [rob], minutes_ago=30)
    live = play_syn(owner, None, [ana, bo, cy], [ana, bo], target=5)

    page.goto(f"{live_server.url}/players/")
    page.get_by_role("heading", name="Players", exact=True).wait_for()
    _fits(page)
    _shoot(page, "players-page")
    for control in page.locator("main summary, main button, main .pl-swatch").all():
        if control.is_visible():
            box = control.bounding_box()
            assert box["height"] >= 44, (control.inner_text(), box)

    # Rename Bo (htmx swaps the row), then the old sheet shows the new name.
    row = _row(page, bo)
    row.locator("summary", has_text="Rename").click()
    row.get_by_label("New name").fill("Boris")
    row.get_by_role("button", name="Rename").click()
    page.locator(f"#player-{bo.pk} .pl-name", has_text="Boris").wait_for()
    page.goto(f"{live_server.url}/games/{old.pk}/")
    page.locator(".score-grid thead", has_text="Boris").wait_for()
    assert "Bo\n" not in page.locator(".score-grid thead").inner_text()

    # A colour: the grid header and the scoreboard of a game in progress show it.
    page.goto(f"{live_server.url}/players/")
    row = _row(page, bo)
    row.locator("summary", has_text="Colour").click()
    row.locator(".pl-swatch[title=Pink]").click()
    row.get_by_role("button", name="Save colour").click()
    page.locator(f"#player-{bo.pk} summary", has_text="Colour: pink").wait_for()
    page.goto(f"{live_server.url}/games/{live.pk}/")
    dot = page.locator(".scoreboard .board-line", has_text="Boris").locator(".player-dot")
    assert "player-c9" in (dot.get_attribute("class") or "")
    colour = dot.evaluate("d => getComputedStyle(d).backgroundColor")
    assert colour == "rgb(205, 83, 156)", colour  # --player-9, light
    header = page.locator(".score-grid thead .player-dot.player-c9")
    assert header.count() == 1
    _fits(page)
    _shoot(page, "sheet-colours")

    # Hide the long test name: the new-game picker no longer offers it.
    page.goto(f"{live_server.url}/players/")
    _row(page, long).get_by_role("button", name="Hide from pickers").click()
    page.locator(f"#player-{long.pk} .pl-hidden-tag").wait_for()
    page.goto(f"{live_server.url}/games/new/?ruleset=dirt")
    options = page.locator("#seat-0-player option").all_inner_texts()
    assert "X" * 60 not in options
    assert "Boris" in options

    # Merge Robert into Boris: one line in the standings with both games, and the merge
    # is on the league's page and Boris's.
    page.goto(f"{live_server.url}/players/?merge={rob.pk}#merge")
    page.select_option("#merge-into", str(bo.pk))
    page.get_by_role("button", name="Merge…", exact=True).click()
    page.get_by_role("heading", name="Merge Robert into Boris?").wait_for()
    page.get_by_role("button", name="Merge them", exact=True).click()
    page.get_by_text("Robert was merged into Boris: 1 game moved over.").wait_for()
    _shoot(page, "players-merged")
    page.goto(f"{live_server.url}/leagues/{league.pk}/")
    standings = page.locator("#standings")
    assert "Robert" not in standings.inner_text()
    # The standings table's line (between 00:00 and 01:00 the two games fall on two
    # nights, and the rating race's table of values has a line for Boris too).
    line = standings.locator("table.lg-standings tr", has_text="Boris").inner_text()
    assert re.search(r"\b2\b", line), line  # two games
    page.get_by_text(re.compile(r"Robert was merged into Boris on \d+ \w+ \d{4}")).wait_for()
    _fits(page)
    _shoot(page, "league-merged")
    page.goto(f"{live_server.url}/players/{bo.pk}/")
    page.get_by_text(re.compile(r"Robert was merged into Boris on")).wait_for()
    assert problems == []
