"""With eight players the sheet's grid is wider than a small phone (360×740): a cue on
the side that has more (a fade with an arrow, and a line for screen readers) shows at
the start, moves as the grid is scrolled, and is gone at the right end."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scorekeeper.models import Player
from scorekeeper.services.games import game_create
from tests.browser.closing import close_context
from tests.browser.sheet_ui import no_sideways_scroll, watch
from tests.browser.test_invites import sign_in

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
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport=SMALL, device_scale_factor=2, is_mobile=True, has_touch=True)
    ctx.set_default_timeout(10_000)
    yield ctx.new_page()
    close_context(ctx)


def snap(page: Any, name: str) -> None:
    folder = os.environ.get("SCOREKEEPER_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.locator("#sheet-grid .grid-frame").screenshot(path=str(Path(folder) / f"{name}.png"))


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_grid_says_it_scrolls_sideways_until_its_end(
    page: Any, live_server: Any, transactional_db: None, theme: str
) -> None:
    user = User.objects.create_user("ana", password="table-talk-42")
    players = [Player.objects.create(name=EIGHT[0], user=user, created_by=user)]
    players += [Player.objects.create(name=n, created_by=user) for n in EIGHT[1:]]
    game = game_create(owner=user, ruleset="dirt", players=[p.pk for p in players])
    problems = watch(page)
    page.context.add_cookies([{"name": "theme", "value": theme, "url": live_server.url}])
    sign_in(page, live_server)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    frame = page.locator("#sheet-grid .grid-frame")
    right, left = frame.locator(".grid-cue-right"), frame.locator(".grid-cue-left")
    said = page.locator("#sheet-grid .grid-cue-text")

    # At the start: more to the right, said in words too.
    expect(right).to_be_visible()
    expect(left).to_be_hidden()
    expect(said).to_contain_text("more columns to the right")
    no_sideways_scroll(page)
    snap(page, f"grid-cue-start-{theme}")

    # Half way: both sides.
    page.evaluate("document.querySelector('.grid-scroll').scrollLeft = 200")
    expect(left).to_be_visible()
    expect(right).to_be_visible()
    expect(said).to_contain_text("to the left")

    # At the right end: no cue on the right.
    page.evaluate("const s = document.querySelector('.grid-scroll'); s.scrollLeft = s.scrollWidth")
    expect(right).to_be_hidden()
    expect(left).to_be_visible()
    expect(said).not_to_contain_text("to the right")
    snap(page, f"grid-cue-end-{theme}")
    assert not problems, problems
