"""League pages on a phone: standings, history filters, head to head and a player's
rating chart work in a real browser under the Content Security Policy.

Set ``SCOREKEEPER_SCREENSHOTS=/some/dir`` to keep full-page screenshots of each page."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User

from scorekeeper.models import League, Player
from tests.scorekeeper.league_factories import seed_league

NAMES = ["Ana", "Bo", "Cy", "Di", "Eve", "Finn", "Gus"]


def _shoot(page: Any, name: str) -> None:
    folder = os.environ.get("SCOREKEEPER_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        height = page.evaluate("document.documentElement.scrollHeight")
        width = page.viewport_size["width"]
        for part, top in enumerate(range(0, height, 900)):
            clip = {"x": 0, "y": top, "width": width, "height": min(900, height - top)}
            page.screenshot(
                path=str(Path(folder) / f"{name}-{part}.png"), full_page=True, clip=clip
            )


def _watch(page: Any) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    return problems


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"page is {width}px wide"
    # Tables fit too (their wrapper could scroll, but a phone should not need to).
    wide = page.evaluate(
        "[...document.querySelectorAll('.table-wrap')]"
        ".filter(w => w.scrollWidth > w.clientWidth + 1)"
        ".map(w => [w.scrollWidth, w.clientWidth])"
    )
    assert not wide, wide


def test_league_pages_on_a_phone(signed_in_page: Any, live_server: Any) -> None:
    page = signed_in_page()
    problems = _watch(page)
    owner = User.objects.get(username="ana")
    league = League.objects.create(name="Thursday table", owner=owner)
    players = [Player.objects.get(user=owner), *(
        Player.objects.create(name=n, created_by=owner) for n in NAMES[1:]
    )]  # fmt: skip
    seed_league(owner, league, players, 24)

    page.goto(f"{live_server.url}/leagues/{league.pk}/")
    assert page.locator("#standings .lg-standings tbody tr").count() == len(players)
    _no_sideways_scroll(page)
    _shoot(page, "league")
    page.set_viewport_size({"width": 360, "height": 740})
    _no_sideways_scroll(page)
    page.set_viewport_size({"width": 390, "height": 844})

    # Standings per game: swapped in place by htmx, the address follows.
    page.locator("#standings .lg-tabs a", has_text="Dirt").click()
    page.wait_for_url("**standings=dirt**")
    assert page.locator("#standings .lg-tabs a[aria-current]").inner_text().startswith("Dirt")
    # History filtered by a player: only their games.
    page.select_option("#history-player", label="Bo")
    page.wait_for_url("**player=**")
    page.wait_for_selector("#history .lg-game")
    for game in page.locator("#history .lg-game").all():
        assert "Bo" in game.inner_text()
    _shoot(page, "league-filtered")

    page.goto(f"{live_server.url}/leagues/{league.pk}/head-to-head/")
    page.select_option("#h2h-a", label="Ana")
    page.select_option("#h2h-b", label="Bo")
    page.click("text=Compare")
    page.wait_for_selector(".lg-score-board")
    _no_sideways_scroll(page)
    _shoot(page, "head-to-head")

    page.goto(f"{live_server.url}/players/{players[1].pk}/")
    assert page.locator("svg.lg-chart-svg polyline").count() == 1
    _no_sideways_scroll(page)
    _shoot(page, "player")
    page.locator("#rating .lg-lines a", has_text="Screw Your Neighbour").click()
    page.wait_for_url("**scope=screw-your-neighbour**")
    assert "Screw Your Neighbour" in page.locator(".lg-chart figcaption").inner_text()

    page.goto(f"{live_server.url}/leagues/")
    _shoot(page, "leagues")
    assert not [p for p in problems if "Content Security Policy" in p], problems
    assert not problems, problems
